import Foundation
import GRDB

// Rebuilding a table SQLite cannot change in place: a new table, every row copied into it.
extension TableRestructuring {
    /// Copies the entity's rows into a table of the new layout and puts it in place.
    mutating func rebuild(_ table: TableLayout, from previous: Schema.Entity, _ db: Database) throws {
        let entity = table.entity
        let quotedName = entity.name.quotedDatabaseIdentifier
        let temporary = "_osd_new_\(entity.name)".quotedDatabaseIdentifier
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        var targets = [key]
        var expressions = [key]
        var arguments = StatementArguments()
        for column in table.columns {
            guard let attribute = entity.attributesByName[column.name],
                  let source = source(of: attribute, codec: column.codec, in: previous)
            else { continue }
            targets.append(column.name.quotedDatabaseIdentifier)
            switch source {
            case .column(let name):
                expressions.append(oldValue(name, of: previous))
            case .value(let value):
                expressions.append("?")
                arguments += [value]
            case .columnOr(let name, let value):
                expressions.append("COALESCE(\(oldValue(name, of: previous)), ?)")
                arguments += [value]
            case .null:
                expressions.append("NULL")
            }
        }
        for foreignKey in table.foreignKeys {
            let oldName = previous.relationship(continuedBy: foreignKey.relationship).flatMap { $0.isToOne ? $0.name : nil }
            targets.append(foreignKey.name.quotedDatabaseIdentifier)
            expressions.append(oldName?.quotedDatabaseIdentifier ?? "NULL")
        }
        let creation = table.creationSQL
        let createTable = creation[0].replacingOccurrences(of: "CREATE TABLE \(quotedName)", with: "CREATE TABLE \(temporary)")
        try execute(createTable, db)
        try execute(
            "INSERT INTO \(temporary) (\(targets.joined(separator: ", "))) SELECT \(expressions.joined(separator: ", ")) FROM \(quotedName)",
            db, arguments: arguments)
        // Attributes kept outside the table: filled from the old column or the old side table
        // while the old table is still there.
        var keptSideTables: Set<String> = []
        for column in table.externalColumns {
            guard let attribute = entity.attributesByName[column.name],
                  let old = previous.attribute(continuedBy: attribute)
            else { continue }
            let side = table.externalTableName(column)
            let oldSide = TableLayout.externalTableName(entity: entity.name, attribute: old.name)
            keptSideTables.insert(side)
            if old.options.contains(.externalStorage), oldSide == side { continue }
            try execute(table.externalTableSQL(column), db)
            let source = old.options.contains(.externalStorage)
                ? "SELECT \(key), \"value\" FROM \(oldSide)"
                : "SELECT \(key), \(old.name.quotedDatabaseIdentifier) FROM \(quotedName) WHERE \(old.name.quotedDatabaseIdentifier) IS NOT NULL"
            try execute("INSERT INTO \(side) (\(key), \"value\") \(source)", db)
        }
        // Keep the highest key ever used, so a deleted row's key is not given out again.
        try execute("DELETE FROM sqlite_sequence WHERE name = ?", db, arguments: ["_osd_new_\(entity.name)"])
        try execute(
            "INSERT INTO sqlite_sequence (name, seq) SELECT ?, seq FROM sqlite_sequence WHERE name = ?", db,
            arguments: ["_osd_new_\(entity.name)", entity.name])
        if preparesForCustomStage {
            let retained = "_osd_old_\(entity.name)"
            let indices = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [entity.name])
            for index in indices { try execute("DROP INDEX \(index.quotedDatabaseIdentifier)", db) }
            try execute("ALTER TABLE \(quotedName) RENAME TO \(retained.quotedDatabaseIdentifier)", db)
            retainedTables[entity.name] = retained
        } else {
            try execute("DROP TABLE \(quotedName)", db)
        }
        try execute("ALTER TABLE \(temporary) RENAME TO \(quotedName)", db)
        try createIndices(creation.dropFirst(), of: table, from: previous, db)
        for attribute in previous.attributesInOrder where attribute.options.contains(.externalStorage) {
            let oldSide = TableLayout.externalTableName(entity: entity.name, attribute: attribute.name)
            if !keptSideTables.contains(oldSide) {
                try execute("DROP TABLE IF EXISTS \(oldSide)", db)
            }
        }
    }

    /// How the rebuild reads an old attribute: its column, or its side table when it was kept
    /// outside the table.
    func oldValue(_ name: String, of previous: Schema.Entity) -> String {
        guard previous.attributesByName[name]?.options.contains(.externalStorage) == true else {
            return name.quotedDatabaseIdentifier
        }
        let side = TableLayout.externalTableName(entity: previous.name, attribute: name)
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        return "(SELECT \"value\" FROM \(side) WHERE \(side).\(key) = \(previous.name.quotedDatabaseIdentifier).\(key))"
    }
}
