import Synchronization

/// The work a container's ``ModelContainer/perform(_:)`` calls are doing, counted so that
/// ``ModelContainer/close()`` can wait for it: once closing, no new work starts.
final class PerformedWork: Sendable {
    private struct State {
        var running = 0
        var closing = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Counts one more piece of work; `false` once the container is closing.
    func start() -> Bool {
        state.withLock { state in
            guard !state.closing else { return false }
            state.running += 1
            return true
        }
    }

    func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses new work from now on, and returns when the work running has finished.
    func closeAndWait() async {
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                state.closing = true
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }
}
