import Foundation
import Synchronization

/// A bound on how long the engine waits for one exchange with the server: past it, the
/// exchange fails with ``SyncError/timedOut(request:after:)`` and the sync with it, to be tried
/// again, even when the transport itself never gives up. What the late answer would have
/// carried is asked for again by the next sync (a push answered late was merged once on the
/// server; sent again, it merges nothing twice).
enum SyncDeadline {
    static func run<Result: Sendable>(
        _ request: String, within bound: Duration, _ work: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let outcome = Outcome<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                outcome.wait(with: continuation)
                let exchange = Task {
                    do { outcome.finish(.success(try await work())) } catch { outcome.finish(.failure(error)) }
                }
                let timer = Task {
                    try await Task.sleep(for: bound)
                    outcome.finish(.failure(SyncError.timedOut(request: request, after: bound)))
                    exchange.cancel()
                }
                outcome.onFinish { timer.cancel() }
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }

    /// The first of the exchange's result, the timer's and cancellation's: resumed once.
    private final class Outcome<Result: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result, any Error>?
            var early: Swift.Result<Result, any Error>?
            var finished = false
            var onFinish: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func wait(with continuation: CheckedContinuation<Result, any Error>) {
            let early = state.withLock { state -> Swift.Result<Result, any Error>? in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let finished = state.withLock { state -> Bool in
                if !state.finished { state.onFinish = action }
                return state.finished
            }
            if finished { action() }
        }

        func finish(_ result: Swift.Result<Result, any Error>) {
            let (continuation, action) = state.withLock { state -> (CheckedContinuation<Result, any Error>?, (@Sendable () -> Void)?) in
                guard !state.finished else { return (nil, nil) }
                state.finished = true
                let continuation = state.continuation
                state.continuation = nil
                if continuation == nil { state.early = result }
                return (continuation, state.onFinish)
            }
            continuation?.resume(with: result)
            action?()
        }
    }
}
