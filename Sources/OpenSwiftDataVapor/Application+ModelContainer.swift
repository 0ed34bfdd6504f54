import OpenSwiftData
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
            guard let container = storage[ModelContainerKey.self] else {
                fatalError("app.modelContainer is read before it was set: set it in configure(_:), before the routes use it")
            }
            return container
        }
        set {
            precondition(storage[ModelContainerKey.self] == nil, "app.modelContainer is set once: a second container would leave the first open")
            storage[ModelContainerKey.self] = newValue
            lifecycle.use(ModelContainerLifecycle(container: newValue))
            middleware.use(ModelErrorMiddleware())
        }
    }
}

/// Closes the application's container as the application shuts down.
struct ModelContainerLifecycle: LifecycleHandler {
    let container: ModelContainer

    func shutdownAsync(_ application: Application) async {
        await container.close()
    }
}
