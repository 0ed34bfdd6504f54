import Foundation
import OpenSwiftData
import OpenSwiftDataServer
import Vapor

extension Application {
    private struct ModelContainerKey: StorageKey {
        typealias Value = ModelContainer
    }

    /// The application's model container, set once as it is configured. Setting it closes it
    /// with the application (``OpenSwiftData/ModelContainer/close()``, after the server stopped
    /// and the work in flight finished) and answers OpenSwiftData's errors with their HTTP
    /// status (``ModelErrorMiddleware``).
    ///
    /// ```swift
    /// app.modelContainer = try ModelContainer(for: Note.self, configurations: PostgresConfiguration(url: url))
    /// app.get("notes") { request in
    ///     try await request.modelContext.perform { context in
    ///         try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    ///     }
    /// }
    /// ```
    public var modelContainer: ModelContainer {
        get {
            guard let container = storage[ModelContainerKey.self] ?? storage[OpenedModelContainerKey.self] else {
                // A configuration mistake, as Vapor's own `app.db` treats one: whether it traps
                // depends only on the app's code (it never set a container), never on what a
                // client sends or on a connection, and the first run of the app shows it.
                fatalError("app.modelContainer is read before it was set or opened: set it in configure(_:), or call app.modelContainer(for:migrationPlan:configurations:) there, before the routes use it")
            }
            return container
        }
        set {
            // Set in configure(_:), before the server takes requests: no request reaches it.
            precondition(storage[ModelContainerKey.self] == nil, "app.modelContainer is set once: a second container would leave the first open")
            storage[ModelContainerKey.self] = newValue
            lifecycle.use(ModelContainerLifecycle(container: newValue))
            middleware.use(ModelErrorMiddleware())
        }
    }
}

extension Application {
    /// Opens the application's container as it boots, migrating its stores with the plan, and
    /// adds the `migrate` command that deploys run before serving: `migrate` migrates and
    /// exits, `migrate --dry-run` prints each step's statements and the rolling-deploy verdict
    /// and keeps nothing (exit status: ``OpenSwiftDataServer/ModelMigrationDeploy/Outcome``).
    /// The container then closes with the application, and OpenSwiftData's errors are answered
    /// with their HTTP status (``ModelErrorMiddleware``).
    ///
    /// ```swift
    /// func configure(_ app: Application) throws {
    ///     app.modelContainer(for: Schema(versionedSchema: NotesV2.self), migrationPlan: NotesPlan.self,
    ///                        configurations: [PostgresConfiguration(url: url)])
    /// }
    /// ```
    ///
    /// A store newer than the models (an older build started after a newer one migrated) stops
    /// the application from booting, the error saying which versions.
    ///
    /// - Parameter exit: what the `migrate` command does with an outcome other than `.done`;
    ///   by default, ends the process with its status.
    public func modelContainer(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [any DataStoreConfiguration & Sendable],
        exit: @escaping @Sendable (ModelMigrationDeploy.Outcome) -> Void = { Foundation.exit($0.rawValue) }
    ) {
        let deploy = ModelMigrationDeploy(schema: schema, migrationPlan: migrationPlan, configurations: configurations)
        asyncCommands.use(ModelMigrateCommand(deploy: deploy, exit: exit), as: "migrate")
        lifecycle.use(ModelContainerOpening(deploy: deploy))
        middleware.use(ModelErrorMiddleware())
    }
}

/// Closes the application's container as the application shuts down.
struct ModelContainerLifecycle: LifecycleHandler {
    let container: ModelContainer

    func shutdownAsync(_ application: Application) async {
        await container.close()
    }
}

/// Opens the container as the application boots, unless the command is `migrate` (which opens
/// the stores itself), and closes it as the application shuts down.
struct ModelContainerOpening: LifecycleHandler {
    let deploy: ModelMigrationDeploy

    func willBootAsync(_ application: Application) async throws {
        guard application.environment.arguments.dropFirst().first != "migrate" else { return }
        let container = try ModelContainer(for: deploy.schema, migrationPlan: deploy.migrationPlan, configurations: deploy.anyConfigurations)
        application.storage[OpenedModelContainerKey.self] = container
    }

    func shutdownAsync(_ application: Application) async {
        await application.storage[OpenedModelContainerKey.self]?.close()
    }
}

struct OpenedModelContainerKey: StorageKey {
    typealias Value = ModelContainer
}

/// `migrate [--dry-run]`: the migration step of a deploy.
struct ModelMigrateCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Flag(name: "dry-run", help: "Print each step's statements and the rolling-deploy verdict; keep nothing.")
        var dryRun: Bool
        init() {}
    }

    let deploy: ModelMigrationDeploy
    let exit: @Sendable (ModelMigrationDeploy.Outcome) -> Void

    var help: String { "Migrates the model container's stores before the new version serves (--dry-run: says what it would do)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let console = context.console
        let outcome = await deploy.run(dryRun: signature.dryRun, print: { console.print($0) })
        if outcome != .done { exit(outcome) }
    }
}
