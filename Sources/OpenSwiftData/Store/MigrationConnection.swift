import Foundation
import GRDB

/// The connection a migration runs on: one writer on the store file, with foreign keys off so
/// rebuilding a table does not cascade into its side tables, and with renames that leave other
/// tables' references alone.
enum MigrationConnection {
    /// Copies the store to `<file>.backup` when asked, then runs `body` in one immediate
    /// transaction, committed only if `body` returns.
    static func inTransaction(at url: URL, backingUp: Bool, _ body: (Database) throws -> Void) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            QueryFunctions.install(in: db)
            try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        if backingUp {
            let backup = url.path + ".backup"
            try? FileManager.default.removeItem(atPath: backup)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [backup])
            }
        }
        try queue.inTransaction(.immediate) { db in
            try MigrationHistory.createTable(in: db)
            try body(db)
            return .commit
        }
    }
}
