import Foundation
import OpenSwiftData
import PostgresNIO

/// A lock that the processes of a server fleet on one PostgreSQL database take in turn:
/// PostgreSQL's session-level advisory lock, on a connection of its own. A process that dies
/// holding it lets it go with its connection.
///
/// ```swift
/// let lock = try PostgresAdvisoryLock(url: databaseURL, name: "sync")
/// let sync = try SyncServer(container: container, models: models, ledger: ledger, exclusively: lock.withLock)
/// ```
public final class PostgresAdvisoryLock: @unchecked Sendable {
    /// The lock's key, from its name: every process naming the lock alike takes the same one.
    public let key: Int64
    private let endpoint: PostgresEndpoint
    // Held while a body runs: one holder at a time in the process, on the one connection.
    private let lock = NSLock()
    // Guarded by `lock`; made again when the connection was lost.
    private var session: PostgresSession?

    /// A lock named `name` on the database at `url`.
    ///
    /// - Throws: ``OpenSwiftData/SwiftDataError/loadIssueModelContainer`` when the URL is not a
    ///   PostgreSQL URL the store accepts or the server cannot be reached.
    public init(url: URL, name: String, tls: PostgresTLS? = nil) throws {
        endpoint = try PostgresEndpoint(url, configuration: "lock \(name)", tls: tls)
        // FNV-1a of the name's UTF-8: the same key in every process, whatever its hash seed.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        key = Int64(bitPattern: hash)
        session = try PostgresSession(endpoint)
    }

    /// Runs `body` while this process holds the lock, waiting for other holders first.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let session = try connected()
        do {
            _ = try session.query("SELECT pg_advisory_lock(\(key))")
        } catch {
            self.session = nil
            throw error
        }
        defer {
            if (try? session.query("SELECT pg_advisory_unlock(\(key))")) == nil { self.session = nil }
        }
        return try body()
    }

    private func connected() throws -> PostgresSession {
        if let session { return session }
        let made = try PostgresSession(endpoint)
        session = made
        return made
    }
}
