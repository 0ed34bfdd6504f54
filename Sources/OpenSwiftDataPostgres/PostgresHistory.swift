import Foundation
import OpenSwiftData
import PostgresNIO
import Synchronization

/// The persistent history of a PostgreSQL store: the SQLite store's layout (`StoreHistory`: a
/// transaction per save that changed the store, its changes as runs, the preserved values of
/// deletes, how far `deleteHistory` pruned) in four tables of the store's PostgreSQL schema,
/// made by the first save that records.
///
/// A save records last in its transaction, after taking the store's history lock (a
/// transaction-level advisory lock, held until it commits): transaction numbers come from the
/// table's identity in the order saves commit, so a reader that has seen number N never misses a
/// lower number committing later. The save also notifies the store's channel
/// (``channel``), which other servers' observers listen to; PostgreSQL delivers it at commit,
/// and not at all when the save rolls back.
final class PostgresHistory: Sendable {
    let databaseSchema: String
    /// Whether a recording save has committed, so the tables are there.
    private let tablesMade = Atomic<Bool>(false)
    /// Whether the recording statement is prepared on each connection (``RepeatedStatements``).
    private let prepared: Bool

    init(databaseSchema: String, prepared: Bool) {
        self.databaseSchema = databaseSchema
        self.prepared = prepared
    }

    /// The `LISTEN`/`NOTIFY` channel of the store's commits.
    var channel: String {
        "osd_commits_" + String(UInt64(bitPattern: PostgresStore.lockKey(databaseSchema)), radix: 16)
    }

    private func table(_ name: String) -> String {
        PostgresNames.qualified(name, in: databaseSchema)
    }

    private var transactions: String { table(StoreHistory.transactionsTable) }
    private var changes: String { table(StoreHistory.changesTable) }
    private var tombstones: String { table(StoreHistory.tombstonesTable) }
    private var pruned: String { table(StoreHistory.prunedTable) }

    /// Records a save's changes as one transaction, last in the save's transaction, which it
    /// commits (when not inside another); returns its number, or `nil` when there was nothing to
    /// record. Notifies ``channel`` with `sender`.
    ///
    /// One statement takes the lock, numbers the transaction, writes its runs and tombstones and
    /// notifies, its transaction's `COMMIT` sent behind it: one round trip per save (and, until
    /// the tables are known to be there, a few more to make them).
    func record(_ recorded: [StoreHistory.Change], author: String?, sender: String, session: PostgresSession) throws -> Int64? {
        guard !recorded.isEmpty else { return nil }
        let lock = "SELECT pg_advisory_xact_lock(\(Self.lockKey(databaseSchema)))"
        if !tablesMade.load(ordering: .relaxed) {
            try session.query(PostgresQuery(unsafeSQL: lock))
            try createTables(session)
        }
        let runs = StoreHistory.runs(of: recorded)
        let values = StoreHistory.tombstoneValues(of: recorded)
        var binds = PostgresBindings()
        binds.append(Date().timeIntervalSinceReferenceDate)
        binds.append(author)
        binds.append(StoreHistory.bundleIdentifier)
        binds.append(StoreHistory.processIdentifier)
        binds.append(runs.map(\.ordinal))
        binds.append(runs.map(\.kind.rawValue))
        binds.append(runs.map(\.entity))
        binds.append(runs.map(\.firstRow))
        binds.append(runs.map(\.count))
        // An update's property names are never empty: "" stands for none.
        binds.append(runs.map { $0.updated ?? "" })
        binds.append(values.map(\.ordinal))
        binds.append(values.map(\.attribute))
        binds.append(values.map { Self.kind(of: $0.value) })
        binds.append(values.map { Self.text(of: $0.value) ?? "" })
        binds.append(channel)
        binds.append(sender)
        // The transaction's number is taken after the lock (its row is made from the lock's).
        // The save's last statement: its COMMIT follows at once, ending the lock's hold.
        let rows = try session.queryEndingTransaction(PostgresQuery(
            unsafeSQL: """
                WITH l AS (\(lock)),
                t AS (INSERT INTO \(transactions) ("timestamp", "author", "bundle", "process") SELECT $1, $2, $3, $4 FROM l RETURNING "id"),
                c AS (INSERT INTO \(changes) ("transactionID", "ordinal", "kind", "entity", "firstRow", "count", "updated")
                    SELECT t."id", r.o, r.k, r.e, r.f, r.n, nullif(r.u, '') FROM t, unnest($5::bigint[], $6::bigint[], $7::text[], $8::bigint[], $9::bigint[], $10::text[]) AS r(o, k, e, f, n, u)),
                v AS (INSERT INTO \(tombstones) ("transactionID", "ordinal", "attribute", "kind", "value")
                    SELECT t."id", r.o, r.a, r.k, r.v FROM t, unnest($11::bigint[], $12::text[], $13::bigint[], $14::text[]) AS r(o, a, k, v)),
                s AS (SELECT pg_notify($15, $16) FROM t)
                SELECT t."id" FROM t, s
                """,
            binds: binds), repeated: prepared)
        return try rows.first?.decode(Int64.self)
    }

