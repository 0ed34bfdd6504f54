import Foundation
import GRDB
import GRDBSQLite

/// Counts the rows inserted, updated and deleted in each table while ``counting(in:_:)`` runs,
/// through SQLite's update hook: every write on the connection, whether through GRDB or a raw
/// statement, is seen. Installed only on a migration's connection, where nothing else (GRDB's
/// transaction observers included) uses the hook.
final class RowChangeTally {
    /// One table's counts, with its name as SQLite passes it, compared without making a string.
    private struct Entry {
        let name: String
        let bytes: [CChar]
        var inserted = 0
        var updated = 0
        var deleted = 0
    }

    private var entries: [Entry] = []
    /// The entry changed last: a run of changes to one table costs one comparison each.
    private var last = 0

    /// Inserted, updated and deleted rows, by table name.
    var counts: [String: (inserted: Int, updated: Int, deleted: Int)] {
        Dictionary(entries.map { ($0.name, ($0.inserted, $0.updated, $0.deleted)) }, uniquingKeysWith: { a, _ in a })
    }

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
        if last >= entries.count || strcmp(entries[last].bytes, table) != 0 {
            if let index = entries.firstIndex(where: { strcmp($0.bytes, table) == 0 }) {
                last = index
            } else {
                entries.append(Entry(name: String(cString: table), bytes: Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1))))
                last = entries.count - 1
            }
        }
        switch operation {
        case SQLITE_INSERT: entries[last].inserted += 1
        case SQLITE_UPDATE: entries[last].updated += 1
        case SQLITE_DELETE: entries[last].deleted += 1
        default: break
        }
    }
}
