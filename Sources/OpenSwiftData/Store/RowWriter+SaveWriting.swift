// The SQLite store's part of a save: RowWriter's statements, in the order every store saves in.
extension RowWriter: SaveWriting {
    mutating func deleteRows(_ batch: BatchDelete) throws -> [(entity: String, rows: [Int64])] {
        // In a migration every deleted row must reach the update hook that counts it for the
        // report, which SQLite's truncate optimization of a DELETE without WHERE skips.
        let condition = batch.condition ?? (isMigrating ? SQLFragment("1") : nil)
        switch batch.kind {
        case .oneStatement(let reportingKeys):
            // The keys come back for the history too.
            let deleted = try deleteRows(of: batch.table, where: condition, reportingKeys: reportingKeys || !isMigrating)
            return [(batch.table.entity.name, deleted)]
        case .applyingDeleteRules:
            var cascade = CascadingDelete(db: db, tables: tables)
            return try cascade.run(from: batch.table, where: condition, reportingKeys: !isMigrating)
        }
    }

    mutating func update(_ states: [ModelState]) throws {
        for state in states { try update(state) }
    }

    mutating func insert(_ states: [ModelState]) throws -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(states.count)
        for state in states { keys.append(try insert(state)) }
        return keys
    }

    mutating func clearLinks(ofUpserted states: [ModelState]) throws {
        for state in states { try clearLinks(ofUpserted: state) }
    }

    mutating func writeRelationships(inserted: [ModelState], updated: [ModelState]) throws {
        for state in inserted { try writeRelationships(of: state, onlyChanged: false) }
        for state in updated { try writeRelationships(of: state, onlyChanged: true) }
    }

    mutating func recordHistory(_ changes: [StoreHistory.Change], author: String?) throws -> Int64? {
        let transaction = try StoreHistory.record(changes, author: author, tablesExist: historyTablesExist, in: db)
        recordedHistory = recordedHistory || transaction != nil
        return transaction
    }
}
