import Foundation

extension ModelContainer {
    /// Runs `body` with a new context of the container on one of the container's own threads,
    /// and returns what it returns: the way to use the synchronous context API from async code
    /// (a server's request handler) without blocking the cooperative pool or an event loop
    /// while the store works.
    ///
    /// ```swift
    /// app.get("films") { request in
    ///     try await container.perform { context in
    ///         try context.fetch(FetchDescriptor<Film>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    ///     }
    /// }
    /// ```
    ///
    /// The threads are as many as the container's stores serve at once (a PostgreSQL store's
    /// connections; four for SQLite); more calls wait their turn. Models stay inside `body`:
    /// return values, or identifiers to fetch again elsewhere.
    ///
    /// - Parameter body: The work, with a context of its own that it saves itself.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func perform<Result: Sendable>(_ body: @escaping @Sendable (ModelContext) throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            workerThreads.run { [self] in
                continuation.resume(with: Swift.Result { try body(ModelContext(self)) })
            }
        }
    }
}
