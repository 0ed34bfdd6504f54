import OpenSwiftDataServer
import Vapor

/// Answers OpenSwiftData's errors as `Abort`s with their HTTP status
/// (``OpenSwiftDataServer/ModelErrorStatus``): a missing model 404, a unique conflict 409, a
/// validation failure 422, a store this server cannot use 503. Setting
/// `app.modelContainer` adds it.
public struct ModelErrorMiddleware: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            guard let status = ModelErrorStatus(error) else { throw error }
            throw Abort(HTTPResponseStatus(statusCode: status.code), reason: status.reason)
        }
    }
}
