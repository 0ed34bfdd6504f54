import Foundation
import SwiftData

/// The server's side of the sync, over the app's own models: pushes from devices are merged
/// into them, and pulls are answered from the store's history, in its order of changes
/// (commit order across server processes on PostgreSQL). Saves server code makes to the same
/// models are changes like a device's, and go down to every device.
///
/// Serve ``push(_:)`` and ``pull(_:)`` on the app's routes (the Hummingbird and Vapor
/// integrations do), with the requests and answers as JSON. Both are synchronous and take the
/// server's lock, one request at a time in the process: call them where blocking is allowed
/// (a container's own threads on a web server), never on an event loop.
public final class SyncServer: @unchecked Sendable {
    // Held for the whole of each call: the replica and its contexts are one thread's at a time.
    private let lock = NSLock()
    private let replica: SyncReplica
    private let exclusively: @Sendable (_ body: () throws -> Void) throws -> Void
    private let versions: SyncVersions

    /// A server for `container`'s models of the classes `models`, keeping its bookkeeping in
    /// `ledger` (a container of its own, such as a PostgreSQL schema beside the app's tables).
    ///
    /// - Parameters:
    ///   - container: The app's container.
    ///   - models: The model classes devices sync.
    ///   - ledger: A container for the sync's bookkeeping, made with ``SyncServer/ledgerSchema``.
    ///   - migrationPlan: The models' migration plan: devices still running an older version of
    ///     the app sync while every step since their version is an expand step (the plan's
    ///     rolling-deploy check), and get the models as their version declares them. Without a
    ///     plan, devices sync with the container's version of the models only.
    ///   - node: The process's name in the sync: its own changes' timestamps carry it. Each
    ///     server process of a fleet needs its own (the default is new each launch).
    ///   - exclusively: Runs each request's work while no other server process on the same
    ///     database runs one: a fleet's processes share the bookkeeping and take server code's
    ///     saves in turn (`PostgresAdvisoryLock.withLock`). The default suits one process.
    public init(
        container: ModelContainer, models: [any PersistentModel.Type], ledger: ModelContainer,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        node: String = "server-" + UUID().uuidString.prefix(8).lowercased(),
        exclusively: @escaping @Sendable (_ body: () throws -> Void) throws -> Void = { try $0() }
    ) throws {
        versions = try SyncVersions(schema: container.schema, migrationPlan: migrationPlan)
        replica = try SyncReplica(container: container, models: models, ledger: ledger, node: node, isAuthority: true)
        try replica.ledger.save()
        self.exclusively = exclusively
    }

    /// Runs `work` holding this process's lock and the fleet's.
    private func serialized<Result>(_ work: () throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        var result: Result?
        try exclusively {
            replica.ledger.discardUnsaved()
            try replica.catchUpClock()
            result = try work()
        }
        return result!
    }

    /// The schema of the container the server keeps its bookkeeping in.
    public static var ledgerSchema: Schema { Schema(SyncLedger.models) }

    /// The container the server syncs: server code saves to the synced models through it.
    public var container: ModelContainer { replica.container }

    /// Merges a device's changes into the models; answers with the models as they now are.
    ///
    /// - Throws: ``SyncRefusal`` when the device's version of the models is one the server
    ///   cannot sync with.
    public func push(_ request: SyncPushRequest) throws -> SyncPushResponse {
        let known = try versions.properties(known: request.schemaVersion)
        return try serialized {
            try takeServerChanges()
            let merged = try replica.merge(request.changes.map(\.model))
            try replica.ledger.save()
            return SyncPushResponse(accepted: request.changes.map(\.id), models: Self.projected(merged, onto: known))
        }
    }

