import Foundation
import OpenSwiftData
import PostgresNIO

// The dry run of a PostgreSQL store's migration: the real statements and stages, then ROLLBACK.
extension PostgresStore {
    /// What opening the store with `schema`'s models and `migrationPlan` would do, found by
    /// doing it: the planned steps, custom stages' code included, run on the server inside a
    /// transaction (holding the store's lock, as a real migration would) that ends in
    /// `ROLLBACK`, so the report is exact (each step's SQL, time, and the stored values it
    /// drops) and nothing is kept.
    ///
    /// ```swift
    /// let report = try PostgresStore.previewMigration(of: configuration, to: Schema(versionedSchema: SchemaV3.self), migrationPlan: Plan.self)
    /// print(report)   // the steps, or why the migration would be refused
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the store.
    ///   - schema: the models the app would open it with.
    ///   - migrationPlan: the plan it would be given.
    /// - Returns: the report; its `refusal` says why the migration would be refused or fail.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached.
    public static func previewMigration(
        of configuration: PostgresConfiguration, to schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil
    ) throws -> MigrationReport {
        try configuration.validate()
        let databaseSchema = configuration.databaseSchema
        let place = "the PostgreSQL schema \(databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        return try session.rolledBackTransaction {
            try session.query("SELECT pg_advisory_xact_lock(\(unescaped: String(lockKey(databaseSchema))))")
            guard let metadata = try readMetadata(in: databaseSchema, session: session) else {
                return MigrationReport(
                    storeURL: configuration.reportURL, storeVersion: "none (a new store would be created)", targetVersion: schema.version.description)
            }
            var report = MigrationReport(storeURL: configuration.reportURL, storeVersion: metadata.versionIdentifier, targetVersion: schema.version.description)
            do {
                let steps = try MigrationPlanner.schemaSteps(
                    of: place, recordedSchemaJSON: metadata.schemaJSON, fingerprint: metadata.fingerprint,
                    versionIdentifier: metadata.versionIdentifier, isVersioned: metadata.isVersioned, to: schema, migrationPlan: migrationPlan)
                try PostgresMigrationRun(
                    steps: steps, configuration: configuration, storeIdentifier: metadata.storeIdentifier, place: place, session: session,
                    progress: nil
                ).run(into: &report)
            } catch let error as SwiftDataError {
                report.refusal = error.explanation ?? "\(error)"
            } catch let timeout as MigrationLockTimeout {
                report.refusal = "the migration of \(place) would wait longer than migrationLockTimeout for a table other connections use: \(timeout.underlying)"
            }
            return report
        }
    }
}
