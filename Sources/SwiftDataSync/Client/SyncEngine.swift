import Foundation
import SwiftData

/// Syncs the models of an app's container with the app's own server, through a
/// ``SyncTransport``.
///
/// The engine keeps its bookkeeping (global identifiers, what each model's properties were set
/// to and when, unsent changes, the server's cursor) in a store of its own beside the app's, and
/// reads the app's changes from its persistent history: models are declared as the app declares
/// them, with nothing added. Each ``sync()`` sends the saves made since the last one and takes
/// in the server's changes, in one save of the app's store per batch.
public actor SyncEngine {
    private let replica: SyncReplica
    let transport: any SyncTransport
    let container: ModelContainer
    /// Changes per push; models per pull.
    public let batchSize: Int
    /// How long the engine waits for one answer from the server: a request unanswered past it
    /// fails the sync (``SyncError/timedOut(request:after:)``), which ``run(every:)`` tries
    /// again; a sync that has not moved on for half as long shows ``SyncStatus/isStalled``.
    public let requestTimeout: Duration
    private let progress = SyncProgress()
    /// The sync in progress, which another call waits for.
    private var running: Task<Summary, any Error>?
    /// Where the sync stands, for the app's UI.
    public nonisolated let status = SyncStatus()

    /// An engine for `container`'s models of the classes `models`, keeping its bookkeeping in a
    /// store at `ledgerURL`.
    ///
    /// - Parameters:
    ///   - container: The app's container; its store must keep persistent history (the default).
    ///   - models: The model classes to sync.
    ///   - ledgerURL: Where the engine's own store goes (beside the app's, for one).
    ///   - transport: How to reach the server.
    ///   - node: This device's name in the sync (its changes' timestamps carry it); a new UUID
    ///     the first time when `nil`, kept in the engine's store after.
    ///   - batchSize: Changes per push and models per pull.
    ///   - requestTimeout: How long to wait for one answer from the server.
    public init(
        container: ModelContainer, models: [any PersistentModel.Type], ledgerURL: URL, transport: any SyncTransport,
        node: String? = nil, batchSize: Int = 500, requestTimeout: Duration = .seconds(120)
    ) throws {
        let ledger = try ModelContainer(for: Schema(SyncLedger.models), configurations: ModelConfiguration(url: ledgerURL))
        replica = try SyncReplica(container: container, models: models, ledger: ledger, node: node, isAuthority: false)
        schemaVersion = container.schema.version.description
        // A store migrated to a new version of the models has properties (and entities) that
        // the server left out of what it sent the older version: the next sync pulls every
        // model again, which fills in just what was left out (the rest is merged already).
        if try replica.ledger.setting(SyncReplica.SettingKey.schemaVersion) != schemaVersion {
            try replica.ledger.set(SyncReplica.SettingKey.serverCursor, to: nil)
            try replica.ledger.set(SyncReplica.SettingKey.schemaVersion, to: schemaVersion)
        }
        try replica.ledger.save()
        self.node = replica.node
        self.transport = transport
        self.container = container
        self.batchSize = batchSize
        self.requestTimeout = requestTimeout
    }

    /// This device's name in the sync.
    public nonisolated let node: String
    /// The version of the app's models, which each request tells the server.
    public nonisolated let schemaVersion: String

    /// What one ``SyncEngine/sync()`` did.
    public struct Summary: Sendable, Equatable {
        /// Changes sent to the server.
        public var pushed = 0
        /// Models taken in from the server.
        public var pulled = 0
    }

    /// Sends the local saves not yet sent, then takes in the server's changes until it has no
    /// more. A failure leaves everything to be done again by the next call: unsent changes stay
    /// queued, and the server's cursor moves only past what was saved here.
    ///
    /// One sync runs at a time: a call made while another runs waits for it, then syncs what is
    /// left (the engine's work awaits the network, where an actor takes other calls).
    @discardableResult
    public func sync() async throws -> Summary {
        await waitForRunningRound()
        let round = Task { try await syncOnce() }
        running = round
        defer { if running == round { running = nil } }
        let status = self.status
        let number = await MainActor.run { status.started() }
        progress.moved()
        let watchdog = Self.watch(progress, bound: requestTimeout / 2, status: status, round: number)
        defer { watchdog.cancel() }
        do {
            let summary = try await round.value
            let pending = (try? replica.ledger.pendingCount()) ?? 0
            await MainActor.run { status.finished(at: Date(), pendingChanges: pending, error: nil) }
            return summary
        } catch {
            // What the failed round queued is still to send.
            replica.ledger.discardUnsaved()
            let pending = (try? replica.ledger.pendingCount()) ?? 0
            await MainActor.run { status.finished(at: Date(), pendingChanges: pending, error: error) }
            throw error
        }
    }

    /// Makes the engine fail at `interruption`'s points as a process dying there would, and
    /// its clock be `clockSkew` off (the fault tests').
    func simulateFaults(interruption: ((SyncInterruptionPoint) throws -> Void)?, clockSkew: TimeInterval = 0) {
        replica.interruption = interruption
        replica.clockSkew = clockSkew
    }

    /// Tells `status` while the sync has not moved on for `bound`, until cancelled: on a
    /// dispatch timer, off the engine's actor and Swift's concurrency threads, so that a sync
    /// blocked on them is seen too.
    private static func watch(_ progress: SyncProgress, bound: Duration, status: SyncStatus, round: Int) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = min(bound / 4, .seconds(1))
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler {
            guard let stall = progress.stallToReport(bound: bound) else { return }
            Task { @MainActor in status.stalled(since: stall, round: round) }
        }
        timer.resume()
        return timer
    }

    private func waitForRunningRound() async {
        while let current = running {
            _ = try? await current.value
            // Whichever waiter resumes first lets go of the finished round.
            if running == current { running = nil }
        }
    }

    private func syncOnce() async throws -> Summary {
        var summary = Summary()
        replica.ledger.discardUnsaved()
        try queueLocalChanges()
        while true {
            let pending = try replica.ledger.pendingChanges(limit: batchSize)
            guard !pending.isEmpty else { break }
            let changes = try pending.map { SyncChange(id: $0.changeID, model: SyncModel(id: $0.globalID, state: try replica.ledger.stateData($0.state))) }
            // The ledger's context changes at each save: what the step needs of its records is read now.
            let changeIDs = changes.map(\.id)
            let request = SyncPushRequest(node: node, changes: changes, schemaVersion: schemaVersion)
            let response = try await SyncDeadline.run("push", within: requestTimeout) { [transport] in try await transport.push(request) }
            progress.moved()
            try queueLocalChanges()
            try replica.merge(response.models)
            let accepted = Set(response.accepted)
            try replica.ledger.deletePendingChanges(changeIDs.filter(accepted.contains))
            try replica.ledger.save()
            progress.moved()
            summary.pushed += accepted.count
            if accepted.isEmpty { break }
        }
        while true {
            let cursor = try replica.ledger.setting(SyncReplica.SettingKey.serverCursor)
            let request = SyncPullRequest(cursor: cursor, limit: batchSize, schemaVersion: schemaVersion, node: node)
            let response = try await SyncDeadline.run("pull", within: requestTimeout) { [transport] in try await transport.pull(request) }
            progress.moved()
            try queueLocalChanges()
            try replica.merge(response.models)
            if let next = response.cursor { try replica.ledger.set(SyncReplica.SettingKey.serverCursor, to: next) }
            try replica.ledger.save()
            progress.moved()
            summary.pulled += response.models.count
            if !response.hasMore { break }
        }
        return summary
    }

    /// Every synced model here, by global identifier, value by value: after everyone has
    /// synced, every node's is the same. A model saved since the last sync is under its local
    /// identifier's text.
    public func snapshot() throws -> [String: SyncedModelSnapshot] {
        try replica.snapshot()
    }

    /// How many local changes wait to be sent: the saves made since the last sync, model by
    /// model, and what earlier syncs could not send.
    public func pendingChangeCount() async throws -> Int {
        await waitForRunningRound()
        try queueLocalChanges()
        try replica.ledger.save()
        return try replica.ledger.pendingCount()
    }

    /// Reads the saves made since the last capture into the queue of changes to send.
    private func queueLocalChanges() throws {
        let changes = try replica.captureLocalChanges()
        var next = Int(try replica.ledger.setting(SyncReplica.SettingKey.nextChange) ?? "") ?? 1
        for change in changes {
            replica.ledger.context.insert(SyncPendingChange(
                changeID: "\(node)-\(next)", sequence: next, globalID: change.id, state: try replica.ledger.encoded(change.state)))
            next += 1
        }
        try replica.ledger.set(SyncReplica.SettingKey.nextChange, to: String(next))
        try replica.ledger.save()
    }
}
