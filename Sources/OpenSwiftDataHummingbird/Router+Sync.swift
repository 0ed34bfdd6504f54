import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
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
        let container = feed.container
        post("push") { request, _ in
            let push = try await SyncRouteMessages.decoded(SyncPushRequest.self, from: request)
            return try SyncRouteMessages.json(try await container.perform { _ in try server.push(push) })
        }
        post("pull") { request, _ in
            let pull = try await SyncRouteMessages.decoded(SyncPullRequest.self, from: request)
            return try SyncRouteMessages.json(try await container.perform { _ in try server.pull(pull) })
        }
        get("events") { _, _ in
            let events = feed.serverSentEvents(heartbeat: heartbeat)
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

/// The sync routes' JSON bodies.
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

    static func json<Message: Encodable>(_ message: Message) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(message))))
    }
}
