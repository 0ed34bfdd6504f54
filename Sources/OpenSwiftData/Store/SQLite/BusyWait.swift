import Foundation
import GRDB
import Synchronization

/// How a store's connections wait while another connection, of any process, holds the lock
/// they need: SQLite calls ``shouldRetry(afterTries:)`` and gives up when it says no.
///
/// Saves wait ``SQLiteStore/busyTimeout``. While the store is opening, the wait can be longer
/// (``waitingLonger(_:_:)``): another process may be migrating it, and opening waits
/// as long as a large migration can take, saying so about once a second.
final class BusyWait: Sendable {
    private struct Limit {
        var seconds: TimeInterval
        var report: (@Sendable (TimeInterval) -> Void)?
    }

    private let limit: Mutex<Limit>
    /// Whether a wait has run out since ``retryingTransientFailures(_:)`` last began an attempt.
    private let ranOut = Atomic<Bool>(false)

    init(seconds: TimeInterval = SQLiteStore.busyTimeout, reporting report: (@Sendable (TimeInterval) -> Void)? = nil) {
        limit = Mutex(Limit(seconds: seconds, report: report))
    }

    /// About how long a wait has lasted after `tries` calls: a millisecond each for the first
    /// fifty, ten after that (each call sleeps that long).
    private static func waited(afterTries tries: Int) -> TimeInterval {
        tries < 50 ? Double(tries) * 0.001 : 0.05 + Double(tries - 50) * 0.01
    }

    /// Whether to try again for the lock: sleeps and says yes while the wait is within the limit.
    func shouldRetry(afterTries tries: Int) -> Bool {
        let waited = Self.waited(afterTries: tries)
        let (seconds, report) = limit.withLock { ($0.seconds, $0.report) }
        guard waited < seconds else {
            ranOut.store(true, ordering: .relaxed)
            return false
        }
        // About once a second, the first time at once.
        if let report, tries == 0 || (tries >= 50 && (tries - 50) % 100 == 0) { report(waited) }
        usleep(tries < 50 ? 1_000 : 10_000)
        return true
    }

    /// Runs `body`, again (up to 50 times, 20 ms apart) while it fails as opening a store can
    /// when another process creates it, or turns it to WAL mode, at the same moment: an I/O
    /// error, or the lock refused without a wait (SQLite does not wait for the lock a change of
    /// journal mode needs). A wait for the lock that ran out is not tried again.
    func retryingTransientFailures<Result>(_ body: () throws -> Result) throws -> Result {
        var attempt = 1
        while true {
            ranOut.store(false, ordering: .relaxed)
            do {
                return try body()
            } catch let error as DatabaseError where attempt < 50 {
                let transient = error.resultCode == .SQLITE_IOERR
                    || ((error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && !ranOut.load(ordering: .relaxed))
                guard transient else { throw error }
                attempt += 1
                usleep(20_000)
            }
        }
    }

    /// Runs a step of opening a store: with waits as long as `wait` says
    /// (``waitingLonger(_:_:)``), tried again after a transient failure
    /// (``retryingTransientFailures(_:)``).
    func opening<Result>(_ wait: SQLiteStore.OpeningWait?, _ body: () throws -> Result) throws -> Result {
        try retryingTransientFailures { try waitingLonger(wait, body) }
    }

    /// Runs `body` with waits as long as `wait` says (as they were, when it is `nil`), its
    /// report called about once a second while one lasts; the limit is what it was again
    /// afterwards.
    func waitingLonger<Result>(_ wait: SQLiteStore.OpeningWait?, _ body: () throws -> Result) rethrows -> Result {
        guard let wait else { return try body() }
        let previous = limit.withLock { limit in
            defer { limit = Limit(seconds: wait.seconds, report: wait.report) }
            return limit
        }
        defer { limit.withLock { $0 = previous } }
        return try body()
    }
}
