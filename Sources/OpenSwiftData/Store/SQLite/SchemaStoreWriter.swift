import Foundation
import GRDB

/// Writes a new OpenSwiftData store from a schema alone, without the app's model classes: its
/// metadata recording the schema, its tables (``TableDefinition``), then rows given as the
/// values the store keeps, under keys the caller chooses. In one transaction: when anything
/// fails, the file holds no store.
///
/// An import of a store Apple's SwiftData wrote uses it where only the model that store keeps
/// is at hand (`osd import`).
package struct SchemaStoreWriter {
    private let db: Database
    private let schema: Schema

    /// Creates the store at `url` (no file may be there) and calls `body` to fill it.
    package static func write(at url: URL, schema: Schema, _ body: (SchemaStoreWriter) throws -> Void) throws {
        let queue = try DatabaseQueue(path: url.path, configuration: SQLiteStore.defensive())
        defer { try? queue.close() }
        try queue.write { db in
            try StoreMetadata.createTable(in: db)
            try StoreMetadata(schema: schema).write(to: db)
            let definitions = schema.entities.map { TableDefinition(entity: $0, schema: schema) }
            // A hierarchy's root table first; its subentities add indices and join tables.
            for definition in definitions.sorted(by: { ($0.entity.depth, $0.entity.name) < ($1.entity.depth, $1.entity.name) }) {
                for sql in definition.creationSQL { try db.execute(sql: sql) }
            }
            try body(SchemaStoreWriter(db: db, schema: schema))
        }
    }

    /// Inserts a row of `entity` under `key`: `values` for the attribute columns and to-one key
    /// columns `columns` names.
    package func insert(entity name: String, key: Int64, columns: [String], values: [StoredValue]) throws {
        guard let entity = schema.entitiesByName[name] else { return }
        var names = [TableLayout.primaryKeyColumn] + columns
        var arguments: [DatabaseValueConvertible?] = [key] + values.map(\.databaseValue)
        if !entity.rootEntity.subentities.isEmpty {
            names.append(TableLayout.entityColumn)
            arguments.append(name)
        }
        try db.execute(
            sql: "INSERT INTO \(entity.rootEntity.name.quotedDatabaseIdentifier) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(TableLayout.placeholders(names.count)))",
            arguments: StatementArguments(arguments))
    }

    /// Links two rows through a join table (``RelationshipStorage``).
    package func link(joinTable table: String, source: Int64, target: Int64) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO \(table.quotedDatabaseIdentifier) (\"source\", \"target\") VALUES (?, ?)", arguments: [source, target])
    }

    /// Stores the value of an attribute kept outside its entity's table, for the row `key`.
    package func insertExternal(entity: String, attribute: String, key: Int64, value: StoredValue) throws {
        try db.execute(
            sql: "INSERT INTO \(TableLayout.externalTableName(entity: entity, attribute: attribute)) (\(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier), \"value\") VALUES (?, ?)",
            arguments: [key, value.databaseValue])
    }

    /// Calls `body` with every row of a join table, as (source, target).
    package static func forEachLink(inStoreAt url: URL, joinTable table: String, _ body: (Int64, Int64) throws -> Void) throws {
        try SQLiteStore.readWithoutWriting(url) { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT \"source\", \"target\" FROM \(table.quotedDatabaseIdentifier)")
            while let row = try rows.next() { try body(row[0], row[1]) }
        }
    }

    /// Calls `body` with the key and value of each row of an external attribute's side table.
    package static func forEachExternalValue(inStoreAt url: URL, entity: String, attribute: String, _ body: (Int64, StoredValue) throws -> Void) throws {
        try SQLiteStore.readWithoutWriting(url) { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier), \"value\" FROM \(TableLayout.externalTableName(entity: entity, attribute: attribute))")
            while let row = try rows.next() { try body(row[0], StoredValue(row[1] as DatabaseValue)) }
        }
    }
}
