import Foundation
import OpenSwiftData
import PostgresNIO

extension MigrationTester {
    /// ``MigrationTester/verifyEveryPath(sampleRowsPerEntity:sampleValue:)`` on a PostgreSQL
    /// server: each version's sample store is written in a throw-away PostgreSQL schema of the
    /// database `url` names (`osd_tester_…`), migrated there by the PostgreSQL store's own
    /// migration (steps that drop values allowed: nothing else uses it), its values compared as
    /// on SQLite, and the schema dropped.
    ///
    /// ```swift
    /// @Test func everyVersionMigratesOnTheServer() throws {
    ///     try MigrationTester(for: FilmsMigrationPlan.self)
    ///         .verifyEveryPath(onPostgres: URL(string: "postgres://tests@127.0.0.1/films")!)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: the database (`postgres://user:password@host:port/database`); the user may
    ///     create schemas.
    ///   - sampleRowsPerEntity: the rows of each entity in each version's store.
    ///   - sampleValue: values of types the tester cannot invent.
    /// - Returns: one check per version older than the newest.
    /// - Throws: ``MigrationVerificationError`` listing every failure, naming the version,
    ///   entity and attribute.
    @discardableResult
    public func verifyEveryPath(
        onPostgres url: URL, sampleRowsPerEntity: Int = 100, sampleValue: ((SampleValueRequest) -> Any?)? = nil
    ) throws -> [MigrationPathCheck] {
        try verifyEveryPath(sampleRowsPerEntity: sampleRowsPerEntity, sampleValue: sampleValue, in: PostgresSampleStores(url: url))
    }
}

/// Sample stores in throw-away PostgreSQL schemas, migrated in place.
struct PostgresSampleStores: SampleStores {
    let url: URL

    func makeStore(at version: any VersionedSchema.Type, fill: (ModelContext) throws -> Void) throws -> PostgresConfiguration {
        var configuration = PostgresConfiguration(
            url: url, databaseSchema: "osd_tester_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())
        configuration.allowsDestructiveMigration = true
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: version), configurations: [configuration]))
        try fill(context)
        if context.hasChanges { try context.save() }
        return configuration
    }

    func migrated(
        _ place: PostgresConfiguration, writtenBy version: Schema, to newest: any VersionedSchema.Type, plan: any SchemaMigrationPlan.Type
    ) throws -> (before: StoredRows, report: MigrationReport, after: StoredRows) {
        let before = try rows(of: place, schema: version)
        let newestSchema = Schema(versionedSchema: newest)
        let container = try ModelContainer(for: newestSchema, migrationPlan: plan, configurations: [place])
        let report = container.migrationReports.first ?? MigrationReport(
            storeURL: place.reportURL, storeVersion: newestSchema.version.description, targetVersion: newestSchema.version.description)
        return (before, report, try rows(of: place, schema: newestSchema))
    }

    func remove(_ place: PostgresConfiguration) {
        guard let session = try? PostgresSession(try PostgresEndpoint(url, configuration: place.name)) else { return }
        _ = try? session.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(PostgresNames.quoted(place.databaseSchema)) CASCADE"))
    }

    /// Every row of the tables of `schema`'s entities, by entity and key.
    private func rows(of place: PostgresConfiguration, schema: Schema) throws -> StoredRows {
        let session = try PostgresSession(try PostgresEndpoint(url, configuration: place.name))
        let tables = PostgresTables(databaseSchema: place.databaseSchema, schema: schema)
        return try session.readOnlyTransaction {
            let existing = try PostgresStore.tableNames(in: place.databaseSchema, session: session)
            var read: [String: [Int64: [String: StoredValue]]] = [:]
            for entity in schema.entities where entity.superentity == nil && existing.contains(PostgresNames.shortened(entity.name)) {
                let (columns, rows) = try PostgresStore.storedRows(ofTableOf: entity, "", tables: tables, session: session)
                var byKey: [Int64: [String: StoredValue]] = [:]
                for row in rows {
                    guard case .integer(let key) = row[0] else { continue }
                    byKey[key] = Dictionary(uniqueKeysWithValues: zip(columns, row).dropFirst().map { ($0, $1) })
                }
                read[entity.name] = byKey
            }
            return StoredRows(tables: read)
        }
    }
}
