import Foundation
import GRDB

/// A store file written by Apple's SwiftData or Core Data (Core Data's SQLite layout), read
/// from a copy: SQLite opens a store in write-ahead-log mode (Core Data's default) by making
/// the log's index beside it, and may fold the log into the file when the last reader closes,
/// so the file and the files beside it are copied (the store, `-wal`, `-shm`) to a folder of
/// its own and read there. The store itself is never opened.
enum AppleStoreFile {
    /// The tables every store of that layout has.
    static let primaryKeyTable = "Z_PRIMARYKEY"
    static let metadataTable = "Z_METADATA"
    static let modelCacheTable = "Z_MODELCACHE"

    /// Whether the database `db` has Core Data's layout.
    static func hasAppleLayout(_ db: Database) throws -> Bool {
        try db.tableExists(primaryKeyTable) && db.tableExists(metadataTable)
    }

    /// Runs `body` on a copy of the store at `url` and the files beside it.
    static func readCopy<T>(of url: URL, _ body: (Database) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SwiftDataError.loadIssueModelContainer.explaining("there is no store at \(url.path)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-apple-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(url.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: url.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: copy.path + suffix))
            }
        }
        return try SQLiteStore.readWithoutWriting(copy, body)
    }
}
