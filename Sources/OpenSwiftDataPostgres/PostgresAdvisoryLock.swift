import Foundation
import OpenSwiftData

/// A lock that the processes of a server fleet on one PostgreSQL database take in turn:
/// PostgreSQL's session-level advisory lock, on a connection of its own. A process that dies
/// holding it lets it go with its connection.
///
/// ```swift
/// let lock = try PostgresAdvisoryLock(url: databaseURL, name: "sync")
/// let sync = try SyncServer(container: container, models: models, ledger: ledger, exclusively: lock.withLock)
/// ```
public final class PostgresAdvisoryLock: Sendable {
    /// The lock's key, from its name: every process naming the lock alike takes the same one.
    public let key: Int64
    private let name: String
    // One connection: the process's holders take it one at a time.
    private let locks: PostgresAdvisoryLocks

    /// A lock named `name` on the database at `url`.
    ///
    /// - Throws: ``OpenSwiftData/SwiftDataError/loadIssueModelContainer`` when the URL is not a
    ///   PostgreSQL URL the store accepts or the server cannot be reached.
    public init(url: URL, name: String, tls: PostgresTLS? = nil) throws {
        self.name = name
        key = PostgresAdvisoryLocks.key(named: name)
        locks = try PostgresAdvisoryLocks(url: url, tls: tls, maximumConnections: 1)
    }

    /// Runs `body` while this process holds the lock, waiting for other holders first.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        try locks.withLock(named: name, body)
    }
}
