/// An executor that owns a model context: the jobs it runs are the only code that uses the
/// context.
///
/// A ``ModelActor`` runs on its model executor, so everything the actor does with
/// ``ModelActor/modelContext`` happens on that executor, one job at a time. You rarely use an
/// executor directly: ``ModelActor()`` creates a ``DefaultSerialModelExecutor`` for you.
public protocol ModelExecutor: Executor {
    /// The context the executor's jobs use.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time, in order: what an actor needs.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}
