import Foundation
import OpenSwiftData

/// Hears the commits of other containers and servers to a store: from the first time something
/// watches the store, a connection of its own listens to the store's channel
/// (``PostgresHistory/channel``), which every recording save notifies at its commit, and calls
/// back for each notice another store instance sent.
final class PostgresCommitNotifications: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`: the listening connection, kept while the store lives.
    private var session: PostgresSession?

    /// Starts listening, unless it has already.
    ///
    /// - Parameters:
    ///   - ignoring: the sender of this store's own notices, which its saves announce at once.
    ///   - onCommit: called on a background thread for each other commit.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached.
    func start(
        endpoint: PostgresEndpoint, channel: String, ignoring ownSender: String, onCommit: @escaping @Sendable () -> Void
    ) throws {
        try lock.withLock {
            guard session == nil else { return }
            let listening = try PostgresSession(endpoint)
            try listening.listen(channel) { sender in
                if sender != ownSender { onCommit() }
            }
            session = listening
        }
    }

    /// Stops listening: closes the listening connection.
    func stop() {
        let listening = lock.withLock {
            defer { session = nil }
            return session
        }
        listening?.close()
    }
}
