import HTTPTypes
import Hummingbird
import OpenSwiftData
import OpenSwiftDataServer

/// Gives each request its models (``ModelRequestContext/modelContext``) and answers
/// OpenSwiftData's errors with their HTTP status (``OpenSwiftDataServer/ModelErrorStatus``): a
/// missing model 404, a unique conflict 409, a validation failure 422, a store this server
/// cannot use 503. Other errors pass on as they are.
///
/// ```swift
/// let router = Router(context: BasicModelRequestContext.self)
/// router.add(middleware: ModelContainerMiddleware(container))
/// router.get("notes") { _, context in
///     try await context.modelContext.perform { models in
///         try models.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title)
///     }
/// }
/// ```
public struct ModelContainerMiddleware<Context: ModelRequestContext>: RouterMiddleware {
    public let container: ModelContainer

    public init(_ container: ModelContainer) {
        self.container = container
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.modelContextStorage = RequestModelContext(container: container)
        do {
            return try await next(request, context)
        } catch {
            guard let status = ModelErrorStatus(error) else { throw error }
            throw HTTPError(HTTPResponse.Status(code: status.code), message: status.reason)
        }
    }
}
