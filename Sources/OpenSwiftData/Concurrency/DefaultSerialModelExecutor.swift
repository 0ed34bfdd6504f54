import Dispatch

/// The executor ``ModelActor()`` gives an actor: a serial queue of its own on which every job
/// of the actor runs, with the actor's ``ModelContext``.
///
/// ```swift
/// actor Importer: ModelActor {
///     nonisolated let modelContainer: ModelContainer
///     nonisolated let modelExecutor: any ModelExecutor
///
///     init(modelContainer: ModelContainer) {
///         self.modelContainer = modelContainer
///         modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
///     }
/// }
/// ```
///
/// Jobs run one after another, never two at once, on a Dispatch queue that belongs to this
/// executor alone (not the main queue, whichever thread created the executor). A job may block
/// while SQLite waits for another connection's write to finish; that blocks this actor only,
/// never Swift's cooperative thread pool.
///
/// The executor is `Sendable` because the context is only touched from its queue; the compiler
/// cannot check that, hence `@unchecked`.
public final class DefaultSerialModelExecutor: @unchecked Sendable, SerialModelExecutor {
    /// The context the executor's jobs use.
    public final let modelContext: ModelContext

    private let queue: DispatchQueue

    /// Creates an executor whose jobs use `modelContext`. Use the context only from those jobs
    /// from now on.
    ///
    /// - Parameter modelContext: The context the executor's jobs use.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        queue = DispatchQueue(label: "OpenSwiftData.DefaultSerialModelExecutor")
    }
}

extension DefaultSerialModelExecutor: SerialExecutor {
    /// Schedules `job` after the jobs already enqueued.
    ///
    /// - Parameter job: The job to run after those already enqueued.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }

    /// This executor, as the reference the Swift runtime schedules the actor's jobs on.
    ///
    /// - Returns: An unowned reference to this executor.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless the caller runs on this executor's queue; lets `assumeIsolated` work in
    /// code that the queue runs outside of a Swift job.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
