import Foundation

/// Copies of whole stores: a backup taken while other processes write, and a restore that
/// refuses to replace a store in use or newer than the backup unless told to. `osd backup` and
/// `osd restore` run these.
public enum StoreFiles {
    /// Copies the store at `url` into a new file at `destination`, through SQLite's backup API:
    /// one consistent snapshot, its write-ahead log included, even while other connections
    /// write. The store is only read.
    ///
    /// - Parameters:
    ///   - url: the store.
    ///   - destination: where the copy goes; nothing may be there yet.
    ///   - progress: called with the fraction copied (0 to 1) as the copy goes, a few thousand
    ///     pages at a time.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the store cannot be read, is
    ///   not a store, or `destination` exists.
    public static func backup(storeAt url: URL, to destination: URL, progress: ((Double) -> Void)? = nil) throws {
        _ = try StoreFileReader.metadata(url)
        try StoreCopy.copy(storeAt: url, to: destination, progress: progress)
    }

    /// Replaces the store at `url` with the backup at `backup`, then checks what it restored.
    ///
    /// Refuses, leaving both files as they were, when the store is in use (its write-ahead log
    /// is present: a container has it open, or a process died with it open) or records a newer
    /// version than the backup, unless `force` is `true`. The backup is copied beside the store
    /// first and moved over it in one rename, so a failed restore leaves the store as it was.
    ///
    /// - Parameters:
    ///   - backup: a store file taken with ``backup(storeAt:to:progress:)`` (or a `.backup` a migration
    ///     left).
    ///   - url: the store to replace; it need not exist.
    ///   - force: replace a store in use or newer than the backup.
    /// - Returns: the problems ``StoreInspection/problems(inStoreAt:)`` finds in the restored
    ///   store (empty when it is sound).
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming the reason for a refusal.
    @discardableResult
    public static func restore(backupAt backup: URL, to url: URL, force: Bool = false) throws -> [String] {
        let restored = try StoreFileReader.metadata(backup)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: url.path), !force {
            if fileManager.fileExists(atPath: url.path + "-wal") {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the store \(url.path) is in use (its write-ahead log \(url.lastPathComponent)-wal is there); close the app that has it open, or pass force to replace it anyway")
            }
            let current = try StoreFileReader.metadata(url)
            if let currentSchema = try? current.schema(), let backupSchema = try? restored.schema(),
               currentSchema.version > backupSchema.version {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the store \(url.path) records version \(current.versionIdentifier), newer than the backup's \(restored.versionIdentifier); restoring would take it back to an older version, which an up-to-date app refuses to open. Pass force to restore it anyway")
            }
        }
        let staging = URL(fileURLWithPath: url.path + ".restore-in-progress")
        try? fileManager.removeItem(at: staging)
        try StoreCopy.copy(storeAt: backup, to: staging)
        do {
            for suffix in ["-wal", "-shm"] { try? fileManager.removeItem(atPath: url.path + suffix) }
            guard rename(staging.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw SwiftDataError.loadIssueModelContainer.explaining("the backup could not be moved into place at \(url.path): \(error)")
        }
        return try StoreFileReader.problems(url)
    }
}
