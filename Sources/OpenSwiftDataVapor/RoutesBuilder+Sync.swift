import Foundation
import NIOPosix
import OpenSwiftData
import OpenSwiftDataServer
import SwiftDataSync
import Vapor

extension RoutesBuilder {
    /// Serves a ``SwiftDataSync/SyncServer`` to devices' ``SwiftDataSync/SyncEngine``s:
    /// `POST push` and `POST pull` (JSON), and `GET events`, server-sent events that say
    /// `change` after each commit to the container's stores, by this server or any other on
    /// the same database. The sync's work runs on the container's threads, never on an event
    /// loop. Close the feed as the application shuts down: that ends the event streams.
    ///
    /// Every device syncs the same data: for users with data of their own, serve
    /// ``SwiftDataSync/SyncZones`` instead (``addSyncRoutes(_:feeds:heartbeat:zone:)``).
    ///
    /// ```swift
    /// let sync = try SyncServer(container: app.modelContainer, models: [Trip.self], ledger: ledger)
    /// app.grouped("sync").addSyncRoutes(sync, feed: try ModelChangeFeed(container: app.modelContainer))
    /// ```
    ///
    /// - Parameters:
    ///   - server: The sync server over the app's container.
    ///   - feed: The container's commits, which `events` passes on.
    ///   - heartbeat: How often `events` writes a comment while nothing changes, so that proxies
    ///     keep the connection.
    public func addSyncRoutes(_ server: SyncServer, feed: ModelChangeFeed, heartbeat: Duration = .seconds(20)) {
        addSyncRoutes(server: { _ in server }, events: { _, _ in feed.serverSentEvents(heartbeat: heartbeat) })
    }

    /// Serves each user's own data, a zone of `zones`, to that user's devices: the routes of
    /// ``addSyncRoutes(_:feed:heartbeat:)``, each request in the zone `zone` names for it.
    /// Authenticate with Vapor's own authentication on the group, and name the zone from the
    /// user it found: a request never reaches another zone's stores.
    ///
    /// ```swift
    /// app.grouped("sync").grouped(UserToken.authenticator(), User.guardMiddleware())
    ///     .addSyncRoutes(zones, feeds: feeds) { request in try request.auth.require(User.self).id }
    /// ```
    ///
    /// - Parameters:
    ///   - zones: The users' zones.
    ///   - feeds: The zones' commits, which `events` passes on (close them as the application
    ///     shuts down).
    ///   - heartbeat: How often `events` writes a comment while nothing changes.
    ///   - zone: The zone of the request's user; throw (`Abort(.unauthorized)`) for none.
    public func addSyncRoutes(
        _ zones: SyncZones, feeds: ModelChangeFeeds, heartbeat: Duration = .seconds(20),
        zone: @escaping @Sendable (Request) async throws -> String
    ) {
        addSyncRoutes(
            server: { request in
                let name = try await zone(request)
                // Opening a zone's stores blocks: off the event loop.
                return try await NIOThreadPool.singleton.runIfActive { try zones.server(for: name) }
            },
            events: { _, server in try feeds.serverSentEvents(of: server.container, heartbeat: heartbeat) })
    }

    private func addSyncRoutes(
        server: @escaping @Sendable (Request) async throws -> SyncServer,
        events: @escaping @Sendable (Request, SyncServer) throws -> AsyncStream<String>
    ) {
        on(.POST, "push", body: .collect(maxSize: "64mb")) { request async throws -> Response in
            let push = try SyncRouteMessages.decoded(SyncPushRequest.self, from: request)
            let server = try await server(request)
            return try await SyncRouteMessages.answer { try await server.container.perform { _ in try server.push(push) } }
        }
        on(.POST, "pull", body: .collect(maxSize: "1mb")) { request async throws -> Response in
            let pull = try SyncRouteMessages.decoded(SyncPullRequest.self, from: request)
            let server = try await server(request)
            return try await SyncRouteMessages.answer { try await server.container.perform { _ in try server.pull(pull) } }
        }
        get("events") { request async throws -> Response in
            let events = try events(request, try await server(request))
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
            headers.cacheControl = HTTPHeaders.CacheControl(noCache: true)
            return Response(status: .ok, headers: headers, body: .init(asyncStream: { writer in
                try await writer.writeBuffer(ByteBuffer(string: ": connected\n\n"))
                for await text in events { try await writer.writeBuffer(ByteBuffer(string: text)) }
                try await writer.write(.end)
            }))
        }
    }
}

/// The sync routes' JSON bodies, and refusals as their status and message.
private enum SyncRouteMessages {
    static func decoded<Message: Decodable>(_ type: Message.Type, from request: Request) throws -> Message {
        guard let body = request.body.data else { throw Abort(.badRequest, reason: "the request has no body: send a \(type) in JSON") }
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            throw Abort(.badRequest, reason: "the body is not a \(type) in JSON: \(error)")
        }
    }

    static func answer<Message: Encodable>(_ work: () async throws -> Message) async throws -> Response {
        do {
            var headers = HTTPHeaders()
            headers.contentType = .json
            return Response(status: .ok, headers: headers, body: .init(data: try JSONEncoder().encode(try await work())))
        } catch let refusal as SyncRefusal {
            var headers = HTTPHeaders()
            headers.contentType = .plainText
            return Response(status: HTTPResponseStatus(statusCode: refusal.status), headers: headers, body: .init(string: refusal.message))
        }
    }
}
