import Foundation
import Logging
import NIOCore
import NIOPosix
import OpenSwiftData
import PostgresNIO
import Synchronization

/// One connection to the server, used synchronously: each query runs on a SwiftNIO event loop
/// and the calling thread waits for it. The context API is synchronous, as SwiftData's is, so
/// this is where a caller blocks; it must never be an event loop (which would wait for itself),
/// and on a server it should not be the cooperative pool either (see the PostgreSQL article:
/// `container.perform`, or a model actor).
///
/// One caller at a time: a transaction and the queries inside it take the session's lock.
final class PostgresSession: @unchecked Sendable {
    private let connection: PostgresConnection
    private let logger: Logger
    private let lock = NSRecursiveLock()
    /// Runs the async calls of repeated statements on the connection's event loop.
    private let executor: EventLoopTaskExecutor
    let endpoint: PostgresEndpoint
    private let queries = Atomic<Int>(0)
    /// How many transactions of the session are open, the outermost first; guarded by `lock`.
    private var transactionDepth = 0
    /// Whether the outermost transaction's COMMIT went with its last statement
    /// (``queryEndingTransaction(_:)``); guarded by `lock`.
    private var committedWithLastStatement = false

    /// How many statements the connection has run.
    var queryCount: Int { queries.load(ordering: .relaxed) }

