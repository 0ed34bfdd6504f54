import Foundation

/// Runs an observer's refresh on the observer's actor, once for any number of requests made
/// (from any thread) before that run starts: a save of a thousand models, or a burst of
/// commits, costs one refresh.
final class CoalescedRefresh: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var scheduled = false
    private let isolation: (any Actor)?
    /// The refresh; set once, before the first request, and called on `isolation` only.
    var action: (() -> Void)?

    init(isolation: (any Actor)?) {
        self.isolation = isolation
    }

    /// Asks for a refresh, unless one is asked for and has not started yet.
    func request() {
        let first = lock.withLock {
            defer { scheduled = true }
            return !scheduled
        }
        guard first else { return }
        let isolation = self.isolation
        Task { await Self.run(self, isolation: isolation) }
    }

    private static func run(_ refresh: CoalescedRefresh, isolation: isolated (any Actor)?) async {
        refresh.lock.withLock { refresh.scheduled = false }
        refresh.action?()
    }
}
