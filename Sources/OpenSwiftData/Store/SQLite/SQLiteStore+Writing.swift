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
                var writer = RowWriter(
                    db: db, tables: tables, isMigrating: isMigrating, historyTablesExist: historyTablesExist.load(ordering: .relaxed))
                let saved = try changes.write(with: &writer, tables: tables, recordingHistory: !isMigrating)
                recordedHistory = writer.recordedHistory
                return saved
            }
            if recordedHistory { historyTablesExist.store(true, ordering: .relaxed) }
            return result
        } catch let error as SwiftDataError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(Self.describe(location)) was locked by another connection's write for longer than the busy timeout (\(Int(Self.busyTimeout)) seconds), so the save was rolled back and nothing was written; save again, and keep other writers' transactions short (SQLite: \(error.message ?? "database is locked"))", cause: error)
        } catch let error as DatabaseError {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the save was rolled back, nothing was written: \(error.message ?? "\(error)") (SQL: \(error.sql ?? ""))", cause: error)
        }
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
