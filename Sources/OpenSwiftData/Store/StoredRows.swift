import Foundation
import GRDB

/// The values a store holds in its entities' tables: what a migration check compares before
/// and after.
package struct StoredRows {
    /// By entity, then row key: each row's values by column name.
    let tables: [String: [Int64: [String: StoredValue]]]

    package init(tables: [String: [Int64: [String: StoredValue]]]) {
        self.tables = tables
    }

    /// Reads every row of the entities' tables (those the store file has), through a connection
    /// kept from writing.
    static func read(_ url: URL, entities: [String]) throws -> StoredRows {
        let key = TableLayout.primaryKeyColumn
        let tables = try SQLiteStore.readWithoutWriting(url) { db in
            var tables: [String: [Int64: [String: StoredValue]]] = [:]
            for entity in entities where try db.tableExists(entity) {
                var rows: [Int64: [String: StoredValue]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(entity.quotedDatabaseIdentifier)") {
                    var values: [String: StoredValue] = [:]
                    for (column, value) in row where column != key { values[column] = StoredValue(value) }
                    rows[row[key]] = values
                }
                tables[entity] = rows
            }
            return tables
        }
        return StoredRows(tables: tables)
    }
}
