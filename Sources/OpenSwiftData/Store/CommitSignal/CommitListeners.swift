import Synchronization

/// The listeners of the commits only the store itself makes: an in-memory store's, or those
/// this process's contexts make to a store whose other writers nothing announces yet.
package final class CommitListeners: Sendable {
    private let listeners = Mutex<(next: UInt64, byID: [UInt64: @Sendable () -> Void])>((0, [:]))

    package init() {}

    package func add(_ listener: @escaping @Sendable () -> Void) -> CommitWatcher.Watch {
        let id = listeners.withLock { listeners in
            listeners.next += 1
            listeners.byID[listeners.next] = listener
            return listeners.next
        }
        return CommitWatcher.Watch { [self] in listeners.withLock { _ = $0.byID.removeValue(forKey: id) } }
    }

    package func callAll() {
        let all = listeners.withLock { $0.byID.isEmpty ? [] : Array($0.byID.values) }
        for listener in all { listener() }
    }
}
