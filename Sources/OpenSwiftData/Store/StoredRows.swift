import Foundation
import GRDB

/// The values a store file holds in its entities' tables, read through a connection kept from
/// writing: what a migration check compares before and after.
struct StoredRows {
    /// By entity, then row key: each row's values by column name.
    let tables: [String: [Int64: [String: DatabaseValue]]]

    /// Reads every row of the entities' tables (those the store has).
    static func read(_ url: URL, entities: [String]) throws -> StoredRows {
        let key = TableLayout.primaryKeyColumn
        let tables = try SQLiteStore.readWithoutWriting(url) { db in
            var tables: [String: [Int64: [String: DatabaseValue]]] = [:]
            for entity in entities where try db.tableExists(entity) {
                var rows: [Int64: [String: DatabaseValue]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(entity.quotedDatabaseIdentifier)") {
                    var values: [String: DatabaseValue] = [:]
                    for (column, value) in row where column != key { values[column] = value }
                    rows[row[key]] = values
                }
                tables[entity] = rows
            }
            return tables
        }
        return StoredRows(tables: tables)
    }
}
