import Foundation
import GRDB

/// The connection a migration runs on: one writer on the store file, with foreign keys off so
/// rebuilding a table does not cascade into its side tables, and with renames that leave other
/// tables' references alone.
enum MigrationConnection {
    /// Where the copy of a store taken before a migration goes: `<file>.backup`.
    static func backupURL(of url: URL) -> URL {
        URL(fileURLWithPath: url.path + ".backup")
    }

    /// Copies the store when asked, then runs `body` in one immediate transaction, committed
    /// only if `body` returns.
    ///
    /// The copy is made under a temporary name and becomes `<file>.backup` (replacing an older
    /// backup) only once the migration has committed: a migration that fails leaves no copy,
    /// and the older backup, if any, as it was.
    static func inTransaction(at url: URL, backingUp: Bool, _ body: (Database) throws -> Void) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            QueryFunctions.install(in: db)
            try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        let fileManager = FileManager.default
        let pendingBackup = url.path + ".backup-in-progress"
        if backingUp {
            try? fileManager.removeItem(atPath: pendingBackup)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [pendingBackup])
            }
        }
        do {
            try queue.inTransaction(.immediate) { db in
                try MigrationHistory.createTable(in: db)
                try body(db)
                return .commit
            }
        } catch {
            if backingUp { try? fileManager.removeItem(atPath: pendingBackup) }
            throw error
        }
        if backingUp {
            let backup = backupURL(of: url).path
            _ = try? fileManager.removeItem(atPath: backup)
            try fileManager.moveItem(atPath: pendingBackup, toPath: backup)
        }
    }
}
