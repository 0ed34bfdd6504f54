import Foundation
import Synchronization

/// When the sync under way last moved on (an answer from the server, a batch saved), read by
/// the watchdog that tells ``SyncStatus`` the sync is stalled. Shared between the engine and
/// its watchdog, which runs apart from the engine's actor so that it sees a stall even while
/// the engine is blocked.
final class SyncProgress: Sendable {
    private let last = Mutex(ContinuousClock.now)

    func moved() {
        last.withLock { $0 = .now }
    }

    /// How long since the sync last moved on.
    var idle: Duration {
        ContinuousClock.now - last.withLock { $0 }
    }
}
