import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sync's requests as JSON over HTTP: `POST <base>/push` and `POST <base>/pull`, and the
/// server-sent events of `GET <base>/events`: the routes the server integrations serve.
public struct SyncHTTPTransport: SyncTransport {
    /// The address the routes hang under, such as `https://example.com/sync`.
    public let baseURL: URL
    /// Headers sent with every request: the app's authorization, for one.
    public var headers: [String: String]
    private let session: URLSession

    public init(baseURL: URL, headers: [String: String] = [:], session: URLSession = .shared) {
        self.baseURL = baseURL
        self.headers = headers
        self.session = session
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await post(request, to: "push")
    }

    public func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await post(request, to: "pull")
    }

    public func changes() -> AsyncThrowingStream<Void, any Error> {
        var request = URLRequest(url: baseURL.appendingPathComponent("events"))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return ServerSentEvents.changes(of: request)
    }

    private func post<Request: Encodable, Response: Decodable>(_ body: Request, to route: String) async throws -> Response {
        var request = URLRequest(url: baseURL.appendingPathComponent(route))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = try JSONEncoder().encode(body)
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            if status == SyncRefusal.appTooOld || status == SyncRefusal.serverTooOld {
                throw SyncError.refused(status: status, message: String(decoding: data.prefix(4000), as: UTF8.self))
            }
            throw SyncError.server(status: status, message: String(decoding: data.prefix(1000), as: UTF8.self))
        }
        return try JSONDecoder().decode(Response.self, from: data)
    }
}
