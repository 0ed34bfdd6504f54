import GRDB

/// Writes one save's rows inside its transaction: deletes, inserts (upserting on unique
/// constraints), updates of changed columns, `.externalStorage` side tables, and relationship
/// keys and join rows once every new row has its key.
struct RowWriter {
    let db: Database
    let tables: [String: TableLayout]
    /// The keys of the rows inserted so far in this save, by model state, kept only when some
    /// table has relationships: they are what the relationship keys written last point at.
    private var newRowIDs: [ObjectIdentifier: Int64] = [:]
    private let keepsNewRowIDs: Bool
    /// The statements of this save, each prepared once: a save of many models runs the same
    /// few statements once per model.
    private var statements: [Statement: RawStatement] = [:]
    /// The table of the model written last. A save writes its models in runs of one entity,
    /// so most lookups by entity name are skipped.
    private var lastTable: TableLayout?
    /// The columns and statement of the update written last. A migration batch or a bulk edit
    /// changes the same properties of every row of one table: each row then reuses them without
    /// gathering its changed columns into a new array and looking the statement up by it.
    private var lastUpdate: (table: TableLayout, changed: PropertyIndexSet, columnIndices: [Int], statement: RawStatement?)?
    /// Tables whose upsert SQLite refused in this save, for want of a unique index.
    private var tablesWithoutUpsert: Set<ObjectIdentifier> = []
    /// The inserted models whose new row got every to-one key in its `INSERT`: their related
    /// rows already had keys. Their keys need no second write once every new row has its key.
    private var keysWrittenOnInsert: Set<ObjectIdentifier> = []
    /// The inserted models that took over the stored row holding their unique values.
    private(set) var upserts: [ObjectIdentifier: UpsertMerge] = [:]

    private struct Statement: Hashable {
        enum Purpose: Hashable {
            case insert, upsert
            /// A delete of this many rows by key.
            case delete(keyCount: Int)
            /// An update of these columns (indices into the table's columns).
            case update([Int])
        }

        let table: ObjectIdentifier
        let purpose: Purpose
    }

    /// Whether the save is a migration's: its batch deletes report every row to the
    /// migration's tally, and it records no history.
    let isMigrating: Bool
    /// Whether the history's tables are known to exist.
    let historyTablesExist: Bool
    /// Whether this save recorded a history transaction (and so made the tables).
    private(set) var recordedHistory = false

    init(db: Database, tables: [String: TableLayout], isMigrating: Bool = false, historyTablesExist: Bool = false) {
        self.db = db
        self.tables = tables
        self.isMigrating = isMigrating
        self.historyTablesExist = historyTablesExist
        keepsNewRowIDs = tables.values.contains { !$0.relationships.isEmpty }
    }

