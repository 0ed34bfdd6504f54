import Foundation

/// What opening a container would do to its stores, found by running the whole migration
/// (custom stages' code included) on copies: one ``MigrationReport`` per store.
///
/// Made by ``ModelContainer/previewMigration(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``.
/// Printing it shows every step as a person reads it.
public struct MigrationPreview: Sendable, CustomStringConvertible {
    /// One report per store file the configurations name, in their order. A store not created
    /// yet, or already up to date, has a report with no steps.
    public let stores: [MigrationReport]
    /// Why the plan itself would be refused (before any store is looked at); `nil` when it is
    /// well formed.
    public let refusal: String?

    /// Whether opening the container would succeed.
    public var wouldSucceed: Bool { refusal == nil && stores.allSatisfy(\.succeeded) }

    public var description: String {
        var lines: [String] = []
        if let refusal { lines.append("REFUSED before any store was read: \(refusal)") }
        for report in stores {
            lines.append(report.description)
        }
        if lines.isEmpty { lines.append("No store to migrate.") }
        return lines.joined(separator: "\n")
    }
}

extension ModelContainer {
    /// Runs the migration a container with these arguments would run as it opens, on a copy of
    /// each store, and reports what it did, without touching the stores themselves.
    ///
    /// ```swift
    /// let preview = try ModelContainer.previewMigration(
    ///     for: Schema(versionedSchema: SchemaV3.self), migrationPlan: Plan.self,
    ///     configurations: ModelConfiguration(url: storeURL))
    /// print(preview)
    /// if !preview.wouldSucceed { /* keep the old build's data, report the refusal */ }
    /// ```
    ///
    /// - Parameters:
    ///   - forTypes: the models, as for ``ModelContainer/init(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``.
    ///   - migrationPlan: the plan the container would be given.
    ///   - configurations: the stores; only files that allow saving are migrated.
    /// - Returns: the report of each store, with the refusal of any that would be refused.
    /// - Throws: ``SwiftDataError`` only when a store cannot be copied (it cannot be read, or the
    ///   temporary folder cannot be written); refusals are in the preview.
    public static func previewMigration(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws -> MigrationPreview {
        try previewMigration(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// ``previewMigration(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``
    /// for a schema.
    ///
    /// - Parameters:
    ///   - schema: the container's schema.
    ///   - migrationPlan: the plan the container would be given.
    ///   - configurations: the stores; only files that allow saving are migrated.
    /// - Returns: the report of each store, with the refusal of any that would be refused.
    /// - Throws: ``SwiftDataError`` only when a store cannot be copied.
    public static func previewMigration(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...
    ) throws -> MigrationPreview {
        try previewMigration(for: schema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// ``previewMigration(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``
    /// for a schema and an array of configurations.
    ///
    /// - Parameters:
    ///   - givenSchema: the container's schema.
    ///   - migrationPlan: the plan the container would be given.
    ///   - configurations: the stores; only files that allow saving are migrated.
    /// - Returns: the report of each store, with the refusal of any that would be refused.
    /// - Throws: ``SwiftDataError`` only when a store cannot be copied.
    public static func previewMigration(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [ModelConfiguration]
    ) throws -> MigrationPreview {
        let layout: ContainerLayout
        do {
            layout = try ContainerLayout(schema: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
        } catch let error as SwiftDataError {
            return MigrationPreview(stores: [], refusal: error.explanation ?? "\(error)")
        }
        var reports: [MigrationReport] = []
        for store in layout.stores where !store.configuration.isStoredInMemoryOnly && store.configuration.allowsSave {
            reports.append(try previewMigration(
                of: store.configuration.url, to: store.schema, versions: layout.planVersions,
                entitiesElsewhere: store.entitiesElsewhere, backingUp: store.configuration.backsUpBeforeMigrating))
        }
        return MigrationPreview(stores: reports, refusal: nil)
    }

    /// ``previewMigration(for:migrationPlan:configurations:)-(PersistentModel....,_,_)``
    /// for configurations of any store a container runs (files, and PostgreSQL's dry run
    /// inside a transaction it rolls back): the files' reports first, then the other stores'.
    ///
    /// - Parameters:
    ///   - givenSchema: the container's schema.
    ///   - migrationPlan: the plan the container would be given.
    ///   - configurations: the stores.
    /// - Returns: the report of each store, with the refusal of any that would be refused.
    /// - Throws: ``SwiftDataError`` when a store cannot be copied or reached.
    public static func previewMigration(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [any DataStoreConfiguration]
    ) throws -> MigrationPreview {
        var files: [ModelConfiguration] = []
        var reports: [MigrationReport] = []
        for configuration in configurations {
            if let file = configuration as? ModelConfiguration {
                files.append(file)
            } else if let other = configuration as? any ModelStoreConfiguration {
                try other.validate()
                reports.append(try other.previewMigration(schema: other.schema ?? givenSchema, migrationPlan: migrationPlan))
            } else {
                return MigrationPreview(stores: [], refusal: "the configuration \(configuration.name) opens a store a ModelContainer cannot run")
            }
        }
        guard !files.isEmpty else { return MigrationPreview(stores: reports, refusal: nil) }
        let filePreview = try previewMigration(for: givenSchema, migrationPlan: migrationPlan, configurations: files)
        return MigrationPreview(stores: filePreview.stores + reports, refusal: filePreview.refusal)
    }

    /// The report of the migration of one store, run on a copy made in a temporary folder that
    /// is removed afterwards.
    static func previewMigration(
        of url: URL, to target: Schema, versions: PlanVersions?, entitiesElsewhere: Set<String>, backingUp: Bool
    ) throws -> MigrationReport {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return MigrationReport(storeURL: url, storeVersion: "none (a new store would be created)", targetVersion: target.version.description)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-preview-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(url.lastPathComponent)
        try StoreCopy.copy(storeAt: url, to: copy)
        let stored: StoreMetadata?
        do {
            stored = try SQLiteStore.inspectFile(at: copy, readOnly: true)
        } catch let error as SwiftDataError {
            var report = MigrationReport(storeURL: url, storeVersion: "unknown", targetVersion: target.version.description)
            report.refusal = (error.explanation ?? "\(error)").replacingOccurrences(of: copy.path, with: url.path)
            return report
        }
        guard let stored else {
            return MigrationReport(storeURL: url, storeVersion: "none (a new store would be created)", targetVersion: target.version.description)
        }
        var report = MigrationReport(storeURL: url, storeVersion: stored.versionIdentifier, targetVersion: target.version.description)
        do {
            // Planned with the configuration's backup setting, which some refusals depend on,
            // but no copy of the copy is taken: the user's file stays as it was.
            if var migration = try MigrationPlanner.migration(
                of: copy, stored: stored, to: target, versions: versions, entitiesElsewhere: entitiesElsewhere,
                backingUp: backingUp) {
                migration.backsUp = false
                migration.isDryRun = true
                var running: MigrationReport? = report
                defer { report = running! }
                _ = try SQLiteMigrationExecutor.run(
                    storeAt: copy, waitingUpTo: SQLiteStore.busyTimeout, progress: nil,
                    expected: (stored.versionIdentifier, target.version.description), report: &running) { _ in migration }
            }
        } catch let error as SwiftDataError {
            report.refusal = (error.explanation ?? "\(error)").replacingOccurrences(of: copy.path, with: url.path)
        }
        return report
    }
}
