import Foundation
import GRDB

// Writing: one save's changes in one transaction, and erasing every row.
extension SQLiteStore {
    /// Writes the changes in one transaction and returns the primary key of each inserted
    /// model, in order, and the keys of rows batch deletes removed. An inserted model whose
    /// unique values match a stored row updates that row and gets its key. Relationships are
    /// written after every new row has its key, so new models may refer to each other. Nothing
    /// is written when anything fails.
    func save(_ changes: StoreChanges) throws -> SavedChanges {
        guard !isReadOnly else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(Self.describe(location)) is read-only (its configuration has allowsSave: false); nothing was saved")
        }
        var recordedHistory = false
        do {
            let result = try write { db in
                var writer = RowWriter(db: db, tables: tables)
                var saved = SavedChanges()
                var history: [StoreHistory.Change] = []
                for batch in changes.batchDeletes {
                    // In a migration every deleted row must reach the update hook that counts it
                    // for the report, which SQLite's truncate optimization of a DELETE without
                    // WHERE skips.
                    let condition = batch.condition ?? (isMigrating ? SQLFragment("1") : nil)
                    switch batch.kind {
                    case .oneStatement(let reportingKeys):
                        // The keys come back for the history too.
                        let deleted = try writer.deleteRows(of: batch.table, where: condition, reportingKeys: reportingKeys || !isMigrating)
                        if reportingKeys { saved.deletedRowIDs[batch.table.entity.name, default: []] += deleted }
                        history += StoreHistory.changes(ofBatchDelete: deleted, entity: batch.table.entity.name, in: changes)
                    case .applyingDeleteRules:
                        var cascade = CascadingDelete(db: db, tables: tables)
                        for (entity, rows) in try cascade.run(from: batch.table, where: condition, reportingKeys: !isMigrating) {
                            history += StoreHistory.changes(ofBatchDelete: rows, entity: entity, in: changes)
                        }
                    }
                }
                // Deletes and updates go table by table in key order: the context hands them over
                // in hash order, and a million of them in that order would jump around the
                // table and its indices, through far more pages than SQLite's cache holds.
                try writer.delete(changes.deleted.sorted(by: Self.tableAndKeyOrder))
                // Updates before inserts: an insert that upserts over a changed stored row must
                // have the last word, since the inserted object is the one that stands for it.
                for state in changes.updated.sorted(by: Self.tableAndKeyOrder) { try writer.update(state) }
                saved.insertedRowIDs.reserveCapacity(changes.inserted.count)
                for state in changes.inserted {
                    saved.insertedRowIDs.append(try writer.insert(state))
                }
                if !writer.upserts.isEmpty {
                    for (position, state) in changes.inserted.enumerated() {
                        guard let merge = writer.upserts[ObjectIdentifier(state)] else { continue }
                        saved.upserts[position] = merge.updatedProperties
                        try writer.clearLinks(ofUpserted: state)
                    }
                }
                for state in changes.inserted {
                    try writer.writeRelationships(of: state, onlyChanged: false)
                }
                for state in changes.updated {
                    try writer.writeRelationships(of: state, onlyChanged: true)
                }
                if !isMigrating, StoreHistory.isRecording.load(ordering: .relaxed) {
                    history += try StoreHistory.changes(
                        of: changes, insertedRowIDs: saved.insertedRowIDs, upserts: saved.upserts, tables: tables)
                    if !history.isEmpty {
                        saved.historyTransaction = try StoreHistory.record(
                            history, author: changes.author, tablesExist: historyTablesExist.load(ordering: .relaxed), in: db)
                        recordedHistory = true
                    }
                }
                return saved
            }
            if recordedHistory { historyTablesExist.store(true, ordering: .relaxed) }
            return result
        } catch let error as SwiftDataError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(Self.describe(location)) was locked by another connection's write for longer than the busy timeout (\(Int(Self.busyTimeout)) seconds), so the save was rolled back and nothing was written; save again, and keep other writers' transactions short (SQLite: \(error.message ?? "database is locked"))")
        } catch let error as DatabaseError {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the save was rolled back, nothing was written: \(error.message ?? "\(error)") (SQL: \(error.sql ?? ""))")
        }
    }

    static func tableAndKeyOrder(_ first: ModelState, _ second: ModelState) -> Bool {
        (ObjectIdentifier(first.layout), first.rowID ?? 0) < (ObjectIdentifier(second.layout), second.rowID ?? 0)
    }

    /// The rows of `destination` that a to-many relationship holds for each of the rows
    /// `owners`, as (owner, row) pairs, in one query.
    func fetchRelatedRows(
        _ relationship: StoredRelationship, ofRows owners: [Int64], in destination: TableLayout
    ) throws -> [(owner: Int64, row: (rowID: Int64, values: ModelValues))] {
        let placeholders = TableLayout.placeholders(owners.count)
        let arguments = owners.map(\.databaseValue)
        let ownerColumn: String
        var sql = "SELECT \(destination.selectList), "
        switch relationship.storage {
        case .foreignKey(let column), .inverseForeignKey(let column):
            ownerColumn = "\(destination.tableName).\(column.quotedDatabaseIdentifier)"
            sql += "\(ownerColumn) FROM \(destination.tableName) WHERE \(ownerColumn) IN (\(placeholders))"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let join = table.quotedDatabaseIdentifier
            ownerColumn = "\(join).\(ownColumn.quotedDatabaseIdentifier)"
            sql += "\(ownerColumn) FROM \(destination.tableName) JOIN \(join) ON \(join).\(otherColumn.quotedDatabaseIdentifier) = \(destination.qualifiedKeyColumn) WHERE \(ownerColumn) IN (\(placeholders))"
        }
        // The owner's key follows the select list (a hierarchy's is its table's every column).
        let ownerIndex = Int32(destination.selectedColumns.count)
        return try read { db in
            var pairs: [(owner: Int64, row: (rowID: Int64, values: ModelValues))] = []
            try RawStatement(sql: sql, in: db).forEachRow(arguments) { row in
                let rowID = row.int64(at: 0) ?? 0
                pairs.append((row.int64(at: ownerIndex) ?? 0, (rowID, try modelValues(destination, row, rowID: rowID))))
            }
            return pairs
        }
    }

    /// Deletes every row of every entity, keeping the tables.
    func eraseAllRows() throws {
        try write { db in
            for table in tables.values {
                for relationship in table.relationships where relationship.createsJoinTable {
                    if case .joinTable(let joinTable, _, _) = relationship.storage {
                        try db.execute(sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier)")
                    }
                }
                for column in table.externalColumns {
                    try db.execute(sql: "DELETE FROM \(table.externalTableName(column))")
                }
                try db.execute(sql: "DELETE FROM \(table.tableName)")
            }
        }
    }
}
