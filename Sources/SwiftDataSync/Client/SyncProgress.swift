import Foundation
import Synchronization

/// When the sync under way last moved on (an answer from the server, a batch saved), read by
/// the watchdog that tells ``SyncStatus`` the sync is stalled. Shared between the engine and
/// its watchdog, which runs on a dispatch timer, apart from the engine's actor and from Swift's
/// concurrency threads, so that it sees a stall even while those are all blocked.
final class SyncProgress: Sendable {
    private let last = Mutex(ContinuousClock.now)
    /// The stall last told to the status.
    private let reported = Mutex<Date?>(nil)

    func moved() {
        last.withLock { $0 = .now }
    }

    /// The stall to tell the status when it changed since the last one told: since when the
    /// sync has not moved on (past `bound`), or `nil` once it has.
    func stallToReport(bound: Duration) -> Date?? {
        let idle = self.idle
        return reported.withLock { reported in
            let since = idle >= bound ? (reported ?? Date() - Double(idle.components.seconds)) : nil
            guard since != reported else { return .none }
            reported = since
            return .some(since)
        }
    }

    /// How long since the sync last moved on.
    var idle: Duration {
        ContinuousClock.now - last.withLock { $0 }
    }
}
