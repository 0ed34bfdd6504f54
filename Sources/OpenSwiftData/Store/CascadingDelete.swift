import GRDB

/// A batch delete of rows that relationships involve, with the delete rules applied in SQL:
/// no model is loaded, whatever the number of rows.
///
/// It leaves the rows as deleting each model and saving would:
/// - what a `.cascade` relationship of a deleted row holds is deleted too, and so on down;
/// - a `.deny` relationship that still holds a row that is not deleted refuses the delete;
/// - a key column that points at a deleted row is set to `NULL`, unless the relationship on the
///   deleted side is `.noAction` (which leaves it, as the model-by-model delete does); a
///   non-optional one refuses the delete instead, as saving such a model would;
/// - join rows of deleted rows go.
///
/// The keys of each entity's deleted rows are gathered first in a temporary table (one per
/// entity), so each rule is one statement over the whole set. It runs inside the save's
/// transaction: when a rule refuses, nothing is written.
struct CascadingDelete {
    let db: Database
    let tables: [String: TableLayout]
    /// The temporary key table of each entity that has rows to delete, quoted, by entity name.
    private var doomed: [String: String] = [:]

    init(db: Database, tables: [String: TableLayout]) {
        self.db = db
        self.tables = tables
    }

    /// Deletes the rows of `table` that `condition` selects (all of them for `nil`) and what
    /// their delete rules reach; returns the deleted rows' keys by entity when asked.
    mutating func run(from table: TableLayout, where condition: SQLFragment?, reportingKeys: Bool) throws -> [String: [Int64]] {
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        let selected = "SELECT \(key) FROM \(table.tableName)" + (condition.map { " WHERE \($0.sql)" } ?? "")
        guard try mark(table.entity.name, selected, arguments: condition?.statementArguments ?? []) else { return [:] }
        try cascade(from: table.entity.name)
        try checkDenyRules()
        try clearReferences()
        var keys: [String: [Int64]] = [:]
        for (entity, keyTable) in doomed.sorted(by: { $0.key < $1.key }) {
            let table = tables[entity]!
            if reportingKeys {
                keys[entity] = try Int64.fetchAll(db, sql: "SELECT \"key\" FROM \(keyTable)")
            }
            try db.execute(sql: "DELETE FROM \(table.tableName) WHERE \(key) IN (SELECT \"key\" FROM \(keyTable))")
            try db.execute(sql: "DROP TABLE \(keyTable)")
        }
        doomed = [:]
        return keys
    }

    /// Adds the keys `select` returns to the entity's deleted rows; whether any was new.
    private mutating func mark(_ entity: String, _ select: String, arguments: StatementArguments = []) throws -> Bool {
        let keyTable = try keyTable(of: entity)
        try db.execute(sql: "INSERT OR IGNORE INTO \(keyTable) (\"key\") \(select)", arguments: arguments)
        return db.changesCount > 0
    }

    private mutating func keyTable(of entity: String) throws -> String {
        if let keyTable = doomed[entity] { return keyTable }
        let keyTable = "temp.\("_osd_deleted_\(entity)".quotedDatabaseIdentifier)"
        try db.execute(sql: "CREATE TEMP TABLE \("_osd_deleted_\(entity)".quotedDatabaseIdentifier) (\"key\" INTEGER PRIMARY KEY)")
        doomed[entity] = keyTable
        return keyTable
    }

    /// Marks what `.cascade` relationships hold, entity by entity, until no new row is reached
    /// (relationships may lead back to an entity already visited).
    private mutating func cascade(from entity: String) throws {
        var pending = [entity]
        while let entity = pending.popLast() {
            for relationship in tables[entity]!.relationships where relationship.relationship.deleteRule == .cascade {
                let reached = try mark(relationship.destination, heldKeys(relationship, of: entity))
                if reached, !pending.contains(relationship.destination) { pending.append(relationship.destination) }
            }
        }
    }

    /// Refuses while a `.deny` relationship of a deleted row holds a row that is not deleted.
    private func checkDenyRules() throws {
        for (entity, _) in doomed.sorted(by: { $0.key < $1.key }) {
            for relationship in tables[entity]!.relationships where relationship.relationship.deleteRule == .deny {
                var sql = "SELECT COUNT(*) FROM (\(heldKeys(relationship, of: entity))) AS \"held\""
                if let kept = doomed[relationship.destination] {
                    sql += " WHERE \"held\".\"key\" NOT IN (SELECT \"key\" FROM \(kept))"
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
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        for table in tables.values.sorted(by: { $0.entity.name < $1.entity.name }) {
            for relationship in table.relationships {
                switch relationship.storage {
                case .foreignKey(let column):
                    guard let target = doomed[relationship.destination], !isNoAction(inverseOf: relationship) else { continue }
                    var condition = "\(column.quotedDatabaseIdentifier) IN (SELECT \"key\" FROM \(target))"
                    if let own = doomed[table.entity.name] { condition += " AND \(key) NOT IN (SELECT \"key\" FROM \(own))" }
                    if !relationship.relationship.isOptional {
                        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.tableName) WHERE \(condition)") ?? 0
                        guard count == 0 else {
                            throw SwiftDataError.modelValidationFailure.explaining(
                                "\(relationship.destination) rows cannot be deleted: \(count) \(table.entity.name) row\(count == 1 ? "" : "s") that stay hold them in \(table.entity.name).\(relationship.name), which is not optional; give \(relationship.destination)'s side the .cascade delete rule, reassign them first, or make \(table.entity.name).\(relationship.name) optional. Nothing was saved")
                        }
                    }
                    try db.execute(sql: "UPDATE \(table.tableName) SET \(column.quotedDatabaseIdentifier) = NULL WHERE \(condition)")
                case .joinTable(let joinTable, let ownColumn, let otherColumn):
                    for (column, entity) in [(ownColumn, table.entity.name), (otherColumn, relationship.destination)] {
                        guard let keys = doomed[entity] else { continue }
                        try db.execute(sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) IN (SELECT \"key\" FROM \(keys))")
                    }
                case .inverseForeignKey:
                    continue
                }
            }
        }
    }

    /// Whether the relationship's inverse, on the side of the rows that go, has the `.noAction`
    /// rule: a model-by-model delete leaves such keys as they are.
    private func isNoAction(inverseOf relationship: StoredRelationship) -> Bool {
        guard let inverseName = relationship.relationship.inverseName,
              let inverse = tables[relationship.destination]?.relationships.first(where: { $0.name == inverseName })
        else { return false }
        return inverse.relationship.deleteRule == .noAction
    }

    /// A `SELECT` of the keys of the rows the relationship holds for the entity's deleted rows,
    /// as a column named `key`.
    private func heldKeys(_ relationship: StoredRelationship, of entity: String) -> String {
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        let owners = "(SELECT \"key\" FROM \(doomed[entity]!))"
        switch relationship.storage {
        case .foreignKey(let column):
            let column = column.quotedDatabaseIdentifier
            return "SELECT \(column) AS \"key\" FROM \(tables[entity]!.tableName) WHERE \(key) IN \(owners) AND \(column) IS NOT NULL"
        case .inverseForeignKey(let column):
            return "SELECT \(key) AS \"key\" FROM \(tables[relationship.destination]!.tableName) WHERE \(column.quotedDatabaseIdentifier) IN \(owners)"
        case .joinTable(let joinTable, let ownColumn, let otherColumn):
            return "SELECT \(otherColumn.quotedDatabaseIdentifier) AS \"key\" FROM \(joinTable.quotedDatabaseIdentifier) WHERE \(ownColumn.quotedDatabaseIdentifier) IN \(owners)"
        }
    }
}
