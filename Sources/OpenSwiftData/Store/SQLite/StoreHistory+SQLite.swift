import Foundation
import GRDB

// The SQLite store's history statements, over the tables StoreHistory describes.
extension StoreHistory {
    static func createTables(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(transactionsTable.quotedDatabaseIdentifier) ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "timestamp" REAL NOT NULL, "author" TEXT, "bundle" TEXT NOT NULL, "process" TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS \(changesTable.quotedDatabaseIdentifier) ("transactionID" INTEGER NOT NULL, "ordinal" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "entity" TEXT NOT NULL, "firstRow" INTEGER NOT NULL, "count" INTEGER NOT NULL, "updated" TEXT, PRIMARY KEY ("transactionID", "ordinal")) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(tombstonesTable.quotedDatabaseIdentifier) ("transactionID" INTEGER NOT NULL, "ordinal" INTEGER NOT NULL, "attribute" TEXT NOT NULL, "value", PRIMARY KEY ("transactionID", "ordinal", "attribute")) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(prunedTable.quotedDatabaseIdentifier) ("through" INTEGER NOT NULL);
            """)
    }

    /// Records a save's changes as one transaction, in `db`'s transaction; returns its number,
    /// or `nil` when there was nothing to record. Consecutive changes of one kind to
    /// consecutive rows of one entity (with the same changed properties) are one run.
    ///
    /// - Parameter tablesExist: whether the tables are known to exist; they are made (if they
    ///   are not there) when not.
    @discardableResult
    static func record(_ changes: [Change], author: String?, tablesExist: Bool, in db: Database) throws -> Int64? {
        guard !changes.isEmpty else { return nil }
        if !tablesExist { try createTables(in: db) }
        try db.cachedStatement(
            sql: "INSERT INTO \(transactionsTable.quotedDatabaseIdentifier) (\"timestamp\", \"author\", \"bundle\", \"process\") VALUES (?, ?, ?, ?)"
        ).execute(arguments: [Date().timeIntervalSinceReferenceDate, author, bundleIdentifier, processIdentifier])
        let transaction = db.lastInsertedRowID
        let insert = try db.cachedStatement(
            sql: "INSERT INTO \(changesTable.quotedDatabaseIdentifier) (\"transactionID\", \"ordinal\", \"kind\", \"entity\", \"firstRow\", \"count\", \"updated\") VALUES (?, ?, ?, ?, ?, ?, ?)")
        for run in runs(of: changes) {
            try insert.execute(arguments: [transaction, run.ordinal, run.kind.rawValue, run.entity, run.firstRow, run.count, run.updated])
        }
        let tombstone = try db.cachedStatement(
            sql: "INSERT INTO \(tombstonesTable.quotedDatabaseIdentifier) (\"transactionID\", \"ordinal\", \"attribute\", \"value\") VALUES (?, ?, ?, ?)")
        for value in tombstoneValues(of: changes) {
            try tombstone.execute(arguments: [transaction, value.ordinal, value.attribute, value.value.databaseValue])
        }
        return transaction
    }

    /// The highest transaction number ``delete(where:in:)`` removed; 0 when none was.
    static func prunedThrough(in db: Database) throws -> Int64 {
        guard try db.tableExists(prunedTable) else { return 0 }
        return try Int64.fetchOne(db, sql: "SELECT MAX(\"through\") FROM \(prunedTable.quotedDatabaseIdentifier)") ?? 0
    }

    /// Deletes the transactions `condition` selects, with their changes; returns how many.
    static func delete(where condition: SQLFragment?, in db: Database) throws -> Int {
        guard try db.tableExists(transactionsTable) else { return 0 }
        var sql = "SELECT \"id\" FROM \(transactionsTable.quotedDatabaseIdentifier)"
        if let condition { sql += " WHERE \(condition.sqlite)" }
        let ids = try Int64.fetchAll(db, sql: sql, arguments: condition?.statementArguments ?? [])
        guard let highest = ids.max() else { return 0 }
        for table in [tombstonesTable, changesTable] {
            try db.execute(
                sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE \"transactionID\" IN (SELECT value FROM json_each(?))",
                arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"])
        }
        try db.execute(
            sql: "DELETE FROM \(transactionsTable.quotedDatabaseIdentifier) WHERE \"id\" IN (SELECT value FROM json_each(?))",
            arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"])
        try db.execute(sql: "DELETE FROM \(prunedTable.quotedDatabaseIdentifier) WHERE \"through\" < ?", arguments: [highest])
        if try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM \(prunedTable.quotedDatabaseIdentifier)") == 0 {
            try db.execute(sql: "INSERT INTO \(prunedTable.quotedDatabaseIdentifier) (\"through\") VALUES (?)", arguments: [highest])
        }
        return ids.count
    }

    /// The transactions `condition` selects, in `orderBy`'s order (their numbers' otherwise),
    /// at most `limit`; with their changes.
    static func read(where condition: SQLFragment?, orderBy: SQLFragment?, limit: Int?, in db: Database) throws -> [Transaction] {
        guard try db.tableExists(transactionsTable) else { return [] }
        var sql = "SELECT \"id\", \"timestamp\", \"author\", \"bundle\", \"process\" FROM \(transactionsTable.quotedDatabaseIdentifier)"
        if let condition { sql += " WHERE \(condition.sqlite)" }
        sql += " ORDER BY \(orderBy.map { "\($0.sqlite), " } ?? "")\"id\""
        if let limit { sql += " LIMIT \(limit)" }
        let transactions = try Row.fetchAll(db, sql: sql, arguments: condition?.statementArguments ?? []).map { row in
            Transaction(
                id: row[0], timestamp: Date(timeIntervalSinceReferenceDate: row[1]), author: row[2], bundle: row[3], process: row[4])
        }
        guard !transactions.isEmpty else { return [] }
        let ids = "[" + transactions.map { String($0.id) }.joined(separator: ",") + "]"
        let tombstones = try Row.fetchAll(
            db,
            sql: "SELECT \"transactionID\", \"ordinal\", \"attribute\", \"value\" FROM \(tombstonesTable.quotedDatabaseIdentifier) WHERE \"transactionID\" IN (SELECT value FROM json_each(?))",
            arguments: [ids]
        ).map { row in (transaction: row[0] as Int64, ordinal: row[1] as Int64, attribute: row[2] as String, value: StoredValue(row[3] as DatabaseValue)) }
        let runs = try Row.fetchAll(
            db,
            sql: "SELECT \"transactionID\", \"ordinal\", \"kind\", \"entity\", \"firstRow\", \"count\", \"updated\" FROM \(changesTable.quotedDatabaseIdentifier) WHERE \"transactionID\" IN (SELECT value FROM json_each(?)) ORDER BY \"transactionID\", \"ordinal\"",
            arguments: [ids]
        ).compactMap { row -> (transaction: Int64, run: Run)? in
            guard let kind = Kind(rawValue: row[2]) else { return nil }
            return (row[0], Run(ordinal: row[1], kind: kind, entity: row[3], firstRow: row[4], count: row[5], updated: row[6]))
        }
        return assemble(transactions, runs: runs, tombstones: tombstones)
    }

    /// The number of the newest transaction the store recorded (or `deleteHistory` removed); 0
    /// before its first.
    static func lastTransaction(in db: Database) throws -> Int64 {
        guard try db.tableExists(transactionsTable) else { return 0 }
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(\"id\") FROM \(transactionsTable.quotedDatabaseIdentifier)") ?? 0
        return max(newest, try prunedThrough(in: db))
    }

    /// The transactions after number `transaction`, oldest first, with the entities they changed.
    static func summaries(after transaction: Int64, in db: Database) throws -> [Summary] {
        guard try db.tableExists(transactionsTable) else { return [] }
        var summaries: [Summary] = []
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT t."id", t."author", c."entity" FROM \(transactionsTable.quotedDatabaseIdentifier) t
                LEFT JOIN (SELECT DISTINCT "transactionID", "entity" FROM \(changesTable.quotedDatabaseIdentifier) WHERE "transactionID" > ?1) c
                ON c."transactionID" = t."id" WHERE t."id" > ?1 ORDER BY t."id"
                """,
            arguments: [transaction])
        {
            let id: Int64 = row[0]
            if summaries.last?.id != id { summaries.append(Summary(id: id, author: row[1], entities: [])) }
            if let entity = row[2] as String? { summaries[summaries.count - 1].entities.insert(entity) }
        }
        return summaries
    }
}
