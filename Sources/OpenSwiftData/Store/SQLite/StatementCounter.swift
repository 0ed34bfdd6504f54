import Synchronization

/// Counts the queries (`SELECT` statements) a store's connections run, from any thread.
final class StatementCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() {
        count.add(1, ordering: .relaxed)
    }

    var value: Int { count.load(ordering: .relaxed) }
}