    /// The models changed after the request's cursor, at most about `limit` of them.
    ///
    /// - Throws: ``SyncRefusal`` when the device's version of the models is one the server
    ///   cannot sync with.
    public func pull(_ request: SyncPullRequest) throws -> SyncPullResponse {
        let known = try versions.properties(known: request.schemaVersion)
        var response = try serialized { try pullHoldingLocks(request) }
        response.models = Self.projected(response.models, onto: known)
        return response
    }

    /// The models as a device knowing only `known` (each entity's properties) declares them.
    private static func projected(_ models: [SyncModel], onto known: [String: Set<String>]?) -> [SyncModel] {
        guard let known else { return models }
        return models.compactMap { model in
            known[model.state.entity].map { SyncModel(id: model.id, state: model.state.projected(onto: $0)) }
        }
    }

    private func pullHoldingLocks(_ request: SyncPullRequest) throws -> SyncPullResponse {
        try takeServerChanges()
        let limit = max(1, min(request.limit, 5000))
        let captured = try replica.ledger.setting(SyncReplica.SettingKey.historyToken).flatMap(Self.token)
        var cursor = try request.cursor.map(SyncServerCursor.init) ?? SyncServerCursor(token: captured, after: nil, walked: false)
        if cursor.walked, try hasLostItsPlace(cursor) {
            // History the device had not pulled was pruned: it walks every model again, deleted
            // ones included, which brings it everything it missed.
            cursor = SyncServerCursor(token: captured, after: nil, walked: false)
        }
        if let node = request.node {
            let position = SyncDevicePosition(token: cursor.token, lastSeen: Date())
            try replica.ledger.set(SyncReplica.SettingKey.pulled(by: node), to: try position.text)
            try replica.ledger.save()
        }
        if !cursor.walked {
            return try walk(from: cursor, limit: limit)
        }
        return try changes(after: cursor, upTo: captured, limit: limit, into: &cursor)
    }

