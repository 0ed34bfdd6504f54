import Hummingbird
import OpenSwiftData
import OpenSwiftDataServer

/// A Hummingbird request context that carries the request's models, as Vapor's
/// `request.modelContext` does: ``ModelContainerMiddleware`` gives each request one.
///
/// ```swift
/// struct AppContext: ModelRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var modelContextStorage: RequestModelContext?
///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
/// or ``BasicModelRequestContext`` where nothing else is needed.
public protocol ModelRequestContext: RequestContext {
    /// Where ``ModelContainerMiddleware`` keeps the request's models: `nil` when it
    /// `init(source:)` makes the context.
    var modelContextStorage: RequestModelContext? { get set }
}

extension ModelRequestContext {
    /// The request's models: one context of the container, whose work runs on the container's
    /// threads (``OpenSwiftDataServer/RequestModelContext/perform(_:)``).
    ///
    /// - Throws: `HTTPError(.internalServerError)` when no ``ModelContainerMiddleware`` is on the
    ///   route, saying so.
    public var modelContext: RequestModelContext {
        get throws {
            guard let modelContextStorage else {
                throw HTTPError(
                    .internalServerError,
                    message: "no ModelContainerMiddleware runs before this route: add router.add(middleware: ModelContainerMiddleware(container))")
            }
            return modelContextStorage
        }
    }
}

/// A request context with nothing but Hummingbird's basics and the request's models.
public struct BasicModelRequestContext: ModelRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var modelContextStorage: RequestModelContext?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
