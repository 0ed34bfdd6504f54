import OpenSwiftData
import ServiceLifecycle

/// A model container as a service of a Hummingbird application: it closes the container
/// (``OpenSwiftData/ModelContainer/close()``) on graceful shutdown, after the HTTP server
/// stopped and the work in flight finished.
///
/// ```swift
/// let container = try ModelContainer(for: Note.self, configurations: PostgresConfiguration(url: url))
/// var app = Application(router: router)
/// app.addServices(ModelContainerService(container))
/// ```
///
/// Add it before anything that uses the container in its own shutdown: services stop in the
/// reverse order of their adding.
public struct ModelContainerService: Service {
    public let container: ModelContainer

    public init(_ container: ModelContainer) {
        self.container = container
    }

    public func run() async throws {
        // Returns at graceful shutdown, or throws when the service group is cancelled: the
        // container closes either way.
        try? await gracefulShutdown()
        await container.close()
    }
}
