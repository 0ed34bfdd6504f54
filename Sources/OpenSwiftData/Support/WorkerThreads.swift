import Foundation

/// Threads of their own that run blocking work handed to them, first come first served: where
/// synchronous context code runs for async callers, so that it never blocks the cooperative
/// pool or an event loop. Threads start as work arrives, up to `count`, and stay.
final class WorkerThreads: @unchecked Sendable {
    let count: Int
    private let label: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [() -> Void] = []
    private var started = 0
    private var waiting = 0

    init(count: Int, label: String) {
        self.count = max(1, count)
        self.label = label
    }

    private static let marker = "OpenSwiftData.WorkerThreads"

    /// The label of the worker threads the calling thread is one of; `nil` on any other thread.
    static var currentLabel: String? {
        Thread.current.threadDictionary[marker] as? String
    }

    /// Runs `work` on one of the threads (named `label` and a number: keep `label` short, Linux
    /// keeps 15 bytes of a thread's name).
    func run(_ work: @escaping () -> Void) {
        condition.lock()
        queue.append(work)
        let starts = waiting == 0 && started < count
        if starts { started += 1 }
        condition.signal()
        condition.unlock()
        if starts {
            let name = "\(label) \(started)"
            // Named from inside: on Linux a name given before `start()` does not reach the thread.
            Thread { [self] in
                Thread.current.name = name
                Thread.current.threadDictionary[Self.marker] = label
                serve()
            }.start()
        }
    }

    private func serve() {
        while true {
            condition.lock()
            waiting += 1
            while queue.isEmpty { condition.wait() }
            waiting -= 1
            let work = queue.removeFirst()
            condition.unlock()
            work()
        }
    }
}
