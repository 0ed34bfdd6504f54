import Foundation
import GRDB

/// The store's persistent history: one transaction per save that changed the store, recorded in
/// the save's own SQLite transaction (so it is there exactly when the save is), with its
/// changes in order.
///
/// - `_osd_history_transactions`: `id` (the transaction number, never reused), `timestamp`
///   (seconds since 2001), `author` (the context's), `bundle` and `process` (who saved).
/// - `_osd_history_changes`: `id`, `transactionID`, `kind` (0 insert, 1 update, 2 delete),
///   `entity`, `row` (the model's key), `updated` (an update's changed property names, comma
///   separated).
/// - `_osd_history_tombstones`: for a delete, the stored value of each attribute marked
///   `.preserveValueOnDeletion`, as the column held it.
///
/// Migrations' own writes are not recorded: a migration changes what rows mean, and history
/// from before it keeps naming the rows and properties as they were.
enum StoreHistory {
    static let transactionsTable = "_osd_history_transactions"
    static let changesTable = "_osd_history_changes"
    static let tombstonesTable = "_osd_history_tombstones"
    static let changesIndex = "_osd_history_changes_transaction"

    /// The tables and indices history keeps, for the check of what a store may hold.
    static let tableNames: Set<String> = [transactionsTable, changesTable, tombstonesTable]
    static let indexNames: Set<String> = [changesIndex]

    enum Kind: Int64 {
        case insert = 0, update = 1, delete = 2
    }

    /// One change of a save, as recorded.
    struct Change {
        var kind: Kind
        var entity: String
        var row: Int64
        /// An update's changed properties.
        var updated: [String] = []
        /// A delete's preserved attribute values.
        var tombstone: [(attribute: String, value: DatabaseValue)] = []
    }

    /// Who saves: this process's bundle identifier (its executable's name where it has none)
    /// and process identifier.
    static let bundleIdentifier = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let processIdentifier = String(ProcessInfo.processInfo.processIdentifier)

    static func createTables(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(transactionsTable.quotedDatabaseIdentifier) ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "timestamp" REAL NOT NULL, "author" TEXT, "bundle" TEXT NOT NULL, "process" TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS \(changesTable.quotedDatabaseIdentifier) ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "transactionID" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "entity" TEXT NOT NULL, "row" INTEGER NOT NULL, "updated" TEXT);
            CREATE INDEX IF NOT EXISTS \(changesIndex.quotedDatabaseIdentifier) ON \(changesTable.quotedDatabaseIdentifier) ("transactionID");
            CREATE TABLE IF NOT EXISTS \(tombstonesTable.quotedDatabaseIdentifier) ("changeID" INTEGER NOT NULL, "attribute" TEXT NOT NULL, "value", PRIMARY KEY ("changeID", "attribute")) WITHOUT ROWID;
            """)
    }

    /// Records a save's changes as one transaction, in `db`'s transaction; returns its number,
    /// or `nil` when there was nothing to record.
    ///
    /// - Parameter tablesExist: whether the tables are known to exist; they are made (if they
    ///   are not there) when not.
    @discardableResult
    static func record(_ changes: [Change], author: String?, tablesExist: Bool, in db: Database) throws -> Int64? {
        guard !changes.isEmpty else { return nil }
        if !tablesExist { try createTables(in: db) }
        try db.execute(
            sql: "INSERT INTO \(transactionsTable.quotedDatabaseIdentifier) (\"timestamp\", \"author\", \"bundle\", \"process\") VALUES (?, ?, ?, ?)",
            arguments: [Date().timeIntervalSinceReferenceDate, author, bundleIdentifier, processIdentifier])
        let transaction = db.lastInsertedRowID
        let insert = try db.cachedStatement(
            sql: "INSERT INTO \(changesTable.quotedDatabaseIdentifier) (\"transactionID\", \"kind\", \"entity\", \"row\", \"updated\") VALUES (?, ?, ?, ?, ?)")
        let tombstone = try db.cachedStatement(
            sql: "INSERT INTO \(tombstonesTable.quotedDatabaseIdentifier) (\"changeID\", \"attribute\", \"value\") VALUES (?, ?, ?)")
        for change in changes {
            try insert.execute(arguments: [
                transaction, change.kind.rawValue, change.entity, change.row,
                change.updated.isEmpty ? nil : change.updated.joined(separator: ","),
            ])
            let changeID = db.lastInsertedRowID
            for (attribute, value) in change.tombstone {
                try tombstone.execute(arguments: [changeID, attribute, value])
            }
        }
        return transaction
    }

    /// A recorded transaction and its changes, as read back.
    struct Transaction {
        let id: Int64
        let timestamp: Date
        let author: String?
        let bundle: String
        let process: String
        var changes: [(id: Int64, change: Change)] = []
    }

    /// The transactions `condition` selects (on the transactions table, named `t`), in
    /// `orderBy`'s order (their numbers' otherwise), at most `limit`; with their changes.
    static func read(where condition: SQLFragment?, orderBy: String?, limit: Int?, in db: Database) throws -> [Transaction] {
        guard try db.tableExists(transactionsTable) else { return [] }
        var sql = "SELECT \"id\", \"timestamp\", \"author\", \"bundle\", \"process\" FROM \(transactionsTable.quotedDatabaseIdentifier)"
        if let condition { sql += " WHERE \(condition.sql)" }
        sql += " ORDER BY \(orderBy.map { "\($0), " } ?? "")\"id\""
        if let limit { sql += " LIMIT \(limit)" }
        var transactions = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(condition?.arguments ?? [])).map { row in
            Transaction(
                id: row[0], timestamp: Date(timeIntervalSinceReferenceDate: row[1]), author: row[2], bundle: row[3], process: row[4])
        }
        guard !transactions.isEmpty else { return [] }
        let position = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.id, $0) })
        let ids = transactions.map(\.id)
        var tombstones: [Int64: [(String, DatabaseValue)]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: "SELECT s.\"changeID\", s.\"attribute\", s.\"value\" FROM \(tombstonesTable.quotedDatabaseIdentifier) AS s JOIN \(changesTable.quotedDatabaseIdentifier) AS c ON c.\"id\" = s.\"changeID\" WHERE c.\"transactionID\" IN (\(TableLayout.placeholders(ids.count)))",
            arguments: StatementArguments(ids))
        {
            tombstones[row[0], default: []].append((row[1], row[2]))
        }
        for row in try Row.fetchAll(
            db,
            sql: "SELECT \"id\", \"transactionID\", \"kind\", \"entity\", \"row\", \"updated\" FROM \(changesTable.quotedDatabaseIdentifier) WHERE \"transactionID\" IN (\(TableLayout.placeholders(ids.count))) ORDER BY \"id\"",
            arguments: StatementArguments(ids))
        {
            let id: Int64 = row[0]
            guard let index = position[row[1]], let kind = Kind(rawValue: row[2]) else { continue }
            let updated = (row[5] as String?).map { $0.split(separator: ",").map(String.init) } ?? []
            transactions[index].changes.append(
                (id, Change(kind: kind, entity: row[3], row: row[4], updated: updated, tombstone: tombstones[id] ?? [])))
        }
        return transactions
    }
}
