import Foundation
import OpenSwiftData

/// Tells its subscribers each time the container's stores commit: saves of this process and
/// of every other process on the same store (on PostgreSQL through `LISTEN/NOTIFY`, so every
/// server of a fleet hears every other's). Commits close together may come as one signal.
///
/// The sync's event routes give each connected device a subscription, so a change saved on
/// one device reaches the others without their polling.
public final class ModelChangeFeed: @unchecked Sendable {
    public let container: ModelContainer
    private let lock = NSLock()
    // Guarded by `lock`: who listens, and the notification observer while the feed is open.
    private var subscribers: [UUID: AsyncStream<Void>.Continuation] = [:]
    private var observer: (any NSObjectProtocol)?

    /// Starts hearing the container's commits.
    ///
    /// - Throws: when a store cannot be watched (a PostgreSQL server that cannot be reached).
    public init(container: ModelContainer) throws {
        self.container = container
        try container.beginPostingRemoteChanges()
        let token = NotificationCenter.default.addObserver(forName: ModelContainer.remoteChange, object: container, queue: nil) { [weak self] _ in
            self?.signal()
        }
        lock.withLock { observer = token }
    }

    deinit {
        close()
    }

    /// A signal after each commit (or run of commits) from now on, until the subscriber stops
    /// iterating or the feed closes.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        lock.withLock { subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = lock.withLock { subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The text of a server-sent events stream of the commits: an `event: change` after each
    /// (or run of them), and a comment every `heartbeat` while nothing changes, so that proxies
    /// keep the connection. It ends when the feed closes or the reader stops.
    public func serverSentEvents(heartbeat: Duration) -> AsyncStream<String> {
        let changes = changes()
        let (events, event) = AsyncStream<String>.makeStream()
        let producers = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in changes { event.yield("event: change\ndata: {}\n\n") }
                    event.finish()
                }
                group.addTask {
                    while (try? await Task.sleep(for: heartbeat)) != nil { event.yield(": heartbeat\n\n") }
                }
                await group.next()
                group.cancelAll()
            }
        }
        event.onTermination = { _ in producers.cancel() }
        return events
    }

    /// Stops hearing commits and ends every subscription.
    public func close() {
        let (token, ended) = lock.withLock {
            defer { observer = nil; subscribers = [:] }
            return (observer, subscribers)
        }
        guard let token else { return }
        NotificationCenter.default.removeObserver(token)
        container.endPostingRemoteChanges()
        for continuation in ended.values { continuation.finish() }
    }

    private func signal() {
        for continuation in lock.withLock({ Array(subscribers.values) }) { continuation.yield() }
    }
}
