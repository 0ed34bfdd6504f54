import Foundation
import OpenSwiftData
import PostgresNIO

/// Runs a PostgreSQL store's planned migration on the connection of the transaction that holds
/// the store's advisory lock: opening commits it, a dry run rolls it back.
///
/// Every step is planned (and every refusal made) before any table changes or any code of the
/// plan's runs. Then, step by step: the custom stage's `willMigrate`, with a context over the
/// store as the old version has it; the step's statements; `didMigrate`, with a context over
/// the store as the new version has it (a transform's old models read the same rows, through
/// the old version's columns, which stay until the stage is done); then what waited for the
/// stage (``PostgresMigration/StepPlan/afterStage``). A stage's saves are savepoints of the
/// migration's transaction, so what it saves is committed with the migration or not at all.
struct PostgresMigrationRun {
    let steps: [PlannedSchemaStep]
    let configuration: PostgresConfiguration
    let storeIdentifier: String
    /// The store, as messages name it.
    let place: String
    let session: PostgresSession
    let progress: MigrationProgressReporter?

    /// Runs every step; `report` gets each step as it runs (those before a failure included).
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming the step and what went
    ///   wrong (a refusal, a stage's error, a column the stage left without values, a statement
    ///   the server refused); ``MigrationLockTimeout`` when a table stayed in use. The caller's
    ///   transaction then rolls back, leaving the store as it was.
    func run(into report: inout MigrationReport) throws {
        let migration = PostgresMigration(
            databaseSchema: configuration.databaseSchema, place: place, allowsDestructiveMigration: configuration.allowsDestructiveMigration)
        let plans = try steps.map(migration.plan(of:))
        // A table another connection is using (an old server reading it) makes ALTER wait: not
        // longer than this, and the whole opening is tried again (retryingLockTimeouts).
        try session.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(Int(configuration.migrationLockTimeout * 1000))ms'"))
        if steps.contains(where: \.isCustom) {
            // A stage's contexts name tables unqualified, as the Query layer does.
            try session.query(PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(PostgresNames.quoted(configuration.databaseSchema))"))
        }
        for (index, (step, plan)) in zip(steps, plans).enumerated() {
            var stepReport = MigrationReport.Step(fromVersion: step.fromName, toVersion: step.toName, kind: step.isCustom ? .custom : .lightweight)
            defer { report.steps.append(stepReport) }
            try run(step, number: index + 1, plan, report: &stepReport)
        }
    }

    private func run(_ step: PlannedSchemaStep, number: Int, _ plan: PostgresMigration.StepPlan, report: inout MigrationReport.Step) throws {
        let start = ContinuousClock.now
        defer { report.milliseconds = Int((ContinuousClock.now - start) / .milliseconds(1)) }
        progress?.report(step: number, from: step.fromName, to: step.toName, .started)
        if let willMigrate = step.willMigrate {
            try runStage(willMigrate, of: step, phase: "willMigrate", over: store(step.from), session: nil)
        }
        try countDropped(plan, of: step, into: &report)
        try checkRepeatedUniqueValues(plan, of: step, into: &report)
        progress?.report(step: number, from: step.fromName, to: step.toName, .restructuring)
        try execute(plan.statements, of: step, report: &report)
        if let didMigrate = step.didMigrate {
            progress?.report(step: number, from: step.fromName, to: step.toName, .migratingRows)
            let old = { store(step.from, currentColumnNames: plan.renamedColumns) }
            let session = MigrationSession(
                oldContext: { ModelContext(ModelContainer(migrating: old())) },
                reportRows: progress.map { progress in
                    { progress.report(step: number, from: step.fromName, to: step.toName, .migratingRows, entity: $0, rowsDone: $1, rowsTotal: $2) }
                })
            try runStage(didMigrate, of: step, phase: "didMigrate", over: store(step.to, readsNullAsUnfilled: !plan.awaitingValues.isEmpty), session: session)
            try checkFilled(plan, of: step)
        }
        try execute(plan.afterStage, of: step, report: &report, uniqueIndices: step.isCustom ? plan.uniqueIndices : [:])
        progress?.report(step: number, from: step.fromName, to: step.toName, .finished)
    }

    /// A store over the migration's transaction, holding `schema`'s models.
    private func store(_ schema: Schema, currentColumnNames: [String: [String: String]] = [:], readsNullAsUnfilled: Bool = false) -> PostgresStore {
        PostgresStore(
            migrating: session, configuration: configuration, schema: schema, identifier: storeIdentifier,
            currentColumnNames: currentColumnNames, readsNullAsUnfilled: readsNullAsUnfilled)
    }

    /// Runs a stage's closure with a context over `store`, in the migration's transaction.
    private func runStage(
        _ closure: (ModelContext) throws -> Void, of step: PlannedSchemaStep, phase: String, over store: PostgresStore,
        session: MigrationSession?
    ) throws {
        try MigrationStageRun.run(
            closure, over: store, session: session, phase: phase, from: step.fromName, to: step.toName, place: place,
            passingThrough: { $0 is MigrationLockTimeout })
    }

    /// Runs `statements`; a unique index of `uniqueIndices` that rows left by a stage still
    /// violate is refused naming its constraint.
    private func execute(
        _ statements: [String], of step: PlannedSchemaStep, report: inout MigrationReport.Step,
        uniqueIndices: [String: (entity: String, constraint: [String])] = [:]
    ) throws {
        for statement in statements {
            report.sql.append(statement)
            do {
                try session.query(PostgresQuery(unsafeSQL: statement))
            } catch let error as PostgresStatementError {
                if error.sqlState == "55P03" { throw MigrationLockTimeout(statement: statement, underlying: error) }
                if error.sqlState == "23505", let index = uniqueIndices[statement] {
                    throw SwiftDataError.stageLeftValuesShared(entity: index.entity, constraint: index.constraint, in: step.toName, place: place)
                }
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the migration of \(place) failed at the step from \(step.fromName) to \(step.toName), and was rolled back, nothing changed: \(error)")
            }
        }
    }

    /// What the step drops, counted before it runs (after `willMigrate`, which may have moved it).
    private func countDropped(_ plan: PostgresMigration.StepPlan, of step: PlannedSchemaStep, into report: inout MigrationReport.Step) throws {
        for item in plan.dropped {
            let entity = step.from.entitiesByName[item.entity]
            let table = PostgresNames.qualified(entity?.rootEntity.name ?? item.entity, in: configuration.databaseSchema)
            if let attribute = item.attribute, entity?.attributesInOrder.contains(where: { $0.name == attribute }) == true {
                let count = try session.query(PostgresQuery(unsafeSQL: "SELECT count(\(PostgresNames.quoted(attribute))) FROM \(table)")).first?.decode(Int64.self) ?? 0
                report.droppedAttributes.append(.init(entity: item.entity, attribute: attribute, storedValues: Int(count)))
            } else if item.attribute == nil {
                // A subentity's rows are those of its class in its hierarchy's table.
                let rows = entity?.superentity == nil ? "" : " WHERE \"_entity\" = \(PostgresNames.literal(item.entity))"
                let count = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)\(rows)")).first?.decode(Int64.self) ?? 0
                report.droppedEntities.append(.init(entity: item.entity, rows: Int(count)))
            }
        }
    }

