import GRDB

// The store's persistent history, as contexts and observers read and prune it.
extension SQLiteStore {
    func historyPosition() throws -> (last: Int64, prunedThrough: Int64) {
        try read { db in (try StoreHistory.lastTransaction(in: db), try StoreHistory.prunedThrough(in: db)) }
    }

    func historySummaries(after transaction: Int64) throws -> (summaries: [StoreHistory.Summary], prunedThrough: Int64) {
        try read { db in (try StoreHistory.summaries(after: transaction, in: db), try StoreHistory.prunedThrough(in: db)) }
    }

    func readHistory(
        where condition: SQLFragment?, orderBy: SQLFragment?, limit: Int?, checkingPrunedThrough check: (Int64) throws -> Void
    ) throws -> [StoreHistory.Transaction] {
        try read { db in
            try check(try StoreHistory.prunedThrough(in: db))
            return try StoreHistory.read(where: condition, orderBy: orderBy, limit: limit, in: db)
        }
    }

    func deleteHistory(where condition: SQLFragment?) throws {
        _ = try write { db in try StoreHistory.delete(where: condition, in: db) }
    }
}
