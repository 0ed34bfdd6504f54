import Foundation
import GRDB

/// Copies of store files, made through SQLite's backup API: one consistent snapshot of the
/// store (its write-ahead log included) even while other connections write, read through a
/// connection that cannot write, so the store's files stay as they were.
enum StoreCopy {
    /// Copies the store at `url` into a new file at `destination`, making its folder.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the store cannot be read or the
    ///   copy cannot be written, or `destination` already exists.
    static func copy(storeAt url: URL, to destination: URL, progress: ((Double) -> Void)? = nil) throws {
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: destination.path) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(destination.path) already exists; a store is copied only to a new file")
        }
        try SQLiteStore.checkFile(at: url, readOnly: true)
        do {
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let source = try DatabaseQueue(path: url.path, configuration: SQLiteStore.queryOnly())
            let copy = try DatabaseQueue(path: destination.path, configuration: SQLiteStore.defensive())
            if let progress {
                try source.backup(to: copy, pagesPerStep: 4096) { step in
                    progress(step.totalPageCount > 0 ? Double(step.completedPageCount) / Double(step.totalPageCount) : 1)
                }
            } else {
                try source.backup(to: copy)
            }
            try copy.close()
            try source.close()
        } catch let error as SwiftDataError {
            throw error
        } catch {
            try? fileManager.removeItem(at: destination)
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store \(url.path) could not be copied to \(destination.path): \(error)")
        }
    }
}
