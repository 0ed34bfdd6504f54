import OpenSwiftData

// The PostgreSQL store's part of a save: PostgresRowWriter's statements and bulk paths, in the
// order every store saves in.
extension PostgresRowWriter: SaveWriting {
    func deleteRows(_ batch: BatchDelete) throws -> [(entity: String, rows: [Int64])] {
        // The store applies no delete rules in SQL (appliesDeleteRules is false): a batch delete
        // reaching it is one statement.
        [(batch.table.entity.name, try deleteRows(of: batch.table, where: batch.condition))]
    }

    func recordHistory(_ changes: [StoreHistory.Change], author: String?) throws -> Int64? {
        try history.record(changes, author: author, sender: commitSender, session: session)
    }
}
