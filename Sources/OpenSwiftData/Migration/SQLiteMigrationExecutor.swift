import Foundation
import Logging

/// Brings an SQLite store file to the structure of the schema a container opens it with, in one
/// transaction that holds the store's write lock: every step of the plan, its custom stages'
/// closures and the store's new metadata are committed together or not at all, and the
/// decision to migrate is made after the lock is taken, so that of several processes opening
/// the store at once exactly one migrates it and the others open what it left.
///
/// Before a migration that can drop or rewrite stored values (see
/// `MigrationStep.keepsEveryStoredValue`) it copies the store beside itself, under the lock and
/// under a name of its own, which becomes `<file>.backup` (replacing an older backup) once the
/// migration has committed, unless the configuration's `backsUpBeforeMigrating` is `false`.
/// If a stage throws, a constraint fails or the process dies, the store is left exactly as it
/// was. What ran is logged through ``migrationLog`` and recorded in the store's `_osd_migrations`
/// table.
enum SQLiteMigrationExecutor {
    /// Brings the store at `url` up to date while holding its write lock, and returns the
    /// metadata it records after (the migration's, or the one found if no migration was
    /// needed). `plan` decides the migration from the metadata read once the lock is taken:
    /// another process may have migrated the store while this one waited for it. `report`
    /// gets the migration's steps as they run (those before a failure included); made here
    /// when it is `nil`, and left `nil` when no migration was needed.
    ///
    /// - Parameters:
    ///   - wait: how long to wait for another process holding the lock.
    ///   - progress: where the app follows the migration, and the wait for another process's.
    ///   - expected: the versions the migration was planned for before the lock was taken, for
    ///     the progress reported while waiting.
    /// - Throws: ``SwiftDataError`` when `plan` refuses, a step is refused by what the rows
    ///   hold, a stage's closure throws, the lock is not free in time, or SQLite fails; the store
    ///   is then as it was.
    static func run(
        storeAt url: URL, waitingUpTo wait: TimeInterval, progress: (@Sendable (MigrationProgress) -> Void)?,
        expected: (from: String, to: String), report: inout MigrationReport?,
        plan: (StoreMetadata) throws -> PlannedMigration?
    ) throws -> StoreMetadata {
        let whileWaiting = MigrationProgress.waitingReport(storeURL: url, from: expected.from, to: expected.to, progress)
        var pendingBackup: URL?
        var runReport = report
        defer { report = runReport }
        do {
            let metadata = try SQLiteMigrationTransaction.withWriteLock(at: url, waitingUpTo: wait, whileWaiting: whileWaiting) { db in
                guard let stored = try db.metadata(of: url) else {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "the store \(url.path) no longer has its metadata (another process emptied or replaced the file); it was left as it is")
                }
                guard var migration = try plan(stored) else { return (stored, false) }
                migration.progress = progress
                if runReport == nil {
                    runReport = MigrationReport(
                        storeURL: url, storeVersion: stored.versionIdentifier, targetVersion: migration.target.version.description)
                }
                if migration.backsUp { pendingBackup = try MigrationConnection.backUp(storeAt: url) }
                return (try run(migration, in: db, report: &runReport!), true)
            }
            if let pendingBackup {
                try MigrationConnection.keep(backup: pendingBackup, of: url)
                runReport?.backupURL = MigrationConnection.backupURL(of: url)
            }
            return metadata
        } catch {
            if let pendingBackup { try? FileManager.default.removeItem(at: pendingBackup) }
            if error is SwiftDataError { throw error }
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the migration of \(url.path) failed and was rolled back, so the store is as it was: \(error)")
        }
    }

    /// Runs a planned migration in `db`'s transaction, which holds the store's write lock, and
    /// returns the metadata the store records after it; `report` gets each step as it runs.
    private static func run(_ migration: PlannedMigration, in db: SQLiteMigrationTransaction, report: inout MigrationReport) throws -> StoreMetadata {
        let url = migration.url
        let store = migration.storeDescription
        let after = try StoreMetadata(storeIdentifier: migration.stored.storeIdentifier, schema: migration.target)
        try db.createMigrationHistory()
        if migration.steps.isEmpty {
            try db.write(after)
            migrationLog.debug("\(store) now records version \(migration.target.version), whose structure it has")
            return after
        }
        if migration.steps.allSatisfy(\.keepsEveryStoredValue) {
            migrationLog.debug("\(store): the migration only adds and renames, so no backup copy is made")
        }
        // A drop is a warning when no code of the plan's runs in its step; a custom stage's code
        // had the chance to read what it needed first.
        for step in migration.steps where !step.droppedProperties.isEmpty {
            let kept = migration.isDryRun ? "this is a dry run on a copy, and the store itself keeps them"
                : migration.backsUp ? "the backup \(MigrationConnection.backupURL(of: url).path) keeps them"
                : "no backup is made (backsUpBeforeMigrating is off)"
            let message: Logger.Message = "\(store): \(step.fromName) → \(step.toName) drops \(step.droppedProperties.joined(separator: ", ")) and the values stored there; \(kept)"
            if step.isCustom || migration.isDryRun {
                migrationLog.debug(message)
            } else {
                migrationLog.warning(message)
            }
        }
        let started = Date()
        let restructurings = try migration.restructurings
        let progress = migration.progress.map { MigrationProgressReporter(storeURL: url, stepCount: migration.steps.count, report: $0) }
        for (index, (step, restructuring)) in zip(migration.steps, restructurings).enumerated() {
            try run(
                step, number: index + 1, restructuring, db, url: url, identifier: migration.stored.storeIdentifier,
                report: &report, progress: progress)
        }
        // The store records the schema and version it now has once, after the last step.
        try db.write(after)
        migrationLog.debug("migrated \(url.path) through \(migration.steps.count) step(s) in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        return after
    }

    private static func run(
        _ step: MigrationStep, number: Int, _ restructuring: TableRestructuring, _ db: SQLiteMigrationTransaction, url: URL, identifier: String,
        report: inout MigrationReport, progress: MigrationProgressReporter?
    ) throws {
        progress?.report(step: number, step, .started)
        defer { progress?.report(step: number, step, .finished) }
        let started = Date()
        let before = db.rowsChanged
        var stepReport = MigrationReport.Step(fromVersion: step.fromName, toVersion: step.toName, kind: step.isCustom ? .custom : .lightweight)
        let tally = RowChangeTally()
        var structure = restructuring
        defer {
            stepReport.sql = structure.executedSQL
            stepReport.milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            let entities = Set(step.from.entities.map(\.name) + step.to.entities.map(\.name))
            stepReport.rowChanges = tally.counts.filter { entities.contains($0.key) }.sorted { $0.key < $1.key }.map {
                MigrationReport.RowChanges(entity: $0.key, inserted: $0.value.inserted, updated: $0.value.updated, deleted: $0.value.deleted)
            }
            report.steps.append(stepReport)
        }
        if step.rewritesDecimalText {
            progress?.report(step: number, step, .restructuring)
            structure.executedSQL = try db.counting(into: tally) { try db.upgradeDecimalText(of: step.from.entities) }
        } else {
            try changeStructure(
                step, number: number, &structure, db, url: url, identifier: identifier, report: &stepReport, tally: tally,
                progress: progress)
        }
        let rows = db.rowsChanged - before
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        let kind = stepReport.kind.rawValue
        try db.recordStep(
            from: step.fromName, to: step.toName, kind: kind, sql: structure.executedSQL, rowsChanged: rows,
            milliseconds: milliseconds)
        migrationLog.debug(
            "\(step.fromName) → \(step.toName): \(kind), \(structure.executedSQL.count) SQL statement(s), \(rows) row change(s), \(milliseconds) ms")
        for sql in structure.executedSQL {
            migrationLog.trace("\(sql)")
        }
    }

    /// The structural part of a step and its stage's closures: `willMigrate`, the table changes,
    /// then `didMigrate` with the old rows still readable.
    private static func changeStructure(
        _ step: MigrationStep, number: Int, _ structure: inout TableRestructuring, _ db: SQLiteMigrationTransaction, url: URL, identifier: String,
        report stepReport: inout MigrationReport.Step, tally: RowChangeTally, progress: MigrationProgressReporter?
    ) throws {
        if let willMigrate = step.willMigrate {
            try db.counting(into: tally) {
                try MigrationStageRun.run(
                    willMigrate, over: db.store(schema: step.from, identifier: identifier, url: url), session: nil,
                    phase: "willMigrate", from: step.fromName, to: step.toName, place: url.path)
            }
        }
        let dropped = try db.droppedValues(structure)
        stepReport.droppedEntities = dropped.entities.map { MigrationReport.DroppedEntity(entity: $0.name, rows: $0.rows) }
        stepReport.droppedAttributes = dropped.properties.map {
            MigrationReport.DroppedAttribute(entity: $0.entity, attribute: $0.name, storedValues: $0.values)
        }
        stepReport.uniqueConflicts = try db.uniqueConflicts(structure).map { conflict in
            MigrationReport.UniqueConflict(
                entity: conflict.entity, attributes: conflict.attributes,
                repetitions: conflict.repetitions.map { .init(values: $0.values, rows: $0.rows) })
        }
        progress?.report(step: number, step, .restructuring)
        try db.run(&structure)
        if let didMigrate = step.didMigrate {
            progress?.report(step: number, step, .migratingRows)
            let retainedTables = structure.retainedTables
            let session = MigrationSession(
                oldContext: {
                    ModelContext(ModelContainer(migrating: db.store(
                        schema: step.from, identifier: identifier, url: url, storedNames: retainedTables)))
                },
                reportRows: progress.map { progress in
                    { progress.report(step: number, step, .migratingRows, entity: $0, rowsDone: $1, rowsTotal: $2) }
                })
            try db.counting(into: tally) {
                try MigrationStageRun.run(
                    didMigrate, over: db.store(schema: step.to, identifier: identifier, url: url), session: session,
                    phase: "didMigrate", from: step.fromName, to: step.toName, place: url.path)
            }
            try db.finishCustomStage(&structure, place: url.path)
        }
    }
}