    private mutating func table(of state: ModelState) throws -> TableLayout {
        if let lastTable, lastTable.layout === state.layout { return lastTable }
        guard let table = tables[state.layout.entityName] else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(state.layout.entityName) is not in the container's schema; add it to the models the container is created with")
        }
        lastTable = table
        return table
    }

    private func rowID(of state: ModelState) -> Int64? {
        state.rowID ?? newRowIDs[ObjectIdentifier(state)]
    }

    // MARK: Rows

    /// Deletes the rows of `states`, which come table by table, with one statement per table and
    /// 500 rows, and their rows in join tables the same way.
    mutating func delete(_ states: [ModelState]) throws {
        var next = states.startIndex
        while next < states.endIndex {
            let table = try table(of: states[next])
            var keys: [Int64] = []
            while next < states.endIndex, states[next].layout === table.layout, keys.count < 500 {
                if let rowID = states[next].rowID { keys.append(rowID) }
                next += 1
            }
            guard !keys.isEmpty else { continue }
            try statement(.delete(keyCount: keys.count), of: table).execute { statement in
                for (offset, key) in keys.enumerated() { try statement.bind(key.databaseValue, at: Int32(offset + 1)) }
            }
            for relationship in table.relationships {
                if case .joinTable(let joinTable, let ownColumn, _) = relationship.storage {
                    try db.cachedStatement(
                        sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(ownColumn.quotedDatabaseIdentifier) IN (\(TableLayout.placeholders(keys.count)))"
                    ).execute(arguments: StatementArguments(keys))
                }
            }
        }
    }

    /// Deletes every row of a table that `condition` selects (all rows for `nil`); their
    /// `.externalStorage` values go with them (`ON DELETE CASCADE`). The table must be one no
    /// relationship involves: no key or join row is touched (``CascadingDelete`` is the delete
    /// that applies delete rules). Returns the deleted rows' keys when asked.
    func deleteRows(of table: TableLayout, where condition: SQLFragment?, reportingKeys: Bool) throws -> [Int64] {
        var sql = "DELETE FROM \(table.tableName)" + (condition.map { " WHERE \($0.sqlite)" } ?? "")
        let arguments = condition?.statementArguments ?? []
        guard reportingKeys else {
            try db.execute(sql: sql, arguments: arguments)
            return []
        }
        sql += " RETURNING \(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier)"
        return try Int64.fetchAll(db, sql: sql, arguments: arguments)
    }

    mutating func insert(_ state: ModelState) throws -> Int64 {
        let table = try table(of: state)
        // `nil`: the related model has no row yet; its key is written with the relationships.
        let keys = table.foreignKeys.map { foreignKeyValue(state, $0) }
        // Values are bound one by one straight from the model, never gathered into arguments
        // per row: a bulk insert runs this for every row.
        func bindRow(_ statement: RawStatement) throws {
            for (offset, column) in table.columns.enumerated() {
                try table.bind(state, column, to: statement, at: Int32(offset + 1))
            }
            for (offset, key) in keys.enumerated() {
                try statement.bind(key ?? .null, at: Int32(table.columns.count + offset + 1))
            }
        }
        var rowID: Int64
        var merged = false
        if let upsert = try upsertStatement(of: table) {
            // An insert that met the row holding its unique values changed no row. (`RETURNING`
            // would say which row it wrote, but costs SQLite more than the insert itself.) The
            // last inserted key cannot say it: keys are counted per table, so a new row can get
            // the key another table's row just got, and is then no upsert.
            try upsert.execute(bindRow)
            rowID = upsert.lastInsertedRowID
            if upsert.changedRowCount == 0 {
                guard let stored = try existingRow(matching: state, table, keys: keys) else {
                    throw SwiftDataError.modelValidationFailure.explaining(
                        "\(table.entity.name) was upserted but no row holds its unique values; nothing was saved")
                }
                rowID = stored
                merged = true
                try merge(state, into: stored, table)
            }
        } else if let stored = try existingRow(matching: state, table, keys: keys) {
            rowID = stored
            merged = true
            try merge(state, into: stored, table)
        } else {
            let insert = try statement(.insert, of: table)
            try insert.execute(bindRow)
            rowID = insert.lastInsertedRowID
        }
        if keepsNewRowIDs { newRowIDs[ObjectIdentifier(state)] = rowID }
        if !merged, !keys.isEmpty, !keys.contains(where: { $0 == nil }) {
            keysWrittenOnInsert.insert(ObjectIdentifier(state))
        }
        try writeExternalValues(state, table, rowID: rowID) { !merged || state.setsOnUpsert($0.propertyIndex) }
        return rowID
    }

    /// Writes an inserted model over the stored row holding its unique values: the attributes
    /// it sets that differ, and its class; its relationships follow with everyone's
    /// (``writeRelationships(of:onlyChanged:)``).
    private mutating func merge(_ state: ModelState, into rowID: Int64, _ table: TableLayout) throws {
        let names = UpsertMerge.storedColumnNames(of: table).map { "\(table.tableName).\($0.quotedDatabaseIdentifier)" }
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(names.joined(separator: ", ")) FROM \(table.tableName) WHERE \(table.qualifiedKeyColumn) = ?"),
            arguments: [rowID])
        let stored = row.map { row in row.databaseValues.map(StoredValue.init) } ?? []
        let merge = try UpsertMerge(state, table, rowID: rowID, stored: stored, rowIDOf: self.rowID(of:))
        if !merge.changedColumns.isEmpty {
            try updateRow(rowID, of: state, table, columnIndices: merge.changedColumns, with: statement(.update(merge.changedColumns), of: table))
        }
        if merge.changesClass, let sql = table.setClassSQL {
            try db.execute(sql: sql, arguments: [rowID])
        }
        upserts[ObjectIdentifier(state)] = merge
    }

    /// The row that already holds the values of one of the entity's uniqueness constraints,
    /// which an insert then updates instead, as SwiftData's upserts do.
    /// A constraint over a relationship whose model is new too matches no stored row.
    private func existingRow(matching state: ModelState, _ table: TableLayout, keys: [DatabaseValue?]) throws -> Int64? {
        constraints: for constraint in table.entity.uniquenessConstraintsWithInherited {
            var lookup: [DatabaseValue] = []
            for name in constraint {
                if let index = table.columnIndexByName[name] {
                    lookup.append(try table.encode(state, table.columns[index]))
                } else if let index = table.foreignKeys.firstIndex(where: { $0.name == name }) {
                    guard let key = keys[index] else { continue constraints }
                    lookup.append(key)
                } else {
                    lookup.append(.null)
                }
            }
            if let existing = try Int64.fetchOne(
                db.cachedStatement(sql: table.uniqueLookupSQL(constraint: constraint)), arguments: StatementArguments(lookup))
            {
                return existing
            }
        }
        return nil
    }

    /// The table's upsert (``TableLayout/upsertSQL``), or `nil` when it has none or the store
    /// has no unique index for it yet: a migration's custom stage creates the index over
    /// attributes it fills only after the stage, and SQLite refuses an upsert without one.
    private mutating func upsertStatement(of table: TableLayout) throws -> RawStatement? {
        guard table.upsertSQL != nil, !tablesWithoutUpsert.contains(ObjectIdentifier(table)) else { return nil }
        do {
            return try statement(.upsert, of: table)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_ERROR && error.message?.contains("ON CONFLICT clause does not match") == true
        {
            tablesWithoutUpsert.insert(ObjectIdentifier(table))
            return nil
        }
    }

    /// The table's statement for `purpose`, prepared on first use in this save.
    private mutating func statement(_ purpose: Statement.Purpose, of table: TableLayout) throws -> RawStatement {
        let key = Statement(table: ObjectIdentifier(table), purpose: purpose)
        if let prepared = statements[key] { return prepared }
        let sql = switch purpose {
        case .insert: table.insertSQL
        // Asked for only when the table has one (``upsertStatement(of:)``).
        case .upsert: table.upsertSQL!
        case .delete(let keyCount): table.deleteSQL(keyCount: keyCount)
        case .update(let columnIndices): table.updateSQL(columnIndices: columnIndices)
        }
        // A delete's text has one parameter per key, so its length varies.
        let reusable = if case .delete = purpose { false } else { true }
        let prepared = try RawStatement(sql: sql, in: db, reusable: reusable)
        statements[key] = prepared
        return prepared
    }

    mutating func update(_ state: ModelState) throws {
        guard let rowID = state.rowID else { return }
        let table = try table(of: state)
        let (columnIndices, statement) = try updateStatement(of: table, changed: state.changedProperties)
        if let statement {
            try updateRow(rowID, of: state, table, columnIndices: columnIndices, with: statement)
        }
        try writeExternalValues(state, table, rowID: rowID) { state.changedProperties.contains($0.propertyIndex) }
    }

    /// Writes the model's values of these columns to its row with `statement`, the table's
    /// update of them.
    private func updateRow(
        _ rowID: Int64, of state: ModelState, _ table: TableLayout, columnIndices: [Int], with statement: RawStatement
    ) throws {
        try statement.execute { statement in
            for (offset, index) in columnIndices.enumerated() {
                try table.bind(state, table.columns[index], to: statement, at: Int32(offset + 1))
            }
            try statement.bind(rowID.databaseValue, at: Int32(columnIndices.count + 1))
        }
    }

    /// The table's columns holding `changed` properties and the statement updating them (`nil`
    /// when no column changed), prepared once per save for each set of columns: saving a
    /// migration's batch or a bulk edit updates thousands of rows that changed the same properties.
    private mutating func updateStatement(
        of table: TableLayout, changed: PropertyIndexSet
    ) throws -> (columnIndices: [Int], statement: RawStatement?) {
        if let lastUpdate, lastUpdate.table === table, lastUpdate.changed == changed {
            return (lastUpdate.columnIndices, lastUpdate.statement)
        }
        let columnIndices = table.columns.indices.filter { changed.contains(table.columns[$0].propertyIndex) }
        let statement = columnIndices.isEmpty ? nil : try statement(.update(columnIndices), of: table)
        lastUpdate = (table, changed, columnIndices, statement)
        return (columnIndices, statement)
    }

    private func writeExternalValues(
        _ state: ModelState, _ table: TableLayout, rowID: Int64, where include: (TableLayout.Column) -> Bool
    ) throws {
        for column in table.externalColumns where include(column) {
            let value = try table.encode(state, column)
            try db.cachedStatement(sql: table.writeExternalValueSQL(column)).execute(arguments: [rowID, value])
        }
    }

    // MARK: Relationships

    /// The key a to-one relationship stores: the related row's, `NULL` when it holds nothing,
    /// or `nil` when the related model has no row yet.
    private func foreignKeyValue(_ state: ModelState, _ foreignKey: StoredRelationship) -> DatabaseValue? {
        state.foreignKey(foreignKey, rowID: rowID(of:)).map { $0?.databaseValue ?? .null }
    }

    /// Deletes the stored links of the to-many relationships an inserted model sets over the
    /// stored row it took over through a unique constraint: their join rows, and the keys other
    /// rows hold to it that its value does not. Run for every such model before any
    /// relationship is written, so that a side whose value does not hold the other (one
    /// declared with another version's class, which cannot hold this container's models) never
    /// deletes the join row the other side wrote.
    mutating func clearLinks(ofUpserted state: ModelState) throws {
        guard let merge = upserts[ObjectIdentifier(state)] else { return }
        for relationship in try table(of: state).relationships
        where state.setsOnUpsert(relationship.propertyIndex) && state.holdsLoadedValue(of: relationship) {
            switch relationship.storage {
            case .joinTable(let joinTable, let ownColumn, _):
                try db.cachedStatement(sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(ownColumn.quotedDatabaseIdentifier) = ?")
                    .execute(arguments: [merge.rowID])
            case .inverseForeignKey(let column):
                guard let destination = tables[relationship.destination] else { continue }
                let kept = state.relatedRowIDs(relationship, rowID: rowID(of:))
                try db.execute(
                    sql: "UPDATE \(destination.tableName) SET \(column.quotedDatabaseIdentifier) = NULL WHERE \(column.quotedDatabaseIdentifier) = ? AND \(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier) NOT IN (\(TableLayout.placeholders(kept.count)))",
                    arguments: StatementArguments([merge.rowID] + kept))
            case .foreignKey:
                break
            }
        }
    }

    /// Writes the to-one keys and join rows of a model; for an updated model only those of
    /// relationships it changed, for one that took over a stored row only those it sets, whose
    /// stored links were cleared first (``clearLinks(ofUpserted:)``).
    mutating func writeRelationships(of state: ModelState, onlyChanged: Bool) throws {
        guard !state.layout.relationshipIndices.isEmpty, let rowID = rowID(of: state) else { return }
        let table = try table(of: state)
        let overStoredRow = !onlyChanged && !upserts.isEmpty && upserts[ObjectIdentifier(state)] != nil
        for relationship in state.relationshipsToWrite(in: table, onlyChanged: onlyChanged, overStoredRow: overStoredRow) {
            switch relationship.storage {
            case .foreignKey(let column):
                if !onlyChanged, keysWrittenOnInsert.contains(ObjectIdentifier(state)) { continue }
                let key = foreignKeyValue(state, relationship) ?? .null
                try db.cachedStatement(
                    sql: "UPDATE \(table.tableName) SET \(column.quotedDatabaseIdentifier) = ? WHERE \(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier) = ?"
                ).execute(arguments: [key, rowID])
            case .inverseForeignKey:
                break
            case .joinTable(let joinTable, let ownColumn, let otherColumn):
                let quotedTable = joinTable.quotedDatabaseIdentifier
                if onlyChanged {
                    try db.cachedStatement(sql: "DELETE FROM \(quotedTable) WHERE \(ownColumn.quotedDatabaseIdentifier) = ?")
                        .execute(arguments: [rowID])
                }
                let insert = try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO \(quotedTable) (\(ownColumn.quotedDatabaseIdentifier), \(otherColumn.quotedDatabaseIdentifier)) VALUES (?, ?)")
                for relatedRowID in state.relatedRowIDs(relationship, rowID: self.rowID(of:)) {
                    try insert.execute(arguments: [rowID, relatedRowID])
                }
            }
        }
    }
}

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
