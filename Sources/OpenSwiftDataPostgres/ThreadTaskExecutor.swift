import Foundation

/// A task executor on one thread of its own: where the store runs postgres-nio's async-only
/// calls (`COPY`) while the calling thread, which may be any thread, waits for them. The
/// cooperative pool is never used, so a caller blocking one of its threads cannot starve it.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ThreadTaskExecutor()

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    private init() {
        Thread { [self] in
            Thread.current.name = "osd-postgres"
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Starts `body` on the executor; the returned run's `wait()` waits for it.
    func start(_ body: @escaping @Sendable () async throws -> Void) -> Run {
        let run = Run()
        Task(executorPreference: self) {
            do { try await body() } catch { run.result = .failure(error) }
            run.done.signal()
        }
        return run
    }

    /// Work started on the executor.
    final class Run: @unchecked Sendable {
        fileprivate let done = DispatchSemaphore(value: 0)
        // Written before `done` is signalled, read after it is waited for.
        fileprivate var result: Result<Void, any Error> = .success(())

        /// Waits for the work on the calling thread; throws what it threw.
        func wait() throws {
            done.wait()
            try result.get()
        }
    }
}
