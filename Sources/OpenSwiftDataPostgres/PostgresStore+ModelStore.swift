import OpenSwiftData
import PostgresNIO

// The store behind a container's contexts: saves (recording their history), erasing, commit
// notices across servers, and reading and pruning the history.
extension PostgresStore: ModelStore {
    package var isReadOnly: Bool { configuration.isReadOnly }

    /// PostgreSQL cannot call OpenSwiftData's Swift functions: predicates and sorts that need
    /// them are answered in memory.
    package func canRun(_ sql: SQLFragment) -> Bool {
        PostgresSQL.canRun(sql)
    }

    package func narrowed(_ condition: SQLFragment, toward bound: SQLBound) -> SQLFragment? {
        condition.narrowed(in: PostgresDialect(), toward: bound)
    }

    package var executedQueryCount: Int { sessions.queryCount }

    package var concurrentUses: Int { sessions.maximum }

    package func close() {
        commitNotifications.stop()
        sessions.close()
    }

    /// Batch deletes that cascade are run model by model by the context.
    package var appliesDeleteRules: Bool { false }

    package func save(_ changes: StoreChanges) throws -> SavedChanges {
        guard !isReadOnly else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the PostgreSQL store \(place) is read-only (its configuration has isReadOnly: true); nothing was saved")
        }
        do {
            let saved = try sessions.withSession { session in try session.transaction {
                var writer = PostgresRowWriter(
                    session: session, tables: tables, databaseSchema: configuration.databaseSchema, keySequences: keySequences,
                    history: history, commitSender: commitSender)
                // A migration's own writes are not history (as on SQLite).
                return try changes.write(with: &writer, tables: tables, recordingHistory: !isMigrating)
            } }
            if saved.historyTransaction != nil { history.noteTablesMade() }
            commitListeners.callAll()
            return saved
        } catch let error as SwiftDataError {
            throw error
        } catch let error as PostgresStatementError {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the save to the PostgreSQL store \(place) was rolled back, nothing was written: \(error)", cause: error)
        }
    }

    package func eraseAllRows() throws {
        guard !isReadOnly else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the PostgreSQL store \(place) is read-only (its configuration has isReadOnly: true); nothing was erased")
        }
        let names = postgresTables.tableNames.map { PostgresNames.qualified($0, in: configuration.databaseSchema) }
        // One statement: side tables reference their owners' tables.
        _ = try sessions.withSession { session in try session.transaction { try session.query(PostgresQuery(unsafeSQL: "TRUNCATE \(names.joined(separator: ", "))")) } }
        commitListeners.callAll()
    }

    /// Calls `listener` after each save to the store: at once for this container's, and, through
    /// a connection that listens to the store's channel (opened for the first listener), for
    /// other containers' and other servers'.
    package func watchCommits(_ listener: @escaping @Sendable () -> Void) throws -> CommitWatcher.Watch {
        let listeners = commitListeners
        try commitNotifications.start(endpoint: sessions.endpoint, channel: history.channel, ignoring: commitSender) { listeners.callAll() }
        return commitListeners.add(listener)
    }

    package func historyPosition() throws -> (last: Int64, prunedThrough: Int64) {
        try sessions.withSession { session in
            try session.readOnlyTransaction { (try history.lastTransaction(session), try history.prunedThrough(session)) }
        }
    }

    package func historySummaries(after transaction: Int64) throws -> (summaries: [StoreHistory.Summary], prunedThrough: Int64) {
        try sessions.withSession { session in
            try session.readOnlyTransaction { (try history.summaries(after: transaction, session), try history.prunedThrough(session)) }
        }
    }

    package func readHistory(
        where condition: SQLFragment?, orderBy: SQLFragment?, limit: Int?, checkingPrunedThrough check: (Int64) throws -> Void
    ) throws -> [StoreHistory.Transaction] {
        try sessions.withSession { session in
            try session.readOnlyTransaction {
                try check(try history.prunedThrough(session))
                return try history.read(where: condition, orderBy: orderBy, limit: limit, session)
            }
        }
    }

    package func deleteHistory(where condition: SQLFragment?) throws {
        guard !isReadOnly else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the PostgreSQL store \(place) is read-only (its configuration has isReadOnly: true); no history was deleted")
        }
        try sessions.withSession { session in
            try session.transaction {
                // Under the history lock: a save recording meanwhile keeps its number.
                try session.query("SELECT pg_advisory_xact_lock(\(unescaped: String(PostgresHistory.lockKey(configuration.databaseSchema))))")
                try history.delete(where: condition, session)
            }
        }
    }

    /// The store's PostgreSQL schema and server, for messages; never the password.
    var place: String {
        "in the schema \(configuration.databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
    }
}