    /// Refuses the step, before it changes anything, when stored rows (after `willMigrate`)
    /// repeat the values of a unique constraint it adds, naming them as SQLite's store does.
    private func checkRepeatedUniqueValues(_ plan: PostgresMigration.StepPlan, of step: PlannedSchemaStep, into report: inout MigrationReport.Step) throws {
        var problems: [String] = []
        for unique in plan.newUniqueConstraints {
            let columns = unique.columns.map { PostgresNames.quoted($0.name) }.joined(separator: ", ")
            let texts = unique.columns.map { "\(PostgresNames.quoted($0.name))::text" }.joined(separator: ", ")
            let rows = try session.query(PostgresQuery(
                unsafeSQL: "SELECT \(texts), count(*) FROM \(unique.table) GROUP BY \(columns) HAVING count(*) > 1 ORDER BY \(columns) LIMIT 5"))
            let repetitions = try rows.map { row -> (values: [String], rows: Int) in
                let cells = Array(row)
                let values = try unique.columns.indices.map { index -> String in
                    guard let text = try cells[index].decode(String?.self) else { return "NULL" }
                    return unique.columns[index].isText ? text.debugDescription : text
                }
                return (values, Int(try cells[unique.columns.count].decode(Int64.self)))
            }
            guard !repetitions.isEmpty else { continue }
            report.uniqueConflicts.append(.init(
                entity: unique.entity, attributes: unique.constraint, repetitions: repetitions.map { .init(values: $0.values, rows: $0.rows) }))
            problems.append(SwiftDataError.repeatedUniqueValuesProblem(entity: unique.entity, constraint: unique.constraint, in: step.toName, repetitions: repetitions))
        }
        if !problems.isEmpty { throw SwiftDataError.migrationLosesData(from: step.fromName, to: step.toName, problems: problems) }
    }

    /// Refuses the step when `didMigrate` left a row without a value in a non-optional column
    /// it was to fill.
    private func checkFilled(_ plan: PostgresMigration.StepPlan, of step: PlannedSchemaStep) throws {
        for awaiting in plan.awaitingValues {
            let column = PostgresNames.quoted(awaiting.column)
            let count = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(awaiting.table) WHERE \(column) IS NULL")).first?.decode(Int64.self) ?? 0
            guard count > 0 else { continue }
            throw SwiftDataError.stageLeftRowsUnfilled(entity: awaiting.entity, attribute: awaiting.attribute, in: step.toName, rows: Int(count), place: place)
        }
    }
}
