import Foundation
import OpenSwiftData
import PostgresNIO

extension PostgresStore {
    /// Checks the store a configuration names against the schema it records: the recorded
    /// fingerprint, every table and column that schema needs (with its type), the unique
    /// indices, and the class of each row of a hierarchy. Reads only, in a read-only transaction.
    ///
    /// - Parameter configuration: The store (its `schema` is not needed).
    /// - Returns: The problems found, each saying where; empty for a sound store.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached or
    ///   the PostgreSQL schema holds no store.
    public static func problems(of configuration: PostgresConfiguration) throws -> [String] {
        try configuration.validate()
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        let databaseSchema = configuration.databaseSchema
        return try session.readOnlyTransaction {
            guard let metadata = try readMetadata(in: databaseSchema, session: session) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the PostgreSQL schema \(databaseSchema) of \(PostgresEndpoint.redacted(configuration.url)) holds no OpenSwiftData store")
            }
            guard let schema = try? JSONDecoder().decode(Schema.self, from: Data(metadata.schemaJSON.utf8)) else {
                return ["_osd_metadata: the recorded schema cannot be read"]
            }
            var problems: [String] = []
            if schema.fingerprint != metadata.fingerprint {
                problems.append("_osd_metadata: the recorded fingerprint is not the recorded schema's")
            }
            let tables = PostgresTables(databaseSchema: databaseSchema, schema: schema)
            let existing = try tableNames(in: databaseSchema, session: session)
            for name in tables.tableNames where !existing.contains(name) {
                problems.append("\(name): the table is missing")
            }
            for root in schema.entities where root.superentity == nil && existing.contains(PostgresNames.shortened(root.name)) {
                let table = PostgresNames.shortened(root.name)
                let found = Dictionary(uniqueKeysWithValues: try session.query("""
                    SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                    JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace s ON s.oid = t.relnamespace
                    WHERE s.nspname = \(databaseSchema) AND t.relname = \(table) AND a.attnum > 0 AND NOT a.attisdropped
                    """).map { try $0.decode((String, String).self) })
                for (column, expected, _) in tables.columns(ofTableOf: root) {
                    guard let actual = found[PostgresNames.shortened(column)] else {
                        problems.append("\(root.name).\(column): the column is missing")
                        continue
                    }
                    if actual != expected { problems.append("\(root.name).\(column): the column is \(actual), not \(expected)") }
                }
                if root.subentities.isEmpty == false {
                    let classes = root.selfAndDescendants.map(\.name)
                    for row in try session.query(PostgresQuery(unsafeSQL: "SELECT \"_entity\", count(*) FROM \(tables.table(root.name)) GROUP BY 1")) {
                        let (entity, count) = try row.decode((String, Int).self)
                        if !classes.contains(entity) { problems.append("\(root.name): \(count) row(s) of class \(entity), which the schema does not have") }
                    }
                }
            }
            let indices = Set(try session.query("SELECT indexname::text FROM pg_indexes WHERE schemaname = \(databaseSchema)").map { try $0.decode(String.self) })
            for entity in schema.entities {
                for columns in entity.uniquenessConstraints {
                    let name = PostgresNames.shortened("\(entity.name)_unique_\(columns.joined(separator: "_"))")
                    if !indices.contains(name) { problems.append("\(entity.name): the unique index \(name) is missing, so \(columns.joined(separator: ", ")) may repeat") }
                }
            }
            return problems
        }
    }
}
