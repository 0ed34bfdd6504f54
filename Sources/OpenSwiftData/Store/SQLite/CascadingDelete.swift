import GRDB

/// A batch delete of rows that relationships involve, with the delete rules applied in SQL:
/// no model is loaded, whatever the number of rows.
///
/// The invariant: it leaves the rows exactly as deleting each model and saving would (the
/// rules, rule by rule, are in the DocC article Internals, "Deleting in SQL"). It runs inside
/// the save's transaction, so when a rule refuses, nothing is written.
struct CascadingDelete {
    /// The rows of one entity to delete.
    private enum Rows {
        /// Every row of the table.
        case all
        /// The rows whose keys this temporary table holds (its name quoted).
        case keys(in: String)
    }

    let db: Database
    let tables: [String: TableLayout]
    private var doomed: [String: Rows] = [:]
    private static let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier

    init(db: Database, tables: [String: TableLayout]) {
        self.db = db
        self.tables = tables
    }

    /// Deletes the rows of `table` that `condition` selects (all of them for `nil`) and what
    /// their delete rules reach; returns, with `reportingKeys`, the keys of the deleted rows by
    /// entity (for the store's history).
    @discardableResult
    mutating func run(from table: TableLayout, where condition: SQLFragment?, reportingKeys: Bool = false) throws -> [(entity: String, rows: [Int64])] {
        if let condition {
            let selected = "SELECT \(Self.key) FROM \(table.tableName) WHERE \(condition.sqlite)"
            guard try mark(table.entity.name, selected, arguments: condition.statementArguments) else { return [] }
        } else {
            try markAll(table.entity.name)
        }
        try cascade(from: table.entity.name)
        try checkDenyRules()
        try clearReferences()
        var deleted: [(entity: String, rows: [Int64])] = []
        let returning = reportingKeys ? " RETURNING \(Self.key)" : ""
        for (entity, rows) in doomed.sorted(by: { $0.key < $1.key }) {
            let table = tables[entity]!
            let sql: String
            switch rows {
            case .all: sql = "DELETE FROM \(table.tableName)"
            case .keys: sql = "DELETE FROM \(table.tableName) WHERE \(Self.key) IN (\(keysSQL(entity)))"
            }
            let keys = try Int64.fetchAll(db, sql: sql + returning)
            if reportingKeys { deleted.append((entity, keys.sorted())) }
            if case .keys(let keyTable) = rows { try db.execute(sql: "DROP TABLE \(keyTable)") }
        }
        return deleted
    }

    /// A `SELECT` of the keys of the entity's rows to delete.
    private func keysSQL(_ entity: String) -> String {
        switch doomed[entity]! {
        case .all: "SELECT \(Self.key) FROM \(tables[entity]!.tableName)"
        case .keys(let keyTable): "SELECT \"key\" FROM \(keyTable)"
        }
    }

    private func isAll(_ entity: String) -> Bool {
        if case .all? = doomed[entity] { return true }
        return false
    }

    /// Adds the keys `select` returns to the entity's rows to delete; whether any was new.
    private mutating func mark(_ entity: String, _ select: String, arguments: StatementArguments = []) throws -> Bool {
        guard !isAll(entity) else { return false }
        let keyTable = try keyTable(of: entity)
        try db.execute(sql: "INSERT OR IGNORE INTO \(keyTable) (\"key\") \(select)", arguments: arguments)
        return db.changesCount > 0
    }

    /// Marks every row of the entity; whether that is more than before.
    @discardableResult
    private mutating func markAll(_ entity: String) throws -> Bool {
        switch doomed[entity] {
        case .all?: return false
        case .keys(let keyTable)?: try db.execute(sql: "DROP TABLE \(keyTable)")
        case nil: break
        }
        doomed[entity] = .all
        return true
    }

    private mutating func keyTable(of entity: String) throws -> String {
        if case .keys(let keyTable)? = doomed[entity] { return keyTable }
        let name = "_osd_deleted_\(entity)".quotedDatabaseIdentifier
        try db.execute(sql: "CREATE TEMP TABLE \(name) (\"key\" INTEGER PRIMARY KEY)")
        doomed[entity] = .keys(in: "temp.\(name)")
        return "temp.\(name)"
    }

    /// Marks what `.cascade` relationships hold, entity by entity, until no new row is reached
    /// (relationships may lead back to an entity already visited).
    private mutating func cascade(from entity: String) throws {
        var pending = [entity]
        while let entity = pending.popLast() {
            for relationship in tables[entity]!.relationships where relationship.relationship.deleteRule == .cascade {
                let destination = relationship.destination
                let reached = try holdsEveryRow(relationship, of: entity)
                    ? try markAll(destination) : try mark(destination, heldKeys(relationship, of: entity))
                if reached, !pending.contains(destination) { pending.append(destination) }
            }
        }
    }

