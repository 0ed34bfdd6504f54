import Foundation

/// A store's persistent history: one transaction per save that changed the store, recorded in
/// the save's own database transaction (so it is there exactly when the save is), with its
/// changes in order. Every store keeps these tables, each in its own SQL
/// (`StoreHistory+SQLite.swift`, and the PostgreSQL package's `PostgresHistory`); how changes
/// become runs and tombstones, and runs become a transaction's changes, lives here once
/// (`StoreHistoryRecords.swift`).
///
/// - `_osd_history_transactions`: `id` (the transaction number, never reused), `timestamp`
///   (seconds since 2001), `author` (the context's), `bundle` and `process` (who saved).
/// - `_osd_history_changes`: runs of changes of one kind to consecutive rows of one entity, each
///   `transactionID`, `ordinal` (of its first change in the transaction), `kind` (0 insert,
///   1 update, 2 delete), `entity`, `firstRow`, `count`, and `updated` (an update's changed
///   property names, comma separated). A save of 100,000 new rows is one run: recording costs a
///   row per run, not per change. A change's identifier is its transaction's number times 2³²
///   plus its ordinal.
/// - `_osd_history_tombstones`: for a delete, the stored value of each attribute marked
///   `.preserveValueOnDeletion`, as the column held it, by transaction and ordinal.
/// - `_osd_history_pruned`: the highest transaction number `deleteHistory` removed; a token
///   before it has lost transactions.
///
/// Migrations' own writes are not recorded: a migration changes what rows mean, and history
/// from before it keeps naming the rows and properties as they were.
package enum StoreHistory {
    package static let transactionsTable = "_osd_history_transactions"
    package static let changesTable = "_osd_history_changes"
    package static let tombstonesTable = "_osd_history_tombstones"
    package static let prunedTable = "_osd_history_pruned"

    /// The tables history keeps, for the check of what a store may hold.
    static let tableNames: Set<String> = [transactionsTable, changesTable, tombstonesTable, prunedTable]

    /// The columns of the transactions table that predicates and sorts read.
    enum Column: String {
        case id, timestamp, author, bundle, process

        /// The column, as every store's queries name it.
        var sql: SQLFragment { .identifier(rawValue) }
    }

    /// `text` as an SQL string constant: a value every transaction of a store shares (its
    /// identifier), for predicates that compare it.
    static func constant(_ text: String) -> SQLFragment {
        SQLFragment("'" + text.replacingOccurrences(of: "'", with: "''") + "'")
    }

    /// The identifier of the change at `ordinal` in transaction `transaction`.
    package static func changeIdentifier(transaction: Int64, ordinal: Int64) -> Int64 {
        transaction << 32 | ordinal
    }

    /// Who saves: this process's bundle identifier (its executable's name where it has none)
    /// and process identifier.
    package static let bundleIdentifier = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    package static let processIdentifier = String(ProcessInfo.processInfo.processIdentifier)
}
