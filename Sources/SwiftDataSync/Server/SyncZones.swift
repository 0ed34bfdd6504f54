import Foundation
import SwiftData

/// The server's side of the sync for many users, each with data of their own: a zone is one
/// user's private data, in stores of its own (a PostgreSQL schema or an SQLite file each), with
/// a ``SyncServer`` over them. What one zone's devices push, pull or name never reaches another
/// zone's stores, so a user's models, identifiers, unique values and history stay theirs
/// whatever another user's devices send.
///
/// The server integrations' routes ask the app which zone a request is for, from the user the
/// framework's authentication found (`addSyncRoutes(_:zone:)`).
///
/// Zones open on their first request and stay open while used; past ``maximumOpen`` the least
/// recently used is let go (its stores close once no request holds them).
public final class SyncZones: @unchecked Sendable {
    /// The stores of one zone, as the app opens them.
    public struct Stores {
        /// The zone's container of the app's models.
        public var container: ModelContainer
        /// The zone's container for the sync's bookkeeping (``SyncServer/ledgerSchema``).
        public var ledger: ModelContainer
        /// Runs each of the zone's requests while no other server process runs one for the
        /// zone: a lock named after the zone, such as `PostgresAdvisoryLocks.withLock(named:)`.
        public var exclusively: @Sendable (_ body: () throws -> Void) throws -> Void

        public init(
            container: ModelContainer, ledger: ModelContainer,
            exclusively: @escaping @Sendable (_ body: () throws -> Void) throws -> Void = { try $0() }
        ) {
            self.container = container
            self.ledger = ledger
            self.exclusively = exclusively
        }
    }

    /// How many zones stay open at once.
    public let maximumOpen: Int
    private let models: [any PersistentModel.Type]
    private let migrationPlan: (any SchemaMigrationPlan.Type)?
    private let node: String
    private let open: @Sendable (_ zone: String) throws -> Stores
    private let condition = NSCondition()
    // Guarded by `condition`: the open zones, when each was last asked for, and the zones being
    // opened (a second request for one waits for the first's opening).
    private var servers: [String: SyncServer] = [:]
    private var lastUse: [String: UInt64] = [:]
    private var opening: Set<String> = []
    private var uses: UInt64 = 0
    /// Each zone's lock in this process, kept after its zone is let go: a request still running
    /// on a server let go and one on the zone opened again take their turns.
    private var zoneLocks: [String: NSLock] = [:]

    /// Zones whose stores `open` gives for each zone name.
    ///
    /// - Parameters:
    ///   - models: The model classes devices sync.
    ///   - migrationPlan: The models' plan, as ``SyncServer/init(container:models:ledger:migrationPlan:node:exclusively:)`` takes it.
    ///   - maximumOpen: How many zones stay open at once (each holds its stores' connections).
    ///   - node: The process's name in the sync, the same in every zone.
    ///   - open: Opens (making them the first time) the stores of the zone named: a schema or
    ///     file named after it. Zone names come from the app (a user's identifier).
    public init(
        models: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)? = nil, maximumOpen: Int = 64,
        node: String = "server-" + UUID().uuidString.prefix(8).lowercased(),
        open: @escaping @Sendable (_ zone: String) throws -> Stores
    ) {
        self.models = models
        self.migrationPlan = migrationPlan
        self.maximumOpen = max(1, maximumOpen)
        self.node = node
        self.open = open
    }

    /// The zone's server, opening the zone's stores when it is not open.
    public func server(for zone: String) throws -> SyncServer {
        condition.lock()
        while opening.contains(zone) { condition.wait() }
        uses += 1
        lastUse[zone] = uses
        if let server = servers[zone] {
            condition.unlock()
            return server
        }
        opening.insert(zone)
        let zoneLock = zoneLocks[zone] ?? NSLock()
        zoneLocks[zone] = zoneLock
        condition.unlock()
        var opened: SyncServer?
        defer {
            condition.withLock {
                opening.remove(zone)
                if let opened { keep(opened, for: zone) } else { lastUse[zone] = nil }
                condition.broadcast()
            }
        }
        let stores = try open(zone)
        let exclusively = stores.exclusively
        opened = try SyncServer(
            container: stores.container, models: models, ledger: stores.ledger, migrationPlan: migrationPlan,
            node: node, exclusively: { body in try zoneLock.withLock { try exclusively(body) } })
        return opened!
    }

    /// The zones open now.
    public var openZones: Set<String> { condition.withLock { Set(servers.keys) } }

    /// Keeps `server` open, letting the least recently used zone go past the maximum.
    /// Called holding `condition`.
    private func keep(_ server: SyncServer, for zone: String) {
        servers[zone] = server
        while servers.count > maximumOpen, let oldest = servers.keys.min(by: { lastUse[$0]! < lastUse[$1]! }) {
            servers[oldest] = nil
            lastUse[oldest] = nil
        }
    }
}
