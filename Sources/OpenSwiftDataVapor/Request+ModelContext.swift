import OpenSwiftData
import OpenSwiftDataServer
import Vapor

extension Request {
    private struct RequestModelContextKey: StorageKey {
        typealias Value = RequestModelContext
    }

    /// The request's models, as `request.db` is Fluent's: one context of
    /// `application.modelContainer`, made at the first use, whose work runs on the container's
    /// threads, never on the event loop (``OpenSwiftDataServer/RequestModelContext/perform(_:)``).
    public var modelContext: RequestModelContext {
        if let context = storage[RequestModelContextKey.self] { return context }
        let context = RequestModelContext(container: application.modelContainer)
        storage[RequestModelContextKey.self] = context
        return context
    }
}
