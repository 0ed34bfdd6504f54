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
    /// - Throws: What `body` throws; ``SwiftDataError/loadIssueModelContainer`` once
    ///   ``close()`` was called.
    public func perform<Result: Sendable>(_ body: @escaping @Sendable (ModelContext) throws -> Result) async throws -> Result {
        try await performOnWorkerThread { try body(ModelContext(self)) }
    }

    /// Runs `work` on one of the container's threads, counted as work ``close()`` waits for.
    package func performOnWorkerThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        guard performing.start() else { throw Self.closedError }
        return try await withCheckedThrowingContinuation { continuation in
            workerThreads.run { [self] in
                let result = Swift.Result { try work() }
                performing.finish()
                continuation.resume(with: result)
            }
        }
    }

    /// Lets the work of ``perform(_:)`` calls in flight finish, then closes the connections of
    /// the container's stores (a PostgreSQL store's pool and its listening connection): what a
    /// server calls as it shuts down. Later calls of ``perform(_:)``, and queries and saves of
    /// any context of the container, throw ``SwiftDataError/loadIssueModelContainer`` saying
    /// the container was closed. Calling it again does nothing more. (OpenSwiftData's own;
    /// SwiftData's containers close when released.)
    public func close() async {
        await performing.closeAndWait()
        // Closing a connection waits for the server's answer: on a thread of the container's.
        await withCheckedContinuation { continuation in
            workerThreads.run { [stores] in
                for store in stores { store.close() }
                continuation.resume()
            }
        }
    }

    package static let closedError = SwiftDataError.loadIssueModelContainer.explaining(
        "the model container was closed (ModelContainer.close(), as its server shut down): no work starts after it; open a new container to go on")
}
