import Foundation
import GRDB
import GRDBSQLite

/// Counts the rows inserted, updated and deleted in each table while ``counting(in:_:)`` runs,
/// through SQLite's update hook: every write on the connection, whether through GRDB or a raw
/// statement, is seen. Installed only on a migration's connection, where nothing else (GRDB's
/// transaction observers included) uses the hook.
final class RowChangeTally {
    /// Inserted, updated and deleted rows, by table name.
    private(set) var counts: [String: (inserted: Int, updated: Int, deleted: Int)] = [:]
    /// The name of the table changed last, and its C string, so that a run of changes to one
    /// table makes no string per row.
    private var lastTable: (name: String, bytes: [CChar])?

    /// Runs `body` and counts the rows it changes.
    func counting<Result>(in db: Database, _ body: () throws -> Result) rethrows -> Result {
        let connection = db.sqliteConnection
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(connection, { context, operation, _, table, _ in
            guard let context, let table else { return }
            Unmanaged<RowChangeTally>.fromOpaque(context).takeUnretainedValue().record(operation, table: table)
        }, context)
        defer { sqlite3_update_hook(connection, nil, nil) }
        return try withExtendedLifetime(self) { try body() }
    }

    private func record(_ operation: Int32, table: UnsafePointer<CChar>) {
        let name: String
        if let last = lastTable, strcmp(last.bytes, table) == 0 {
            name = last.name
        } else {
            name = String(cString: table)
            lastTable = (name, Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1)))
        }
        var count = counts[name] ?? (0, 0, 0)
        switch operation {
        case SQLITE_INSERT: count.inserted += 1
        case SQLITE_UPDATE: count.updated += 1
        case SQLITE_DELETE: count.deleted += 1
        default: return
        }
        counts[name] = count
    }
}
