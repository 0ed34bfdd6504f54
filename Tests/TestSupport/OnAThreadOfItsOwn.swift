import Foundation

/// Runs `work`, which blocks (waiting for a process to end, a semaphore, another connection's
/// lock), on a thread of its own and awaits its result.
///
/// Tests run as tasks on a pool with one thread per core: a test that blocks one of them holds
/// back every other test's tasks. Whatever waits for a process or another thread goes through
/// here, never straight onto a task.
public func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// ``onAThreadOfItsOwn(_:)`` for work that cannot throw.
public func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
