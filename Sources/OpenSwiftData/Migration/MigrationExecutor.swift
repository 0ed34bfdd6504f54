import Foundation
import GRDB
import Logging

/// Brings a store file to the structure of the schema a container opens it with, in one
/// transaction: every step of the plan, its custom stages' closures and the store's new
/// metadata are committed together or not at all.
///
/// Before a migration that can drop or rewrite stored values (see
/// `MigrationStep.keepsEveryStoredValue`) it copies the store beside itself as `<file>.backup`
/// (replacing an older backup), unless the configuration's `backsUpBeforeMigrating` is `false`.
/// If a stage throws, a constraint fails or the process dies, the store is left exactly as it
/// was. What ran is logged through ``migrationLog`` and recorded in the store's `_osd_migrations`
/// table.
enum MigrationExecutor {
    static func migrateIfNeeded(at url: URL, to target: Schema, plan: (any SchemaMigrationPlan.Type)?, backingUp: Bool) throws {
        guard let metadata = try SQLiteStore.inspectFile(at: url, readOnly: false) else { return }
        // A store with the models' structure is up to date, unless a plan's version of the same
        // structure is still to be recorded: custom stages between its version and the models'
        // still run (a store holding some of the entities can keep its structure through
        // versions), and a store written before stores recorded their version gets it once.
        let recordsTargetVersion = plan == nil || metadata.versionIdentifier == target.version.description
        if metadata.fingerprint == target.fingerprint, recordsTargetVersion { return }
        let store = "the store \(url.path)"
        let steps = try MigrationPlanner.steps(stored: metadata, target: target, plan: plan, store: store, backingUp: backingUp)
        if steps.isEmpty {
            if metadata.fingerprint == target.fingerprint, !recordsTargetVersion {
                try MigrationConnection.inTransaction(at: url, backingUp: false) { db in
                    try StoreMetadata(storeIdentifier: metadata.storeIdentifier, schema: target).write(to: db)
                }
                migrationLog.debug("\(store) now records version \(target.version), whose structure it has")
            }
            return
        }
        // What no rows can change is refused before any of the plan's code runs.
        var current = try metadata.schema().entities
        for step in steps {
            let restructuring = TableRestructuring(
                from: current, to: step.to, preparesForCustomStage: step.didMigrate != nil,
                dropsRemovedEntities: plan != nil, fromName: step.fromName, toName: step.toName)
            let problems = restructuring.structuralProblems()
            if !problems.isEmpty { throw restructuring.refusal(problems) }
            current = step.to.entities
        }
        let needsBackup = backingUp && !steps.allSatisfy(\.keepsEveryStoredValue)
        if backingUp, !needsBackup {
            migrationLog.debug("\(store): the migration only adds and renames, so no backup copy is made")
        }
        // A drop is a warning when no code of the plan's runs in its step; a custom stage's code
        // had the chance to read what it needed first.
        for step in steps where !step.droppedProperties.isEmpty {
            let kept = backingUp ? "the backup \(MigrationConnection.backupURL(of: url).path) keeps them" : "no backup is made (backsUpBeforeMigrating is off)"
            let message: Logger.Message = "\(store): \(step.fromName) → \(step.toName) drops \(step.droppedProperties.joined(separator: ", ")) and the values stored there; \(kept)"
            if step.willMigrate == nil, step.didMigrate == nil {
                migrationLog.warning(message)
            } else {
                migrationLog.debug(message)
            }
        }
        try migrate(url, metadata: metadata, steps: steps, target: target, plan: plan, backingUp: needsBackup)
    }

    private static func migrate(
        _ url: URL, metadata: StoreMetadata, steps: [MigrationStep], target: Schema,
        plan: (any SchemaMigrationPlan.Type)?, backingUp: Bool
    ) throws {
        let started = Date()
        do {
            try MigrationConnection.inTransaction(at: url, backingUp: backingUp) { db in
                var current = try metadata.schema().entities
                for step in steps {
                    try run(step, from: current, db, url: url, identifier: metadata.storeIdentifier, plan: plan)
                    current = step.to.entities
                }
                // The store records the schema and version it now has once, after the last step.
                try StoreMetadata(storeIdentifier: metadata.storeIdentifier, schema: target).write(to: db)
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the migration of \(url.path) failed and was rolled back, so the store is as it was: \(error)")
        }
        migrationLog.debug("migrated \(url.path) through \(steps.count) step(s) in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
    }

    private static func run(
        _ step: MigrationStep, from current: [Schema.Entity], _ db: Database, url: URL, identifier: String,
        plan: (any SchemaMigrationPlan.Type)?
    ) throws {
        let started = Date()
        let before = db.totalChangesCount
        if let willMigrate = step.willMigrate {
            try runStage(willMigrate, schema: step.from, db, url: url, identifier: identifier, step: step, phase: "willMigrate")
        }
        var structure = TableRestructuring(
            from: current, to: step.to, preparesForCustomStage: step.didMigrate != nil,
            dropsRemovedEntities: plan != nil, fromName: step.fromName, toName: step.toName)
        try structure.run(in: db)
        if let didMigrate = step.didMigrate {
            let session = MigrationSession(
                db: db, oldSchema: step.from, retainedTables: structure.retainedTables, identifier: identifier, url: url)
            try MigrationSession.$current.withValue(session) {
                try runStage(didMigrate, schema: step.to, db, url: url, identifier: identifier, step: step, phase: "didMigrate")
            }
            try structure.finishCustomStage(in: db)
        }
        let rows = db.totalChangesCount - before
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        let kind = step.willMigrate != nil || step.didMigrate != nil ? "custom" : "lightweight"
        try MigrationHistory.record(
            from: step.fromName, to: step.toName, kind: kind, sql: structure.executedSQL, rowsChanged: rows,
            milliseconds: milliseconds, in: db)
        migrationLog.debug(
            "\(step.fromName) → \(step.toName): \(kind), \(structure.executedSQL.count) SQL statement(s), \(rows) row change(s), \(milliseconds) ms")
        for sql in structure.executedSQL {
            migrationLog.trace("\(sql)")
        }
    }

    /// Runs a custom stage's closure with a context over the migrating transaction; what the
    /// closure saves, and what it leaves unsaved, is written into the migration.
    private static func runStage(
        _ closure: (ModelContext) throws -> Void, schema: Schema, _ db: Database, url: URL,
        identifier: String, step: MigrationStep, phase: String
    ) throws {
        let store = SQLiteStore(migrating: db, schema: schema, identifier: identifier, location: .file(url))
        let context = ModelContext(ModelContainer(migrating: store))
        do {
            try closure(context)
            if context.hasChanges { try context.save() }
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the \(phase) closure of the stage from \(step.fromName) to \(step.toName) threw \(error); the migration was rolled back and the store is as it was")
        }
    }
}
