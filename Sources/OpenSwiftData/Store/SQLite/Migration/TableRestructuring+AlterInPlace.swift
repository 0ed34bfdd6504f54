import Foundation
import GRDB

// Changing a table where it stands, when SQLite can: columns added, renamed or dropped.
extension TableRestructuring {
    /// Changes the table with `ALTER TABLE` when every change is one SQLite makes without
    /// copying rows: columns added (optional, or with a default), renamed or dropped, and indices
    /// added or dropped. Returns `false`, having changed nothing, when a rebuild is needed.
    /// Before a custom stage, only additions are made in place: the stage's old models read
    /// the old columns, so none may be renamed or dropped until it has run.
    mutating func alterInPlace(_ table: TableLayout, from previous: Schema.Entity, _ db: Database) throws -> Bool {
        let entity = table.entity
        let quotedName = entity.name.quotedDatabaseIdentifier
        var statements: [(String, StatementArguments)] = []
        var keptOldColumns: Set<String> = []
        var renamed: [String] = []
        var renamedTo: [String] = []
        guard previous.attributesInOrder.allSatisfy({ !$0.options.contains(.externalStorage) }),
              table.externalColumns.isEmpty
        else { return false }
        for column in table.columns {
            guard let attribute = entity.attributesByName[column.name] else { return false }
            let oldAttribute = previous.attribute(continuedBy: attribute)
            if let oldAttribute {
                guard oldAttribute.isOptional == attribute.isOptional else { return false }
                keptOldColumns.insert(oldAttribute.name)
                if oldAttribute.name != attribute.name {
                    renamed.append(oldAttribute.name)
                    renamedTo.append(attribute.name)
                    statements.append(("ALTER TABLE \(quotedName) RENAME COLUMN \(oldAttribute.name.quotedDatabaseIdentifier) TO \(attribute.name.quotedDatabaseIdentifier)", []))
                }
                continue
            }
            let type = column.codec.storage.sqlType
            if attribute.isOptional {
                statements.append(("ALTER TABLE \(quotedName) ADD COLUMN \(attribute.name.quotedDatabaseIdentifier) \(type)", []))
            } else {
                guard let value = fillValue(of: attribute, codec: column.codec), let literal = Self.sqlLiteral(value) else {
                    return false
                }
                statements.append(("ALTER TABLE \(quotedName) ADD COLUMN \(attribute.name.quotedDatabaseIdentifier) \(type) NOT NULL DEFAULT \(literal)", []))
            }
        }
        for foreignKey in table.foreignKeys {
            let oldName = previous.relationship(continuedBy: foreignKey.relationship).flatMap { $0.isToOne ? $0.name : nil }
            if let oldName {
                keptOldColumns.insert(oldName)
                if oldName != foreignKey.name {
                    renamed.append(oldName)
                    renamedTo.append(foreignKey.name)
                    statements.append(("ALTER TABLE \(quotedName) RENAME COLUMN \(oldName.quotedDatabaseIdentifier) TO \(foreignKey.name.quotedDatabaseIdentifier)", []))
                }
            } else {
                statements.append(("ALTER TABLE \(quotedName) ADD COLUMN \(foreignKey.name.quotedDatabaseIdentifier) INTEGER", []))
            }
        }
        let oldColumns = previous.attributesInOrder.map(\.name) + previous.relationshipsInOrder.filter(\.isToOne).map(\.name)
        let dropped = oldColumns.filter { !keptOldColumns.contains($0) }
        // SQLite renames one column at a time, so a new name an old column still holds (one
        // that is dropped, or renamed itself, as in a swap) needs the rebuild.
        guard Set(renamedTo).isDisjoint(with: oldColumns) else { return false }
        guard !preparesForCustomStage || (dropped.isEmpty && renamed.isEmpty) else { return false }
        // An index stays when the new schema declares it under the same name and none of its
        // columns is renamed or dropped: rebuilding a unique index over a million rows would
        // cost more than the rest of the migration. The others go first, since names follow
        // columns and a dropped column may not be in an index.
        let touched = Set(dropped + renamed)
        let declared = Set(table.definition.indices.map(\.name))
        let existingIndices = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [entity.name])
        for index in existingIndices {
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index])
            if declared.contains(index), touched.isDisjoint(with: columns) { continue }
            try execute("DROP INDEX \(index.quotedDatabaseIdentifier)", db)
        }
        for (sql, arguments) in statements {
            try execute(sql, db, arguments: arguments)
        }
        for column in dropped {
            try execute("ALTER TABLE \(quotedName) DROP COLUMN \(column.quotedDatabaseIdentifier)", db)
        }
        try createIndices(table.creationSQL.dropFirst(), of: table, from: previous, db)
        return true
    }

    /// A constant as SQL text, for a column's `DEFAULT` clause.
    static func sqlLiteral(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: "NULL"
        case .int64(let int): String(int)
        case .double(let double): double.isFinite ? "\(double)" : nil
        case .string(let string): "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