    /// Notes that a recording save committed: the tables are there from now on.
    func noteTablesMade() {
        tablesMade.store(true, ordering: .relaxed)
    }

    /// Makes the tables when they are not there; the caller holds the history lock.
    private func createTables(_ session: PostgresSession) throws {
        for statement in [
            "CREATE TABLE IF NOT EXISTS \(transactions) (\"id\" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \"timestamp\" double precision NOT NULL, \"author\" text, \"bundle\" text NOT NULL, \"process\" text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(changes) (\"transactionID\" bigint NOT NULL, \"ordinal\" bigint NOT NULL, \"kind\" bigint NOT NULL, \"entity\" text NOT NULL, \"firstRow\" bigint NOT NULL, \"count\" bigint NOT NULL, \"updated\" text, PRIMARY KEY (\"transactionID\", \"ordinal\"))",
            "CREATE TABLE IF NOT EXISTS \(tombstones) (\"transactionID\" bigint NOT NULL, \"ordinal\" bigint NOT NULL, \"attribute\" text NOT NULL, \"kind\" bigint NOT NULL, \"value\" text NOT NULL, PRIMARY KEY (\"transactionID\", \"ordinal\", \"attribute\"))",
            "CREATE TABLE IF NOT EXISTS \(pruned) (\"through\" bigint NOT NULL)",
        ] {
            try session.query(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// Whether the first recording save has made the tables.
    func tablesExist(_ session: PostgresSession) throws -> Bool {
        try session.query("SELECT to_regclass(\(transactions)) IS NOT NULL").first?.decode(Bool.self) == true
    }

    /// The highest transaction number `deleteHistory` removed; 0 when none was.
    func prunedThrough(_ session: PostgresSession) throws -> Int64 {
        guard try tablesExist(session) else { return 0 }
        return try session.query(PostgresQuery(unsafeSQL: "SELECT coalesce(max(\"through\"), 0) FROM \(pruned)")).first?.decode(Int64.self) ?? 0
    }

    /// The number of the newest transaction recorded (or removed); 0 before the first.
    func lastTransaction(_ session: PostgresSession) throws -> Int64 {
        guard try tablesExist(session) else { return 0 }
        let newest = try session.query(PostgresQuery(unsafeSQL: "SELECT coalesce(max(\"id\"), 0) FROM \(transactions)")).first?.decode(Int64.self) ?? 0
        return max(newest, try prunedThrough(session))
    }

    /// The transactions after number `transaction`, oldest first, with the entities they changed.
    func summaries(after transaction: Int64, _ session: PostgresSession) throws -> [StoreHistory.Summary] {
        guard try tablesExist(session) else { return [] }
        var binds = PostgresBindings()
        binds.append(transaction)
        var summaries: [StoreHistory.Summary] = []
        for row in try session.query(PostgresQuery(
            unsafeSQL: """
                SELECT t."id", t."author", c."entity" FROM \(transactions) t
                LEFT JOIN (SELECT DISTINCT "transactionID", "entity" FROM \(changes) WHERE "transactionID" > $1) c
                ON c."transactionID" = t."id" WHERE t."id" > $1 ORDER BY t."id"
                """,
            binds: binds))
        {
            let (id, author, entity) = try row.decode((Int64, String?, String?).self)
            if summaries.last?.id != id { summaries.append(StoreHistory.Summary(id: id, author: author, entities: [])) }
            if let entity { summaries[summaries.count - 1].entities.insert(entity) }
        }
        return summaries
    }

    /// The transactions `condition` selects (over the transactions table's columns), in
    /// `orderBy`'s order (their numbers' otherwise), at most `limit`; with their changes.
    func read(where condition: SQLFragment?, orderBy: SQLFragment?, limit: Int?, _ session: PostgresSession) throws -> [StoreHistory.Transaction] {
        guard try tablesExist(session) else { return [] }
        var binds = PostgresBindings()
        var sql = "SELECT \"id\", \"timestamp\", \"author\", \"bundle\", \"process\" FROM \(transactions)"
        do {
            if let condition { sql += " WHERE " + (try PostgresSQL.render(condition, into: &binds, entity: "the history")) }
            sql += " ORDER BY \(try orderBy.map { "\(try PostgresSQL.render($0, into: &binds, entity: "the history")), " } ?? "")\"id\""
        } catch let error as SwiftDataError where error == .unsupportedPredicate {
            throw SwiftDataError.invalidTransactionFetchRequest.explaining("the history of a PostgreSQL store cannot answer: \(error.explanation ?? "\(error)")")
        }
        if let limit { sql += " LIMIT \(limit)" }
        let read = try session.query(PostgresQuery(unsafeSQL: sql, binds: binds)).map { row in
            let (id, timestamp, author, bundle, process) = try row.decode((Int64, Double, String?, String, String).self)
            return StoreHistory.Transaction(
                id: id, timestamp: Date(timeIntervalSinceReferenceDate: timestamp), author: author, bundle: bundle, process: process)
        }
        guard !read.isEmpty else { return [] }
        binds = PostgresBindings()
        binds.append(read.map(\.id))
        let preserved = try session.query(PostgresQuery(
            unsafeSQL: "SELECT \"transactionID\", \"ordinal\", \"attribute\", \"kind\", \"value\" FROM \(tombstones) WHERE \"transactionID\" = ANY($1)", binds: binds)
        ).map { row in
            let (transaction, ordinal, attribute, kind, text) = try row.decode((Int64, Int64, String, Int64, String).self)
            return (transaction: transaction, ordinal: ordinal, attribute: attribute, value: Self.value(kind: kind, text: text))
        }
        let runs = try session.query(PostgresQuery(
            unsafeSQL: "SELECT \"transactionID\", \"ordinal\", \"kind\", \"entity\", \"firstRow\", \"count\", \"updated\" FROM \(changes) WHERE \"transactionID\" = ANY($1) ORDER BY \"transactionID\", \"ordinal\"",
            binds: binds)
        ).compactMap { row -> (transaction: Int64, run: StoreHistory.Run)? in
            let (transaction, ordinal, kind, entity, firstRow, count, updated) = try row.decode((Int64, Int64, Int64, String, Int64, Int64, String?).self)
            guard let kind = StoreHistory.Kind(rawValue: kind) else { return nil }
            return (transaction, StoreHistory.Run(ordinal: ordinal, kind: kind, entity: entity, firstRow: firstRow, count: count, updated: updated))
        }
        return StoreHistory.assemble(read, runs: runs, tombstones: preserved)
    }

    /// Deletes the transactions `condition` selects, with their changes, and records how far
    /// the history is pruned.
    func delete(where condition: SQLFragment?, _ session: PostgresSession) throws {
        guard try tablesExist(session) else { return }
        var binds = PostgresBindings()
        var sql = "DELETE FROM \(transactions)"
        do {
            if let condition { sql += " WHERE " + (try PostgresSQL.render(condition, into: &binds, entity: "the history")) }
        } catch let error as SwiftDataError where error == .unsupportedPredicate {
            throw SwiftDataError.invalidTransactionFetchRequest.explaining("the history of a PostgreSQL store cannot answer: \(error.explanation ?? "\(error)")")
        }
        sql += " RETURNING \"id\""
        let ids = try session.query(PostgresQuery(unsafeSQL: sql, binds: binds)).map { try $0.decode(Int64.self) }
        guard let highest = ids.max() else { return }
        binds = PostgresBindings()
        binds.append(ids)
        for table in [tombstones, changes] {
            try session.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \"transactionID\" = ANY($1)", binds: binds))
        }
        binds = PostgresBindings()
        binds.append(highest)
        try session.query(PostgresQuery(unsafeSQL: "DELETE FROM \(pruned) WHERE \"through\" < $1", binds: binds))
        try session.query(PostgresQuery(unsafeSQL: "INSERT INTO \(pruned) (\"through\") SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM \(pruned))", binds: binds))
    }

    /// The lock a recording save holds from its history's write to its commit.
    static func lockKey(_ databaseSchema: String) -> Int64 {
        PostgresStore.lockKey(databaseSchema + "\u{0}history")
    }

    // A preserved value as its kind (0 null, 1 integer, 2 real, 3 text, 4 blob) and text (""
    // for null).

    private static func kind(of value: StoredValue) -> Int64 {
        switch value {
        case .null: 0
        case .integer: 1
        case .real: 2
        case .text: 3
        case .blob: 4
        }
    }

    private static func text(of value: StoredValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let int): String(int)
        case .real(let double): "\(double)"
        case .text(let text): text
        case .blob(let data): data.base64EncodedString()
        }
    }

    private static func value(kind: Int64, text: String) -> StoredValue {
        switch kind {
        case 1: return Int64(text).map(StoredValue.integer) ?? .null
        case 2: return Double(text).map(StoredValue.real) ?? .null
        case 3: return .text(text)
        case 4: return Data(base64Encoded: text).map(StoredValue.blob) ?? .null
        default: return .null
        }
    }
}
