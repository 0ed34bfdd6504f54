import Foundation
import Observation

/// Where a device's sync stands, for its UI to show: observe it like any `@Observable` model.
/// The engine changes it on the main actor after each sync.
@MainActor @Observable public final class SyncStatus {
    /// Whether a sync is under way.
    public private(set) var isSyncing = false
    /// When the last sync that succeeded ended; `nil` before the first.
    public private(set) var lastSync: Date?
    /// Local changes saved and not yet on the server, as of the last sync's end.
    public private(set) var pendingChanges = 0
    /// What made the last sync fail, while no sync has succeeded since; `nil` otherwise.
    public private(set) var lastError: String?
    /// Whether the sync under way has gone half the engine's bound
    /// (``SyncEngine/requestTimeout``) without an answer from the server or a batch saved: a
    /// UI may say that syncing is stuck. It goes back to `false` when the sync moves on or ends
    /// (at the bound, the request fails and ``lastError`` says which).
    public private(set) var isStalled = false
    /// Since when the sync under way has made no progress, while ``isStalled``.
    public private(set) var stalledSince: Date?

    /// Counts the syncs started: what the watchdog of one sync says never lands on another.
    private var round = 0

    nonisolated init() {}

    /// Returns the sync's round, which its watchdog's reports carry.
    func started() -> Int {
        isSyncing = true
        round += 1
        return round
    }

    func stalled(since date: Date?, round: Int) {
        guard isSyncing, round == self.round else { return }
        stalled(since: date)
    }

    private func stalled(since date: Date?) {
        if isStalled != (date != nil) { isStalled = date != nil }
        if stalledSince != date { stalledSince = date }
    }

    func finished(at date: Date, pendingChanges: Int, error: (any Error)?) {
        isSyncing = false
        stalled(since: nil)
        self.pendingChanges = pendingChanges
        if let error {
            lastError = String(describing: error)
        } else {
            lastSync = date
            lastError = nil
        }
    }
}