    /// Whether the relationship holds every row of its destination for the entity's rows to
    /// delete: they are all of the entity's rows, and every destination row has one of them in
    /// its key column (none has `NULL`, or a key left pointing at a row that is gone).
    private func holdsEveryRow(_ relationship: StoredRelationship, of entity: String) throws -> Bool {
        guard isAll(entity), case .inverseForeignKey(let name) = relationship.storage else { return false }
        let destination = tables[relationship.destination]!.tableName, column = name.quotedDatabaseIdentifier
        let unheld = "SELECT 1 FROM \(destination) WHERE \(column) IS NULL OR \(column) NOT IN (\(keysSQL(entity)))"
        return try !(Bool.fetchOne(db, sql: "SELECT EXISTS (\(unheld))") ?? true)
    }

    /// Refuses while a `.deny` relationship of a deleted row holds a row that is not deleted.
    private func checkDenyRules() throws {
        for entity in doomed.keys.sorted() {
            for relationship in tables[entity]!.relationships where relationship.relationship.deleteRule == .deny {
                guard !isAll(relationship.destination) else { continue }
                var sql = "SELECT COUNT(*) FROM (\(heldKeys(relationship, of: entity))) AS \"held\""
                if doomed[relationship.destination] != nil {
                    sql += " WHERE \"held\".\"key\" NOT IN (\(keysSQL(relationship.destination)))"
                }
                let count = try Int.fetchOne(db, sql: sql) ?? 0
                guard count == 0 else {
                    throw SwiftDataError.modelValidationFailure.explaining(
                        "\(entity) rows cannot be deleted: their relationship \(relationship.name) has the .deny delete rule and still holds \(count) \(relationship.destination) row\(count == 1 ? "" : "s") that are not deleted; delete or reassign them first. Nothing was saved")
                }
            }
        }
    }

    /// Sets to `NULL` the key columns that point at deleted rows from rows that stay, and
    /// deletes the join rows of deleted rows.
    private func clearReferences() throws {
        for table in tables.values.sorted(by: { $0.entity.name < $1.entity.name }) {
            for relationship in table.relationships {
                switch relationship.storage {
                case .foreignKey(let column):
                    guard doomed[relationship.destination] != nil, !isAll(table.entity.name),
                          inverseRuleClearsKeys(of: relationship)
                    else { continue }
                    var condition = "\(column.quotedDatabaseIdentifier) IN (\(keysSQL(relationship.destination)))"
                    if doomed[table.entity.name] != nil { condition += " AND \(Self.key) NOT IN (\(keysSQL(table.entity.name)))" }
                    if !relationship.relationship.isOptional {
                        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.tableName) WHERE \(condition)") ?? 0
                        guard count == 0 else {
                            throw SwiftDataError.modelValidationFailure.explaining(
                                "\(relationship.destination) rows cannot be deleted: \(count) \(table.entity.name) row\(count == 1 ? "" : "s") that stay hold them in \(table.entity.name).\(relationship.name), which is not optional; give \(relationship.destination)'s side the .cascade delete rule, reassign them first, or make \(table.entity.name).\(relationship.name) optional. Nothing was saved")
                        }
                    }
                    try db.execute(sql: "UPDATE \(table.tableName) SET \(column.quotedDatabaseIdentifier) = NULL WHERE \(condition)")
                case .joinTable(let joinTable, let ownColumn, let otherColumn):
                    for (column, entity) in [(ownColumn, table.entity.name), (otherColumn, relationship.destination)] where doomed[entity] != nil {
                        try db.execute(sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) IN (\(keysSQL(entity)))")
                    }
                case .inverseForeignKey:
                    continue
                }
            }
        }
    }

    /// Whether keys of the relationship can point at deleted rows from rows that stay, and are
    /// to be cleared: its inverse, on the side of the rows that go, is `.nullify`, or there is
    /// none. A `.cascade` inverse deleted every row that points at them, a `.deny` one refused
    /// while any did, and a `.noAction` one leaves the keys as a model-by-model delete does.
    private func inverseRuleClearsKeys(of relationship: StoredRelationship) -> Bool {
        guard let inverseName = relationship.relationship.inverseName,
              let inverse = tables[relationship.destination]?.relationships.first(where: { $0.name == inverseName })
        else { return true }
        return inverse.relationship.deleteRule == .nullify
    }

    /// A `SELECT` of the keys of the rows the relationship holds for the entity's rows to
    /// delete, as a column named `key`.
    private func heldKeys(_ relationship: StoredRelationship, of entity: String) -> String {
        let owners = "(\(keysSQL(entity)))"
        switch relationship.storage {
        case .foreignKey(let column):
            let column = column.quotedDatabaseIdentifier
            return "SELECT \(column) AS \"key\" FROM \(tables[entity]!.tableName) WHERE \(Self.key) IN \(owners) AND \(column) IS NOT NULL"
        case .inverseForeignKey(let column):
            return "SELECT \(Self.key) AS \"key\" FROM \(tables[relationship.destination]!.tableName) WHERE \(column.quotedDatabaseIdentifier) IN \(owners)"
        case .joinTable(let joinTable, let ownColumn, let otherColumn):
            return "SELECT \(otherColumn.quotedDatabaseIdentifier) AS \"key\" FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(ownColumn.quotedDatabaseIdentifier) IN \(owners)"
        }
    }
}
