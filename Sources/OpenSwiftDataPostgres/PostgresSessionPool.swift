import Foundation
import OpenSwiftData
import PostgresNIO
import Synchronization

/// The connections of one store, shared by every context of its container: a caller takes an
/// idle one (or opens one, up to ``maximum``, or waits for one), runs its queries or its
/// transaction on it, and gives it back. One save is one transaction on one connection; reads
/// of other threads meanwhile run on others.
final class PostgresSessionPool: @unchecked Sendable {
    let endpoint: PostgresEndpoint
    let maximum: Int
    /// What every new connection runs first (the store's `search_path`).
    private let setUp: (PostgresSession) throws -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PostgresSession]
    private var opened: Int
    private let queries = Atomic<Int>(0)
    /// Guarded by `condition`: whether ``close()`` was called.
    private var closed = false

    /// The connection every caller shares, when the pool lends a migration's: its transaction
    /// is the only one the stores over it may use.
    private let borrowed: PostgresSession?

    /// - Parameter first: a connection opened already, which the pool keeps.
    init(first: PostgresSession, maximum: Int, setUp: @escaping (PostgresSession) throws -> Void) throws {
        endpoint = first.endpoint
        self.maximum = max(1, maximum)
        self.setUp = setUp
        try setUp(first)
        idle = [first]
        opened = 1
        borrowed = nil
    }

    /// A pool that hands every caller `session`, inside the transaction it is in (a
    /// migration's, whose stages run one at a time on the opening thread).
    init(borrowing session: PostgresSession) {
        endpoint = session.endpoint
        maximum = 1
        setUp = { _ in }
        idle = []
        opened = 1
        borrowed = session
    }

    /// How many statements the pool's connections have run.
    var queryCount: Int { queries.load(ordering: .relaxed) }

    /// The connections lent with `sharedWithNestedCalls`, by the thread they are lent to.
    /// Guarded by `condition`.
    private var sharedByThread: [ObjectIdentifier: PostgresSession] = [:]

    /// Runs `body` with a connection of its own until it returns.
    ///
    /// - Parameter sharedWithNestedCalls: Whether calls of the pool made on this thread while
    ///   `body` runs use the same connection, inside what `body` opened there (a cursor's
    ///   transaction), instead of waiting for another: a pool of one connection would otherwise
    ///   wait for itself.
    func withSession<T>(sharedWithNestedCalls: Bool = false, _ body: (PostgresSession) throws -> T) throws -> T {
        if let borrowed { return try body(borrowed) }
        let thread = ObjectIdentifier(Thread.current)
        if let shared = condition.withLock({ sharedByThread[thread] }) { return try body(shared) }
        let session = try take()
        defer { giveBack(session) }
        if sharedWithNestedCalls {
            condition.withLock { sharedByThread[thread] = session }
        }
        defer { if sharedWithNestedCalls { condition.withLock { sharedByThread[thread] = nil } } }
        let before = session.queryCount
        defer { queries.add(session.queryCount - before, ordering: .relaxed) }
        return try body(session)
    }

    /// Runs one statement on an idle connection (``PostgresSession/query(_:repeated:)``).
    @discardableResult
    func query(_ query: PostgresQuery, repeated: Bool = false) throws -> [PostgresRow] {
        try withSession { try $0.query(query, repeated: repeated) }
    }

    /// Closes the idle connections, and each busy one as it is given back; from now on, taking
    /// one throws.
    func close() {
        let closing = condition.withLock {
            closed = true
            opened -= idle.count
            defer { idle = [] }
            condition.broadcast()
            return idle
        }
        for session in closing { session.close() }
    }

    private func take() throws -> PostgresSession {
        condition.lock()
        while idle.isEmpty && opened >= maximum && !closed { condition.wait() }
        if closed {
            condition.unlock()
            throw ModelContainer.closedError
        }
        if let session = idle.popLast() {
            condition.unlock()
            return session
        }
        opened += 1
        condition.unlock()
        do {
            let session = try PostgresSession(endpoint)
            try setUp(session)
            return session
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Keeps `session` for the next caller; a closed one (the server or the network closed it,
    /// or its user did, after a failure that left it unusable) makes room for a new one instead.
    private func giveBack(_ session: PostgresSession) {
        condition.lock()
        if closed || session.isClosed {
            opened -= 1
            condition.unlock()
            session.close()
            return
        }
        idle.append(session)
        condition.signal()
        condition.unlock()
    }
}
