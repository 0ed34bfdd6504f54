import Foundation
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
        let container = feed.container
        on(.POST, "push", body: .collect(maxSize: "64mb")) { request async throws -> Response in
            let push = try SyncRouteMessages.decoded(SyncPushRequest.self, from: request)
            return try SyncRouteMessages.json(try await container.perform { _ in try server.push(push) })
        }
        on(.POST, "pull", body: .collect(maxSize: "1mb")) { request async throws -> Response in
            let pull = try SyncRouteMessages.decoded(SyncPullRequest.self, from: request)
            return try SyncRouteMessages.json(try await container.perform { _ in try server.pull(pull) })
        }
        get("events") { _ async throws -> Response in
            let events = feed.serverSentEvents(heartbeat: heartbeat)
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

/// The sync routes' JSON bodies.
private enum SyncRouteMessages {
    static func decoded<Message: Decodable>(_ type: Message.Type, from request: Request) throws -> Message {
        guard let body = request.body.data else { throw Abort(.badRequest, reason: "the request has no body: send a \(type) in JSON") }
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            throw Abort(.badRequest, reason: "the body is not a \(type) in JSON: \(error)")
        }
    }

    static func json<Message: Encodable>(_ message: Message) throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .ok, headers: headers, body: .init(data: try JSONEncoder().encode(message)))
    }
}
