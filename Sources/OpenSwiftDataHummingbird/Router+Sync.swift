import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import NIOPosix
import OpenSwiftData
import OpenSwiftDataServer
import ServiceLifecycle
import SwiftDataSync

extension RouterMethods {
    /// Serves a ``SwiftDataSync/SyncServer`` to devices' ``SwiftDataSync/SyncEngine``s:
    /// `POST push` and `POST pull` (JSON), and `GET events`, server-sent events that say
    /// `change` after each commit to the container's stores, by this server or any other on
    /// the same database. The sync's work runs on the container's threads, never on an event
    /// loop.
    ///
    /// Every device syncs the same data: for users with data of their own, serve
    /// ``SwiftDataSync/SyncZones`` instead (``addSyncRoutes(_:feeds:heartbeat:zone:)``).
    ///
    /// ```swift
    /// let sync = try SyncServer(container: container, models: [Trip.self], ledger: ledger)
    /// router.group("sync").addSyncRoutes(sync, feed: try ModelChangeFeed(container: container))
    /// ```
    ///
    /// - Parameters:
    ///   - server: The sync server over the app's container.
    ///   - feed: The container's commits, which `events` passes on.
    ///   - heartbeat: How often `events` writes a comment while nothing changes, so that proxies
    ///     keep the connection.
    @discardableResult
    public func addSyncRoutes(_ server: SyncServer, feed: ModelChangeFeed, heartbeat: Duration = .seconds(20)) -> Self {
        addSyncRoutes(server: { _, _ in server }, events: { _ in feed.serverSentEvents(heartbeat: heartbeat) })
    }

    /// Serves each user's own data, a zone of `zones`, to that user's devices: the routes of
    /// ``addSyncRoutes(_:feed:heartbeat:)``, each request in the zone `zone` names for it.
    /// Authenticate with the app's authentication middleware on the group, and name the zone
    /// from the identity it found: a request never reaches another zone's stores.
    ///
    /// ```swift
    /// router.group("sync").add(middleware: TokenAuthenticator())
    ///     .addSyncRoutes(zones, feeds: feeds) { _, context in try context.requireIdentity().id }
    /// ```
    ///
    /// - Parameters:
    ///   - zones: The users' zones.
    ///   - feeds: The zones' commits, which `events` passes on (close them as the server shuts
    ///     down).
    ///   - heartbeat: How often `events` writes a comment while nothing changes.
    ///   - zone: The zone of the request's user; throw (`HTTPError(.unauthorized)`) for none.
    @discardableResult
    public func addSyncRoutes(
        _ zones: SyncZones, feeds: ModelChangeFeeds, heartbeat: Duration = .seconds(20),
        zone: @escaping @Sendable (Request, Context) async throws -> String
    ) -> Self {
        addSyncRoutes(
            server: { request, context in
                let name = try await zone(request, context)
                // Opening a zone's stores blocks: off the event loop.
                return try await NIOThreadPool.singleton.runIfActive { try zones.server(for: name) }
            },
            events: { server in try feeds.serverSentEvents(of: server.container, heartbeat: heartbeat) })
    }

    private func addSyncRoutes(
        server: @escaping @Sendable (Request, Context) async throws -> SyncServer,
        events: @escaping @Sendable (SyncServer) throws -> AsyncStream<String>
    ) -> Self {
        post("push") { request, context in
            let push = try await SyncRouteMessages.decoded(SyncPushRequest.self, from: request)
            let server = try await server(request, context)
            return try await SyncRouteMessages.answer { try await server.container.perform { _ in try server.push(push) } }
        }
        post("pull") { request, context in
            let pull = try await SyncRouteMessages.decoded(SyncPullRequest.self, from: request)
            let server = try await server(request, context)
            return try await SyncRouteMessages.answer { try await server.container.perform { _ in try server.pull(pull) } }
        }
        get("events") { request, context in
            let events = try events(try await server(request, context))
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": connected\n\n"))
                // The stream never ends by itself: a server shutting down ends it, and devices
                // connect again to the next one.
                for try await text in events.cancelOnGracefulShutdown() { try await writer.write(ByteBuffer(string: text)) }
                try await writer.finish(nil)
            })
        }
        return self
    }
}

/// The sync routes' JSON bodies, and refusals as their status and message.
private enum SyncRouteMessages {
    static func decoded<Message: Decodable>(_ type: Message.Type, from request: Request) async throws -> Message {
        var request = request
        let body = try await request.collectBody(upTo: 64 << 20)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not a \(type) in JSON: \(error)")
        }
    }

    static func answer<Message: Encodable>(_ work: () async throws -> Message) async throws -> Response {
        do {
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(try await work()))))
        } catch let refusal as SyncRefusal {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: HTTPResponse.Status(code: refusal.status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: refusal.message)))
        }
    }
}
