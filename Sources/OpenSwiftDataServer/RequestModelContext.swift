import Foundation
import OpenSwiftData

/// The models of one request on a server: one context of the container, made at the request's
/// first ``perform(_:)``, whose work runs on the container's own threads (never on an event
/// loop), one call at a time. A request's calls see each other's unsaved changes; each saves
/// what it wants kept.
///
/// Vapor names it `request.modelContext`; Hummingbird's request contexts that conform to
/// `ModelRequestContext` have it as `context.modelContext`.
public final class RequestModelContext: @unchecked Sendable {
    /// The container the request's context belongs to.
    public let container: ModelContainer
    // Held while a call's body runs: the context is used by one thread at a time.
    private let lock = NSLock()
    private var context: ModelContext?

    public init(container: ModelContainer) {
        self.container = container
    }

    /// Runs `body` with the request's context on one of the container's threads.
    ///
    /// ```swift
    /// let titles = try await request.modelContext.perform { context in
    ///     try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    /// }
    /// ```
    ///
    /// - Returns: What `body` returns: values, not models (models stay with the context).
    /// - Throws: What `body` throws; ``SwiftDataError/loadIssueModelContainer`` once the
    ///   container was closed (the server is shutting down).
    public func perform<Result: Sendable>(_ body: @escaping @Sendable (ModelContext) throws -> Result) async throws -> Result {
        try await container.performOnWorkerThread { [self] in
            try lock.withLock {
                let context = self.context ?? ModelContext(container)
                self.context = context
                return try body(context)
            }
        }
    }
}
