import OpenSwiftData

/// The migration step of a deploy: run before the new version serves (`migrate`), or as a dry
/// run (`migrate --dry-run`) that prints each step's statements and whether servers of the
/// previous version keep working once it has run (a rolling deploy's verdict), with exit codes
/// a deploy script can branch on.
///
/// ```swift
/// let deploy = ModelMigrationDeploy(schema: Schema(versionedSchema: NotesV2.self), migrationPlan: NotesPlan.self,
///                                   configurations: [PostgresConfiguration(schema: schema, url: url)])
/// exit(await deploy.run(dryRun: CommandLine.arguments.contains("--dry-run")).rawValue)
/// ```
///
/// Vapor apps get it as the `migrate` command (`app.modelContainer(for:migrationPlan:configurations:)`).
// @unchecked: a migration plan's metatype holds no state (plans are enums of static members).
public struct ModelMigrationDeploy: @unchecked Sendable {
    /// How the run ended, as the process's exit status.
    public enum Outcome: Int32, Sendable {
        /// Migrated, or nothing to migrate; a dry run that found every step an expand step.
        case done = 0
        /// The migration was refused or failed (the plan, a store newer than the models, a
        /// step's refusal): nothing was changed. The output says why and what to do.
        case refused = 1
        /// The store could not be reached or read.
        case unreachable = 2
        /// A dry run found a step that breaks servers still running the previous version (a
        /// contract step): deploy it once every server runs the new version, or stop them all.
        case breaksRunningServers = 3
    }

    public let schema: Schema
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    public let configurations: [any DataStoreConfiguration & Sendable]

    public init(schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration & Sendable]) {
        self.schema = schema
        self.migrationPlan = migrationPlan
        self.configurations = configurations
    }

    /// The configurations, as a container takes them.
    public var anyConfigurations: [any DataStoreConfiguration] { configurations.map { $0 } }

    /// Migrates the stores (opening a container, which migrates them, then closing it), or with
    /// `dryRun` only says what that would do; prints what it does through `print`.
    public func run(dryRun: Bool, print: @escaping @Sendable (String) -> Void = { Swift.print($0) }) async -> Outcome {
        let work = self
        do {
            return try await Task.detached {
                dryRun ? try work.preview(print) : try await work.migrate(print)
            }.value
        } catch where StoreFailure(error) == .unreachable {
            print("The stores could not be reached; nothing was changed: \(Self.explanation(of: error))")
            return .unreachable
        } catch {
            // A plan that fails its own checks, a store newer than the models, a step's
            // refusal: the deploy must stop here, and nothing was changed.
            print("The migration was refused; nothing was changed: \(Self.explanation(of: error))")
            return .refused
        }
    }

    private static func explanation(of error: any Error) -> String {
        (error as? SwiftDataError)?.explanation ?? "\(error)"
    }

    private func migrate(_ print: @Sendable (String) -> Void) async throws -> Outcome {
        let container = try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: anyConfigurations)
        if container.migrationReports.isEmpty { print("Nothing to migrate: every store is at \(schema.version).") }
        for report in container.migrationReports { print(report.description) }
        await container.close()
        return .done
    }

    private func preview(_ print: @Sendable (String) -> Void) throws -> Outcome {
        let preview = try ModelContainer.previewMigration(for: schema, migrationPlan: migrationPlan, configurations: anyConfigurations)
        print("Dry run: nothing is kept.")
        print(preview.description)
        guard preview.wouldSucceed else { return .refused }
        let steps = try rollingDeploySteps(after: preview.stores.map(\.storeVersion))
        for step in steps { print(step.description) }
        return steps.allSatisfy(\.isExpandStep) ? .done : .breaksRunningServers
    }

    /// The plan's steps a store at one of `versions` would take.
    private func rollingDeploySteps(after versions: [String]) throws -> [RollingDeployStep] {
        guard let migrationPlan else { return [] }
        let steps = try MigrationTester(for: migrationPlan).rollingDeploySteps()
        var taken: [RollingDeployStep] = []
        for version in Set(versions) {
            guard let first = steps.firstIndex(where: { $0.from.hasSuffix("(\(version))") }) else { continue }
            for step in steps[first...] where !taken.contains(where: { $0.from == step.from }) { taken.append(step) }
        }
        return taken
    }
}