    /// The first pulls: every model there is or was, by global identifier.
    private func walk(from cursor: SyncServerCursor, limit: Int) throws -> SyncPullResponse {
        let after = cursor.after ?? ""
        var descriptor = FetchDescriptor<SyncRecord>(predicate: #Predicate { $0.globalID > after }, sortBy: [SortDescriptor(\.globalID)])
        descriptor.fetchLimit = limit
        let records = try replica.ledger.context.fetch(descriptor)
        var models: [SyncModel] = []
        // Deleted models too: a device walking may hold them (it made them, or walks again
        // after its app was updated) and must learn they are gone.
        for record in records {
            models.append(SyncModel(id: record.globalID, state: try replica.ledger.state(of: record)))
        }
        let next = SyncServerCursor(token: cursor.token, after: records.last?.globalID ?? cursor.after, walked: records.count < limit)
        return SyncPullResponse(models: models, cursor: next.text, hasMore: true)
    }

    /// Later pulls: the models the store's history changed after the cursor, transaction by
    /// transaction, up to what the server has taken in.
    private func changes(after cursor: SyncServerCursor, upTo captured: DefaultHistoryToken?, limit: Int, into next: inout SyncServerCursor) throws -> SyncPullResponse {
        guard let captured else { return SyncPullResponse(models: [], cursor: cursor.text, hasMore: false) }
        let context = ModelContext(replica.container)
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: cursor.token.map { token in #Predicate { $0.token > token } },
            sortBy: [SortDescriptor(\.transactionIdentifier)])
        descriptor.fetchLimit = UInt64(limit)
        let transactions = try context.fetchHistory(descriptor)
        var models: [SyncModel] = []
        var sent: Set<String> = []
        var complete = transactions.count < limit
        for transaction in transactions {
            guard transaction.token <= captured else { complete = true; break }
            for change in transaction.changes {
                guard replica.entities[change.changedPersistentIdentifier.entityName] != nil else { continue }
                // A store may give a deleted model's row to a new one: the change may be about
                // either, and both are sent.
                for record in try replica.ledger.records(everHaving: try replica.localID(of: change.changedPersistentIdentifier))
                where sent.insert(record.globalID).inserted {
                    models.append(SyncModel(id: record.globalID, state: try replica.ledger.state(of: record)))
                }
            }
            next.token = transaction.token
            if models.count >= limit { complete = false; break }
        }
        return SyncPullResponse(models: models, cursor: next.text, hasMore: !complete)
    }

    /// Whether history after the cursor's place was pruned.
    private func hasLostItsPlace(_ cursor: SyncServerCursor) throws -> Bool {
        guard let pruned = try replica.ledger.setting(SyncReplica.SettingKey.prunedThrough).flatMap(Self.token) else { return false }
        guard let token = cursor.token else { return true }
        return token < pruned
    }

    /// Deletes the history of the app's store that every device has pulled, keeping what any
    /// device seen since `date` still lacks (and what the sync has not taken in). A device not
    /// seen since `date` is forgotten: when it comes back after its place in the history was
    /// pruned, its next pull walks every model again (deleted ones included), so it still ends
    /// with everything. A new device walks the models, not the history.
    ///
    /// Run it now and then, per zone (a day's timer, for one).
    ///
    /// - Returns: How many transactions were deleted.
    @discardableResult
    public func pruneHistory(forgettingDevicesNotSeenSince date: Date) throws -> Int {
        try serialized { try pruneHoldingLocks(forgettingDevicesNotSeenSince: date) }
    }

    private func pruneHoldingLocks(forgettingDevicesNotSeenSince date: Date) throws -> Int {
        try takeServerChanges()
        guard var horizon = try replica.ledger.setting(SyncReplica.SettingKey.historyToken).flatMap(Self.token) else { return 0 }
        let positions = try replica.ledger.context.fetch(FetchDescriptor<SyncSetting>())
            .filter { $0.key.hasPrefix(SyncReplica.SettingKey.pulledPrefix) }
        for setting in positions {
            let position = try SyncDevicePosition(setting.value)
            guard position.lastSeen >= date else {
                replica.ledger.context.delete(setting)
                continue
            }
            // A walking device's place is where its walk began: it needs the history after.
            guard let token = position.token else { return try forgetOnly() }
            horizon = min(horizon, token)
        }
        let context = ModelContext(replica.container)
        let through = horizon
        let pruned = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= through })).count
        guard pruned > 0 else { return try forgetOnly() }
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= through }))
        try replica.ledger.set(SyncReplica.SettingKey.prunedThrough, to: String(decoding: try JSONEncoder().encode(through), as: UTF8.self))
        try replica.ledger.save()
        return pruned
    }

    /// Saves the forgetting of devices, pruning nothing.
    private func forgetOnly() throws -> Int {
        try replica.ledger.save()
        return 0
    }

    /// Every synced model here, by global identifier, value by value: after everyone has
    /// synced, every node's is the same. A model saved since the last sync is under its local
    /// identifier's text.
    public func snapshot() throws -> [String: SyncedModelSnapshot] {
        try serialized { try replica.snapshot() }
    }

    /// Makes the server fail at `interruption`'s points as a process dying there would (the
    /// fault tests').
    func simulateFaults(interruption: ((SyncInterruptionPoint) throws -> Void)?) {
        lock.withLock { replica.interruption = interruption }
    }

    /// Saves server code made to the synced models, stamped with the server's clock.
    ///
    /// A merge a server process left between its two saves is finished first: a device may
    /// already have pulled past the history of its save of the models, and a pull must never
    /// find models there whose states the ledger lacks.
    private func takeServerChanges() throws {
        replica.ledger.discardUnsaved()
        _ = try replica.captureLocalChanges()
        try replica.ledger.save()
        try replica.finishInterruptedMerge()
    }

    private static func token(_ text: String) -> DefaultHistoryToken? {
        text.isEmpty ? nil : try? JSONDecoder().decode(DefaultHistoryToken.self, from: Data(text.utf8))
    }
}
