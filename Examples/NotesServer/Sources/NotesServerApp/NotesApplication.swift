import Foundation
import Hummingbird
import Logging
import OpenSwiftData
import OpenSwiftDataHummingbird
import OpenSwiftDataPostgres

/// The notes server: its store, its migration step, and the application serving it.
public struct NotesServer: Sendable {
    /// The store: a PostgreSQL URL (`DATABASE_URL`, with `sslmode` and the rest as libpq
    /// reads them) and the schema of the database the notes' tables live in.
    public let configuration: PostgresConfiguration

    public init(databaseURL: URL, databaseSchema: String = "public") {
        configuration = PostgresConfiguration(
            schema: Schema(versionedSchema: NotesSchemaV1.self), url: databaseURL, databaseSchema: databaseSchema)
    }

    /// `migrate` before serving (`--dry-run`: what it would do, keeping nothing).
    public var deploy: ModelMigrationDeploy {
        ModelMigrationDeploy(schema: Schema(versionedSchema: NotesSchemaV1.self), migrationPlan: NotesMigrationPlan.self, configurations: [configuration])
    }

    /// The application on `host:port`, its container opened (and migrated) now: a store newer
    /// than these models is refused here, before anything is served.
    public func application(host: String = "127.0.0.1", port: Int = 8080) throws -> some ApplicationProtocol {
        let container = try ModelContainer(
            for: Schema(versionedSchema: NotesSchemaV1.self), migrationPlan: NotesMigrationPlan.self, configurations: [configuration])
        let router = Router(context: BasicModelRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: ModelContainerMiddleware(container))
        addNotesRoutes(to: router)
        var app = Application(router: router, configuration: .init(address: .hostname(host, port: port)), logger: Logger(label: "notes-server"))
        app.addServices(ModelContainerService(container))
        return app
    }
}
