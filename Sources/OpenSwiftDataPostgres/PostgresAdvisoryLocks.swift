import Foundation
import OpenSwiftData
import PostgresNIO

/// Named locks that the processes of a server fleet on one PostgreSQL database take in turn:
/// PostgreSQL's session-level advisory locks, one key per name, taken on connections of their
/// own (at most ``maximumConnections``, opened as holders need them). A process that dies
/// holding a lock lets it go with its connection.
///
/// One lock per user's zone of the sync keeps a fleet's processes from serving one user's
/// requests at once while other users' run in parallel:
///
/// ```swift
/// let locks = try PostgresAdvisoryLocks(url: databaseURL)
/// SyncZones.Stores(container: container, ledger: ledger, exclusively: { try locks.withLock(named: "sync " + zone, $0) })
/// ```
public final class PostgresAdvisoryLocks: Sendable {
    /// How many connections the locks hold at most: as many holders run at once in the process.
    public let maximumConnections: Int
    private let connections: PostgresSessionPool

    /// Locks on the database at `url`.
    ///
    /// - Throws: ``OpenSwiftData/SwiftDataError/loadIssueModelContainer`` when the URL is not a
    ///   PostgreSQL URL the store accepts or the server cannot be reached.
    public init(url: URL, tls: PostgresTLS? = nil, maximumConnections: Int = 8) throws {
        let endpoint = try PostgresEndpoint(url, configuration: "advisory locks", tls: tls)
        self.maximumConnections = max(1, maximumConnections)
        connections = try PostgresSessionPool(first: PostgresSession(endpoint), maximum: self.maximumConnections, setUp: { _ in })
    }

    /// The key of the lock named `name`: FNV-1a of its UTF-8, the same in every process,
    /// whatever its hash seed.
    public static func key(named name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash)
    }

    /// Runs `body` while this process holds the lock named `name`, waiting for other holders
    /// (in this process or another) first.
    public func withLock<T>(named name: String, _ body: () throws -> T) throws -> T {
        let key = Self.key(named: name)
        return try connections.withSession { session in
            do {
                _ = try session.query("SELECT pg_advisory_lock(\(key))")
            } catch {
                session.close()
                throw error
            }
            // A connection whose unlock failed may hold the lock still: closing it lets go.
            defer { if (try? session.query("SELECT pg_advisory_unlock(\(key))")) == nil { session.close() } }
            return try body()
        }
    }
}