    /// Connects.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming the server when it cannot be
    ///   reached or refuses the credentials.
    init(_ endpoint: PostgresEndpoint) throws {
        self.endpoint = endpoint
        var logger = Logger(label: "OpenSwiftData.Postgres")
        logger.logLevel = .critical
        self.logger = logger
        Self.preconditionNotOnEventLoop()
        let attempts = try endpoint.tls.connectionAttempts(configuration: endpoint.configurationName)
        var connected: PostgresConnection?
        for (index, tls) in attempts.enumerated() {
            var configuration = PostgresConnection.Configuration(
                host: endpoint.host, port: endpoint.port, username: endpoint.user, password: endpoint.password,
                database: endpoint.database, tls: tls)
            if let seconds = endpoint.connectTimeout { configuration.options.connectTimeout = .seconds(Int64(seconds)) }
            if let name = endpoint.applicationName { configuration.options.additionalStartupParameters = [("application_name", name)] }
            do {
                connected = try PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: Self.nextID(), logger: logger
                ).wait()
                break
            } catch {
                // sslmode=allow: a server that refused the connection without TLS is asked again
                // with it.
                if index + 1 < attempts.count, (error as? PSQLError)?.serverInfo != nil { continue }
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the PostgreSQL server at \(endpoint.host):\(endpoint.port) (database \(endpoint.database), user \(endpoint.user)) could not be reached or refused the connection: \(endpoint.tls.describeConnectionFailure(error, host: endpoint.host))",
                    failure: .unreachable)
            }
        }
        connection = connected!
        executor = EventLoopTaskExecutor(connection.eventLoop)
    }

    deinit {
        close()
    }

    /// Whether the connection is closed (by ``close()``, the server or the network).
    var isClosed: Bool { connection.isClosed }

    /// Closes the connection (again: nothing more).
    func close() {
        try? connection.close().wait()
    }

    private static let ids = NSLock()
    nonisolated(unsafe) private static var lastID = 0
    private static func nextID() -> Int {
        ids.withLock {
            lastID += 1
            return lastID
        }
    }

    /// Traps, saying what to do instead, when called on a SwiftNIO event loop: the query would
    /// wait for the loop it runs on.
    static func preconditionNotOnEventLoop() {
        precondition(
            MultiThreadedEventLoopGroup.currentEventLoop == nil,
            "OpenSwiftData's PostgreSQL store was used on a SwiftNIO event loop, where its synchronous calls would wait for themselves: run the context's work in container.perform { context in … } or in a @ModelActor")
    }

    /// Runs one statement; returns its rows.
    ///
    /// - Parameter repeated: Whether the store sends the statement again and again, and it may be
    ///   prepared (``RepeatedStatements``).
    @discardableResult
    func query(_ query: PostgresQuery, repeated: Bool = false) throws -> [PostgresRow] {
        Self.preconditionNotOnEventLoop()
        return try lock.withLock {
            precondition(!committedWithLastStatement, "a statement after the one that ended its transaction: it would run outside it")
            return try wait(for: send(query, repeated: repeated), query)
        }
    }

    /// Sends one statement without waiting for it: the connection runs statements in the order
    /// they are sent, so the next can follow with no wait on this thread in between.
    private func send(_ query: PostgresQuery, repeated: Bool = false) -> EventLoopFuture<[PostgresRow]> {
        queries.add(1, ordering: .relaxed)
        guard repeated else { return connection.query(query, logger: logger).map { Array($0.rows) } }
        guard let name = RepeatedStatements.name(of: query.sql) else {
            let sql = query.sql
            return connection.query(query, logger: logger).map { result in
                RepeatedStatements.noteSucceeded(sql)
                return Array(result.rows)
            }
        }
        // The task's first job runs on the connection's loop in the order it was sent, and
        // writes the statement there before it waits.
        let (connection, logger) = (connection, logger)
        let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
        let statement = RepeatedStatement(bindings: query.binds)
        Task(executorPreference: executor) {
            do {
                let rows = try await RepeatedStatement.$current.withValue((name, query.sql)) {
                    try await connection.execute(statement, logger: logger)
                }
                var all: [PostgresRow] = []
                for try await row in rows { all.append(row) }
                promise.succeed(all)
            } catch {
                promise.fail(error)
            }
        }
        return promise.futureResult
    }

    /// The rows of a statement ``send(_:)`` sent.
    private func wait(for sent: EventLoopFuture<[PostgresRow]>, _ query: PostgresQuery) throws -> [PostgresRow] {
        do {
            return try sent.wait()
        } catch {
            throw PostgresStatementError(query: query.sql, underlying: error)
        }
    }

    /// Runs the last statement of the outermost transaction with its `COMMIT` right behind it:
    /// the server starts the `COMMIT` when the statement ends, with no wait for this thread in
    /// between (a save's history statement holds the store's history lock until its commit, so
    /// every save waits out that time). Inside a savepoint, only runs the statement. Nothing may
    /// run in the transaction after it.
    func queryEndingTransaction(_ query: PostgresQuery, repeated: Bool = false) throws -> [PostgresRow] {
        Self.preconditionNotOnEventLoop()
        return try lock.withLock {
            guard transactionDepth == 1 else { return try self.query(query, repeated: repeated) }
            let commit = PostgresQuery(unsafeSQL: "COMMIT")
            let (rows, committed) = (send(query, repeated: repeated), send(commit))
            committedWithLastStatement = true
            // A failed statement aborts the transaction, and its COMMIT then rolls it back.
            let statement = Result { try wait(for: rows, query) }
            let ending = Result { try wait(for: committed, commit) }
            let result = try statement.get()
            _ = try ending.get()
            return result
        }
    }

    /// Streams rows in COPY's text format (``PostgresCopyText``) into `table` (a name the
    /// search path finds, unquoted), in the transaction the session is in. `produce` makes the
    /// rows on the calling thread and hands them over in chunks (`send`), which go to the server
    /// as they come: the server stores one chunk while the next is made.
    func copy(into table: String, columns: [String], produce: (_ send: @escaping ([UInt8]) -> Void) throws -> Void) throws {
        Self.preconditionNotOnEventLoop()
        queries.add(1, ordering: .relaxed)
        let (connection, logger) = (connection, logger)
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        try lock.withLock {
            let copied = ThreadTaskExecutor.shared.start {
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                    for await chunk in chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                }
            }
            let produced = Result { try produce { continuation.yield($0) } }
            continuation.finish()
            do {
                try copied.wait()
            } catch {
                throw PostgresStatementError(query: "COPY \(table) FROM STDIN", underlying: error)
            }
            // A failure making the rows leaves the copy short; the save's transaction rolls back.
            try produced.get()
        }
    }

    /// Calls `handler` with the payload of each notification sent to `channel` from now on, on a
    /// thread of its own (never the connection's event loop, where a query would wait for
    /// itself).
    func listen(_ channel: String, _ handler: @escaping @Sendable (String) -> Void) throws {
        connection.addListener(channel: channel) { _, notification in
            let payload = notification.payload
            DispatchQueue.global().async { handler(payload) }
        }
        try query(PostgresQuery(unsafeSQL: "LISTEN \(PostgresNames.quoted(channel))"))
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    ///
    /// Inside another transaction of the session (a migration's stage saving), `body` runs in a
    /// savepoint instead: released when it returns, rolled back to when it throws, so a failed
    /// save leaves the enclosing transaction as it was before the save.
    ///
    /// - Parameter snapshot: Whether an outermost transaction reads one snapshot throughout
    ///   (`REPEATABLE READ READ ONLY`), for reads in several statements that must agree.
    func transaction<T>(snapshot: Bool = false, _ body: () throws -> T) throws -> T {
        try lock.withLock {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            let (begin, commit, rollback) = transactionDepth == 1
                ? (snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", "COMMIT", "ROLLBACK")
                : ("SAVEPOINT osd_\(transactionDepth)", "RELEASE SAVEPOINT osd_\(transactionDepth)", "ROLLBACK TO SAVEPOINT osd_\(transactionDepth)")
            // The BEGIN goes ahead of the body's first statement, unwaited: the connection runs
            // them in order, and a connection that failed the one fails the other.
            let beginning = PostgresQuery(unsafeSQL: begin)
            let begun = send(beginning)
            do {
                let result = try body()
                _ = try wait(for: begun, beginning)
                if transactionDepth == 1, committedWithLastStatement {
                    committedWithLastStatement = false
                } else {
                    try query(PostgresQuery(unsafeSQL: commit))
                }
                return result
            } catch {
                if transactionDepth == 1 { committedWithLastStatement = false }
                _ = try? query(PostgresQuery(unsafeSQL: rollback))
                throw error
            }
        }
    }

    /// Runs `body` in one transaction that always ends in `ROLLBACK`: what it did is not kept.
    func rolledBackTransaction<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            try query("BEGIN")
            defer { _ = try? query("ROLLBACK") }
            return try body()
        }
    }

    /// How many cursors of the session are open; guarded by `lock`.
    private var openCursors = 0

    /// Runs `query` as a cursor, in a transaction of its own (a savepoint inside one), calling
    /// `body` with a function that fetches its next rows, at most as many as it is given: the
    /// server keeps the result and sends it a part at a time. Closed when `body` returns.
    func withCursor<T>(_ query: PostgresQuery, _ body: (_ next: (Int) throws -> [PostgresRow]) throws -> T) throws -> T {
        try transaction {
            openCursors += 1
            defer { openCursors -= 1 }
            let name = "osd_cursor_\(openCursors)"
            try self.query(PostgresQuery(unsafeSQL: "DECLARE \(name) NO SCROLL CURSOR FOR \(query.sql)", binds: query.binds))
            let result = try body { count in try self.query(PostgresQuery(unsafeSQL: "FETCH FORWARD \(count) FROM \(name)")) }
            try self.query(PostgresQuery(unsafeSQL: "CLOSE \(name)"))
            return result
        }
    }

    /// Runs `body` in one read-only transaction, which PostgreSQL refuses to write in.
    func readOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            try query("BEGIN READ ONLY")
            defer { _ = try? query("ROLLBACK") }
            return try body()
        }
    }

    /// What the server said, without the query's text and binds.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            return "\(error.code)"
        }
        return "\(error)"
    }
}

/// A statement the server refused: its SQL and the server's message.
struct PostgresStatementError: Error, CustomStringConvertible {
    let query: String
    let underlying: any Error

    var description: String {
        "\(PostgresSession.describe(underlying)) (SQL: \(query))"
    }

    /// The server's SQLSTATE code, when it sent one.
    var sqlState: String? {
        (underlying as? PSQLError)?.serverInfo?[.sqlState]
    }
}

extension PostgresStatementError: StoreFailureReporting {
    var storeFailure: StoreFailure? {
        switch sqlState {
        case "23505": .uniqueConflict
        // serialization_failure, deadlock_detected, lock_not_available
        case "40001", "40P01", "55P03": .retryable
        default: nil
        }
    }
}
