import Foundation
import OpenSwiftData
import PostgresNIO

extension PostgresStore {
    /// Writes the rows of `entity` (every entity when `nil`, JSON only) of the store a
    /// configuration names, as ``StoreExport`` writes an SQLite store's: the same columns (a
    /// date's `timestamptz` twin left out), the same values. Read in one read-only transaction.
    ///
    /// - Parameters:
    ///   - configuration: The store (its `schema` is not needed).
    ///   - entity: The entity whose rows are written; `nil` for all.
    ///   - format: JSON lines or CSV.
    ///   - write: Called with each line, newline included.
    /// - Returns: How many rows were written.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the store cannot be read or has
    ///   no such entity; what `write` throws.
    @discardableResult
    public static func export(
        _ configuration: PostgresConfiguration, entity: String?, format: StoreExport.Format, write: (String) throws -> Void
    ) throws -> Int {
        try configuration.validate()
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        let databaseSchema = configuration.databaseSchema
        let place = "the PostgreSQL schema \(databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
        return try session.readOnlyTransaction {
            let schema = try recordedStore(in: databaseSchema, place: place, session: session).schema
            let tables = PostgresTables(databaseSchema: databaseSchema, schema: schema)
            return try StoreExport.export(schema: schema, entity: entity, format: format, write: write) { name, columns, body in
                guard let recorded = schema.entitiesByName[name] else {
                    throw SwiftDataError.loadIssueModelContainer.explaining("\(place) has no entity \(name)")
                }
                var condition = ""
                if recorded.superentity != nil {
                    condition = " WHERE \"_entity\" IN (\(recorded.selfAndDescendants.map { PostgresNames.literal($0.name) }.joined(separator: ", ")))"
                }
                let (names, rows) = try storedRows(ofTableOf: recorded.rootEntity, condition, tables: tables, session: session)
                try columns(names)
                for row in rows { try body(row) }
            }
        }
    }

    /// The columns (but for a date's `timestamptz` twin) and rows, in key order, of the table of
    /// the hierarchy (or flat entity) `root`, as the SQLite store's stored values; `condition`
    /// (an SQL `WHERE`, or empty) selects the rows.
    static func storedRows(
        ofTableOf root: Schema.Entity, _ condition: String, tables: PostgresTables, session: PostgresSession
    ) throws -> (columns: [String], rows: [[StoredValue]]) {
        let storage = Dictionary(
            root.selfAndDescendants.flatMap(\.attributesInOrder).compactMap { attribute in attribute.storageType.map { (attribute.name, $0) } },
            uniquingKeysWith: { first, _ in first })
        let selected = tables.columns(ofTableOf: root).filter { !$0.constraints.contains("GENERATED ALWAYS AS (") }
        let kinds: [StorageType] = selected.map { column in
            column.name == "_entity" ? .string : storage[column.name] ?? .int64
        }
        let list = zip(selected, kinds).map { PostgresValues.selected(PostgresNames.quoted($0.name), for: $1) }.joined(separator: ", ")
        let rows = try session.query(PostgresQuery(unsafeSQL: "SELECT \(list) FROM \(tables.table(root.name))\(condition) ORDER BY \"_pk\"")).map { row in
            try zip(row, kinds).map { try PostgresValues.stored($0, as: $1) }
        }
        return (selected.map(\.name), rows)
    }
}
