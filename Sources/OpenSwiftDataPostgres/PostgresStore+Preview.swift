import Foundation
import OpenSwiftData
import PostgresNIO

// The dry run of a PostgreSQL store's migration: the real statements, then ROLLBACK.
extension PostgresStore {
    /// What opening the store with `schema`'s models and `migrationPlan` would do, found by
    /// doing it: the planned steps run on the server inside a transaction (holding the store's
    /// lock, as a real migration would) that ends in `ROLLBACK`, so the report is exact (each
    /// step's SQL, time, and the stored values it drops) and nothing is kept.
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
        let storeURL = URL(string: PostgresEndpoint.redacted(configuration.url)) ?? configuration.url
        let session = try PostgresSession(try PostgresEndpoint(configuration.url, configuration: configuration.name))
        try session.query("BEGIN")
        defer { _ = try? session.query("ROLLBACK") }
        try session.query("SELECT pg_advisory_xact_lock(\(unescaped: String(lockKey(databaseSchema))))")
        guard let metadata = try readMetadata(in: databaseSchema, session: session) else {
            return MigrationReport(storeURL: storeURL, storeVersion: "none (a new store would be created)", targetVersion: schema.version.description)
        }
        var report = MigrationReport(storeURL: storeURL, storeVersion: metadata.versionIdentifier, targetVersion: schema.version.description)
        do {
            let steps = try MigrationPlanner.schemaSteps(
                of: place, recordedSchemaJSON: metadata.schemaJSON, fingerprint: metadata.fingerprint,
                versionIdentifier: metadata.versionIdentifier, isVersioned: metadata.isVersioned, to: schema, migrationPlan: migrationPlan)
            let migration = PostgresMigration(
                steps: steps, databaseSchema: databaseSchema, place: place, allowsDestructiveMigration: configuration.allowsDestructiveMigration)
            for step in steps {
                var stepReport = MigrationReport.Step(fromVersion: step.fromName, toVersion: step.toName, kind: step.isCustom ? .custom : .lightweight)
                defer { report.steps.append(stepReport) }
                let plan = try migration.plan(of: step)
                // What the step drops, counted before it runs.
                for item in plan.dropped {
                    let table = PostgresNames.qualified(step.from.entitiesByName[item.entity]?.rootEntity.name ?? item.entity, in: databaseSchema)
                    if let attribute = item.attribute, step.from.entitiesByName[item.entity]?.attributesInOrder.contains(where: { $0.name == attribute }) == true {
                        let count = try session.query(PostgresQuery(unsafeSQL: "SELECT count(\(PostgresNames.quoted(attribute))) FROM \(table)")).first?.decode(Int64.self) ?? 0
                        stepReport.droppedAttributes.append(.init(entity: item.entity, attribute: attribute, storedValues: Int(count)))
                    } else if item.attribute == nil {
                        let count = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")).first?.decode(Int64.self) ?? 0
                        stepReport.droppedEntities.append(.init(entity: item.entity, rows: Int(count)))
                    }
                }
                let start = ContinuousClock.now
                for statement in plan.statements {
                    stepReport.sql.append(statement)
                    try session.query(PostgresQuery(unsafeSQL: statement))
                }
                stepReport.milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1))
            }
        } catch let error as SwiftDataError {
            report.refusal = error.explanation ?? "\(error)"
        } catch let error as PostgresStatementError {
            report.refusal = "the migration of \(place) would fail: \(error)"
        }
        return report
    }
}
