import Foundation
import OpenSwiftData

/// A ``ModelChangeFeed`` for each container someone listens to, opened for its first
/// subscriber and closed after its last: the sync's event routes for many users' zones, whose
/// feeds each hold a listening connection on PostgreSQL only while a device listens.
public final class ModelChangeFeeds: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`: each listened-to container's feed and how many subscribers it has.
    private var feeds: [ObjectIdentifier: (feed: ModelChangeFeed, subscribers: Int)] = [:]

    public init() {}

    /// The containers listened to now.
    public var count: Int { lock.withLock { feeds.count } }

    /// The server-sent events of `container`'s commits (``ModelChangeFeed/serverSentEvents(heartbeat:)``),
    /// from the container's shared feed.
    ///
    /// - Throws: when the container's stores cannot be watched.
    public func serverSentEvents(of container: ModelContainer, heartbeat: Duration) throws -> AsyncStream<String> {
        let key = ObjectIdentifier(container)
        let feed = try lock.withLock {
            if let entry = feeds[key] {
                feeds[key] = (entry.feed, entry.subscribers + 1)
                return entry.feed
            }
            let feed = try ModelChangeFeed(container: container)
            feeds[key] = (feed, 1)
            return feed
        }
        let events = feed.serverSentEvents(heartbeat: heartbeat)
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let forwarding = Task {
            for await text in events { continuation.yield(text) }
            continuation.finish()
        }
        continuation.onTermination = { [weak self] _ in
            forwarding.cancel()
            self?.release(key)
        }
        return stream
    }

    private func release(_ key: ObjectIdentifier) {
        let closing: ModelChangeFeed? = lock.withLock {
            guard let entry = feeds[key] else { return nil }
            if entry.subscribers > 1 {
                feeds[key] = (entry.feed, entry.subscribers - 1)
                return nil
            }
            feeds[key] = nil
            return entry.feed
        }
        closing?.close()
    }

    /// Closes every feed, ending every subscription: as the server shuts down.
    public func close() {
        let closing = lock.withLock {
            defer { feeds = [:] }
            return feeds.values.map(\.feed)
        }
        for feed in closing { feed.close() }
    }
}
