import Foundation
import OpenSwiftData
import PostgresNIO

extension PostgresStore {
    /// What the store a configuration names holds: its version, entities with their row counts,
    /// attributes, relationships and indices, read from the schema it records (no model class
    /// needed) in a read-only transaction: nothing is written, not even a missing schema.
    ///
    /// - Parameter configuration: The store (its `schema` is not needed).
    /// - Returns: The inspection, as `osd inspect` prints it.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached or
    ///   the PostgreSQL schema holds no store.
    public static func inspection(of configuration: PostgresConfiguration) throws -> StoreInspection {
        try configuration.validate()
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        let databaseSchema = configuration.databaseSchema
        let place = "the PostgreSQL schema \(databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
        return try session.readOnlyTransaction {
            let (metadata, schema) = try recordedStore(in: databaseSchema, place: place, session: session)
            let tables = PostgresTables(databaseSchema: databaseSchema, schema: schema)
            var rowCounts: [String: Int] = [:]
            var indices: [String: [(name: String, columns: [String], unique: Bool)]] = [:]
            for root in schema.entities where root.superentity == nil {
                let table = tables.table(root.name)
                if root.subentities.isEmpty {
                    rowCounts[root.name] = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")).first?.decode(Int.self) ?? 0
                } else {
                    for row in try session.query(PostgresQuery(unsafeSQL: "SELECT \"_entity\", count(*) FROM \(table) GROUP BY 1")) {
                        let (entity, count) = try row.decode((String, Int).self)
                        rowCounts[entity] = count
                    }
                }
                let hierarchy = root.selfAndDescendants.map(\.name).sorted { $0.count > $1.count }
                for (name, unique, columns) in try indexColumns(of: PostgresNames.shortened(root.name), in: databaseSchema, session: session) {
                    // An index is named after the entity that declares it, the root's table holding it.
                    let owner = hierarchy.first { name.hasPrefix($0 + "_") } ?? root.name
                    indices[owner, default: []].append((name, columns, unique))
                }
            }
            return StoreInspection(
                path: "\(PostgresEndpoint.redacted(configuration.url)), schema \(databaseSchema)",
                versionIdentifier: metadata.versionIdentifier, fingerprint: metadata.fingerprint, schema: schema,
                rowCounts: rowCounts, indices: indices, columnDefaults: [:], history: [], files: [], backups: [],
                foreignObjects: [], persistentHistory: (0, 0))
        }
    }

    /// The indices of a table but its primary key: name, uniqueness, columns in order.
    private static func indexColumns(of table: String, in databaseSchema: String, session: PostgresSession) throws -> [(String, Bool, [String])] {
        try session.query("""
            SELECT i.relname::text, ix.indisunique, array_agg(a.attname::text ORDER BY k.n)
            FROM pg_index ix
            JOIN pg_class i ON i.oid = ix.indexrelid
            JOIN pg_class t ON t.oid = ix.indrelid
            JOIN pg_namespace s ON s.oid = t.relnamespace
            CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
            WHERE s.nspname = \(databaseSchema) AND t.relname = \(table) AND NOT ix.indisprimary
            GROUP BY i.relname, ix.indisunique ORDER BY 1
            """).map { try $0.decode((String, Bool, [String]).self) }
    }

    /// The schema the store a configuration names records: the snapshot of the version that
    /// wrote it, read in a read-only transaction.
    ///
    /// - Parameter configuration: The store (its `schema` is not needed).
    /// - Returns: The recorded schema, which ``Schema/save(to:)`` writes in the snapshot format.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached or
    ///   the PostgreSQL schema holds no store.
    public static func recordedSchema(of configuration: PostgresConfiguration) throws -> Schema {
        try configuration.validate()
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        let place = "the PostgreSQL schema \(configuration.databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
        return try session.readOnlyTransaction { try recordedStore(in: configuration.databaseSchema, place: place, session: session).schema }
    }

    /// The metadata of the store in a PostgreSQL schema, and the schema it records.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming `place` when there is no store
    ///   or its recorded schema cannot be read.
    static func recordedStore(in databaseSchema: String, place: String, session: PostgresSession) throws -> (metadata: Metadata, schema: Schema) {
        guard let metadata = try readMetadata(in: databaseSchema, session: session) else {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(place) holds no OpenSwiftData store (it has no _osd_metadata table)")
        }
        do {
            return (metadata, try JSONDecoder().decode(Schema.self, from: Data(metadata.schemaJSON.utf8)))
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining("the schema \(place) records cannot be read: \(error)")
        }
    }
}
