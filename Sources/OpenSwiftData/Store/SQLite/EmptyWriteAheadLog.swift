import Foundation
import GRDB

/// An empty write-ahead log put beside a store before GRDB's `DatabasePool` opens it.
///
/// The pool's set-up of WAL mode writes a table and drops it on every open unless the store's
/// `-wal` file exists and is not empty, so every launch would rewrite the store. A `-wal` file
/// of 32 zero bytes is a log with no valid header: SQLite reads it as holding no frames, writes
/// a header of its own with the first frame, and, as the last connection to close, deletes it.
/// It is only ever created where no `-wal` file is, so no connection is using one.
enum EmptyWriteAheadLog {
    /// Creates the empty log beside the store at `url` when there is no `-wal` file there;
    /// returns whether it did.
    static func place(beside url: URL) -> Bool {
        let descriptor = open(path(beside: url), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = [UInt8](repeating: 0, count: 32)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return written == bytes.count
    }

    /// Removes the log `place(beside:)` created, when the store could not be opened after all,
    /// unless `error` says another connection holds the store's lock: that connection, in
    /// another process, may be using the log by now, and removing it would lose what it wrote.
    static func remove(beside url: URL, after error: any Error) {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED { return }
        try? FileManager.default.removeItem(atPath: path(beside: url))
    }

    private static func path(beside url: URL) -> String {
        url.path + "-wal"
    }
}
