import OpenSwiftData
import PostgresNIO

// The store behind a container's contexts: saves, erasing, commit notices; what PostgreSQL
// does not have yet (persistent history) is refused by name.
extension PostgresStore: ModelStore {
    package var isReadOnly: Bool { configuration.isReadOnly }

    /// PostgreSQL cannot call OpenSwiftData's Swift functions: predicates and sorts that need
    /// them are answered in memory.
    package func canRun(_ sql: String) -> Bool {
        PostgresSQL.canRun(sql)
    }

    package var executedQueryCount: Int { sessions.queryCount }

    package var concurrentUses: Int { sessions.maximum }

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
                    session: session, tables: tables, databaseSchema: configuration.databaseSchema, keySequences: keySequences)
                var saved = SavedChanges()
                for batch in changes.batchDeletes {
                    let deleted = try writer.deleteRows(of: batch.table, where: batch.condition)
                    if case .oneStatement(reportingKeys: true) = batch.kind {
                        saved.deletedRowIDs[batch.table.entity.name, default: []] += deleted
                    }
                }
                try writer.delete(changes.deleted.sorted(by: Self.tableAndKeyOrder))
                // Updates before inserts: an insert that upserts over a changed stored row has
                // the last word, as in the SQLite store.
                try writer.update(changes.updated.sorted(by: Self.tableAndKeyOrder))
                saved.insertedRowIDs = try writer.insert(changes.inserted)
                try writer.clearJoinRows(ofInserted: changes.inserted)
                try writer.writeRelationships(inserted: changes.inserted, updated: changes.updated)
                return saved
            } }
            commitListeners.callAll()
            return saved
        } catch let error as SwiftDataError {
            throw error
        } catch let error as PostgresStatementError {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the save to the PostgreSQL store \(place) was rolled back, nothing was written: \(error)")
        }
    }

    private static func tableAndKeyOrder(_ first: ModelState, _ second: ModelState) -> Bool {
        (ObjectIdentifier(first.layout), first.rowID ?? 0) < (ObjectIdentifier(second.layout), second.rowID ?? 0)
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

    /// Calls `listener` after this process's saves to the store. (Other servers' saves are not
    /// announced yet: `LISTEN`/`NOTIFY` comes with persistent history on PostgreSQL.)
    package func watchCommits(_ listener: @escaping @Sendable () -> Void) throws -> CommitWatcher.Watch {
        commitListeners.add(listener)
    }

    package func historyPosition() throws -> (last: Int64, prunedThrough: Int64) {
        throw Self.noHistory(place)
    }

    package func historySummaries(after transaction: Int64) throws -> (summaries: [StoreHistory.Summary], prunedThrough: Int64) {
        throw Self.noHistory(place)
    }

    package func readHistory(
        where condition: SQLFragment?, orderBy: String?, limit: Int?, checkingPrunedThrough check: (Int64) throws -> Void
    ) throws -> [StoreHistory.Transaction] {
        throw Self.noHistory(place)
    }

    package func deleteHistory(where condition: SQLFragment?) throws {
        throw Self.noHistory(place)
    }

    private static func noHistory(_ place: String) -> SwiftDataError {
        SwiftDataError.invalidTransactionFetchRequest.explaining(
            "the PostgreSQL store \(place) records no persistent history yet (SQLite stores do); fetchHistory, deleteHistory and HistoryObserver need a SQLite store for now")
    }

    /// The store's PostgreSQL schema and server, for messages; never the password.
    var place: String {
        "in the schema \(configuration.databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
    }
}
