import Foundation
import GRDB

extension StoredRows {
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
