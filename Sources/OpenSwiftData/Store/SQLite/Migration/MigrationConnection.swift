import Foundation
import GRDB

/// The connection a migration runs on: one writer on the store file, holding the store's write
/// lock for the whole migration, with foreign keys off so rebuilding a table does not cascade
/// into its side tables, and with renames that leave other tables' references alone.
///
/// Several processes may open one store at once (an app and its extensions, several servers).
/// Whether and how a store is migrated is decided while holding the lock, from the metadata
/// read after it was taken: a process that waited for another's migration finds the store as
/// that migration left it (or, if it failed or its process died, as it was before).
enum MigrationConnection {
    /// Where the copy of a store taken before a migration goes: `<file>.backup`.
    static func backupURL(of url: URL) -> URL {
        URL(fileURLWithPath: url.path + ".backup")
    }

    /// The prefix of the names of backups being written, each migrating process's its own.
    private static func pendingBackupPrefix(of url: URL) -> String {
        url.lastPathComponent + ".backup-in-progress-"
    }

    /// Takes the store's write lock (waiting up to `wait` seconds for another connection, any
    /// process's, to let go of it, calling `whileWaiting` about once a second meanwhile), then
    /// runs `body` in one immediate transaction. The transaction commits only if `body` asks
    /// for it; what `body` throws rolls it back.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the lock is not free within
    ///   `wait`; what `body` throws.
    static func withWriteLock<Result>(
        at url: URL, waitingUpTo wait: TimeInterval, whileWaiting: (@Sendable (TimeInterval) -> Void)? = nil,
        _ body: (Database) throws -> (result: Result, commit: Bool)
    ) throws -> Result {
        let started = Date()
        let busyWait = BusyWait(seconds: wait, reporting: whileWaiting)
        var configuration = SQLiteStore.defensive()
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .callback { busyWait.shouldRetry(afterTries: $0) }
        configuration.prepareDatabase { db in
            SQLiteFunctions.install(in: db)
            try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        }
        // An empty log of its own where there is none: a log SQLite makes for this connection
        // stays empty until the migration writes, and another process opening the store while
        // it is empty would write to the store as it opens (GRDB fills an empty log).
        let placedLog = EmptyWriteAheadLog.place(beside: url)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            if placedLog { EmptyWriteAheadLog.remove(beside: url, after: error) }
            throw error
        }
        defer { try? queue.close() }
        var result: Result?
        do {
            try queue.inTransaction(.immediate) { db in
                let (value, commit) = try body(db)
                result = value
                return commit ? .commit : .rollback
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && result == nil {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store \(url.path) stayed locked by another connection (another process migrating it, or writing) for \(Int(Date().timeIntervalSince(started))) seconds, longer than the configuration's migrationWaitTimeout (\(Int(wait)) s); it was left untouched. Open it again once that process is done, or raise migrationWaitTimeout")
        }
        return result!
    }

    /// Copies the store, as it was last committed, beside itself under a name of this process's
    /// own, through SQLite's backup API; called while holding the write lock, before the
    /// migration writes, so that no other process writes a backup at the same time and no
    /// write lands between the copy and the migration. Backups other processes left behind
    /// (killed while migrating) go first.
    ///
    /// The copy reads through a second connection (the one holding the lock cannot be a backup's
    /// source while in its transaction). With other processes opening and closing the store at
    /// the same moment, that read failed now and then with an I/O error (about once in a hundred
    /// migrations under five processes starting together); the copy is then made again, from a
    /// new connection, a few times before the migration is given up.
    static func backUp(storeAt url: URL) throws -> URL {
        let folder = url.deletingLastPathComponent()
        let prefix = pendingBackupPrefix(of: url)
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(prefix) {
            try? fileManager.removeItem(at: folder.appendingPathComponent(name))
        }
        let pending = folder.appendingPathComponent(prefix + "\(getpid())-\(UUID().uuidString)")
        var attempt = 1
        while true {
            do {
                let source = try DatabaseQueue(path: url.path, configuration: SQLiteStore.queryOnly())
                let copy = try DatabaseQueue(path: pending.path, configuration: SQLiteStore.defensive())
                try source.backup(to: copy)
                try copy.close()
                try source.close()
                return pending
            } catch let error as DatabaseError where attempt < 5 && [.SQLITE_IOERR, .SQLITE_BUSY].contains(error.resultCode) {
                try? fileManager.removeItem(at: pending)
                attempt += 1
                usleep(20_000)
            } catch {
                try? fileManager.removeItem(at: pending)
                let code = (error as? DatabaseError).map { " (SQLite extended code \($0.extendedResultCode.rawValue))" } ?? ""
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the store \(url.path) could not be copied to \(pending.path) before its migration, which did not run; the store is as it was: \(error)\(code)")
            }
        }
    }

    /// Makes a migration's pending backup the store's `<file>.backup`, replacing an older one,
    /// once the migration has committed.
    static func keep(backup pending: URL, of url: URL) throws {
        let backup = backupURL(of: url)
        _ = try? FileManager.default.removeItem(at: backup)
        try FileManager.default.moveItem(at: pending, to: backup)
    }
}
