import Foundation
import GRDB

/// Changes the tables of a store from one schema's structure to another's, inside the caller's
/// transaction: the lightweight part of a migration.
///
/// Entities are matched by name, attributes and relationships by name or by the new property's
/// `originalName`. A new entity gets its table; a removed one loses it. A changed entity's table
/// is altered in place when SQLite can (columns added, renamed or dropped; indices of untouched
/// columns kept), and rebuilt otherwise: a new table is created, every row copied into it
/// (renamed columns from their old names, added columns from their declared default or `NULL`,
/// `.externalStorage` values to or from their side tables), the old table dropped and the new one
/// renamed, and its indices created again. Before anything is written, every change that
/// would lose or invent data is collected and refused together, each named with its entity and
/// property and the way to make it work.
struct TableRestructuring {
    let old: [Schema.Entity]
    let new: Schema
    /// Whether a custom stage's `didMigrate` runs after: new non-optional attributes that have no
    /// default then start with their type's empty value (0, "", false, empty data, the reference
    /// date) for the stage to fill. A table that only gains columns is altered in place, so its
    /// old columns are still there to read; any other changed table is rebuilt keeping its old
    /// rows, renamed `_osd_old_<Entity>`, until ``finishCustomStage(in:)``. Either way the
    /// stage's old models read each row as it was: how a typed transform works. Unique indices
    /// over the new columns wait until the stage has given each row its value.
    let preparesForCustomStage: Bool
    let fromName: String
    let toName: String
    /// Whether entities the new schema lacks may be dropped with their rows: only when a
    /// migration plan declares the versions. Without one, a store whose stored entities are
    /// missing from the models is more likely the wrong store than a wish to delete data.
    let dropsRemovedEntities: Bool
    /// The old tables kept, by entity name.
    private(set) var retainedTables: [String: String] = [:]
    /// New non-optional attributes with no default whose type has no empty value (a `Codable`
    /// value, an enum, a URL): existing rows hold ``unfilledMarker`` in them until the custom
    /// stage gives each its value, and none may still hold it afterwards.
    private var columnsAwaitingValues: [(entity: String, column: String)] = []
    /// Unique indices over new columns that every existing row holds one value in until the
    /// custom stage fills them, created once it has: by entity, the constraint and its SQL.
    private var deferredUniqueIndices: [(entity: String, constraint: [String], sql: String)] = []

    /// The SQL run, for the migration's report.
    private(set) var executedSQL: [String] = []

    init(
        from old: [Schema.Entity], to new: Schema, preparesForCustomStage: Bool, dropsRemovedEntities: Bool,
        fromName: String, toName: String
    ) {
        self.old = old
        self.dropsRemovedEntities = dropsRemovedEntities
        self.new = new
        self.preparesForCustomStage = preparesForCustomStage
        self.fromName = fromName
        self.toName = toName
    }

    mutating func run(in db: Database) throws {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var plans: [(TableLayout, Schema.Entity?)] = []
        var blocking: [String] = []
        for entity in new.entities {
            guard let layout = new.layouts[entity.name] else { continue }
            let table = TableLayout(entity: entity, layout: layout, schema: new)
            plans.append((table, oldByName[entity.name]))
            if let previous = oldByName[entity.name] {
                for column in table.columns where fillValue(of: entity.attributesByName[column.name], in: previous, codec: column.codec) == Self.unfilledMarker {
                    columnsAwaitingValues.append((entity.name, column.name))
                }
                blocking += try problems(migrating: previous, to: table, db)
                blocking += relationshipProblems(migrating: previous, to: table, oldByName: oldByName)
            }
        }
        let newNames = Set(new.entities.map(\.name))
        if !dropsRemovedEntities {
            for entity in old where !newNames.contains(entity.name) {
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if rows > 0 {
                    blocking.append(
                        "the entity \(entity.name) holds \(rows) row\(rows == 1 ? "" : "s") but is not among the models the store is opened with; open the store with its models, or declare the versions in a SchemaMigrationPlan to remove the entity on purpose")
                }
            }
        }
        guard blocking.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store cannot be migrated from \(fromName) to \(toName) without losing data; nothing was changed:\n"
                    + blocking.map { "- \($0)" }.joined(separator: "\n"))
        }
        for entity in old where !newNames.contains(entity.name) {
            try execute("DROP TABLE IF EXISTS \(entity.name.quotedDatabaseIdentifier)", db)
        }
        for (table, previous) in plans {
            if let previous {
                // The same structure under the same name needs no work.
                if Schema(previous).fingerprint != Schema(table.entity).fingerprint {
                    if try !alterInPlace(table, from: previous, db) {
                        try rebuild(table, from: previous, db)
                    }
                }
            } else {
                for sql in table.creationSQL { try execute(sql, db) }
            }
        }
        try moveJoinTables(plans.map(\.0), oldByName: oldByName, db)
    }

    /// Carries the rows of renamed many-to-many and one-way to-many relationships into their
    /// new join tables, and drops the join tables of relationships that are gone.
    private mutating func moveJoinTables(_ tables: [TableLayout], oldByName: [String: Schema.Entity], _ db: Database) throws {
        var kept: Set<String> = []
        for table in tables {
            // Both sides of a many-to-many pair: a relationship that gains a to-many inverse may
            // find its rows in a table the other side now names.
            for relationship in table.relationships {
                guard case .joinTable(let newTable, let newOwn, let newOther) = relationship.storage else { continue }
                kept.insert(newTable)
                guard let previous = oldByName[table.entity.name],
                      let oldRelationship = previous.relationship(continuedBy: relationship.relationship),
                      case .joinTable(let oldTable, let oldOwn, let oldOther) = StoredRelationship(
                          oldRelationship, of: previous, propertyIndex: 0, destination: oldByName[oldRelationship.destination]).storage,
                      oldTable != newTable
                else { continue }
                try execute(
                    "INSERT OR IGNORE INTO \(newTable.quotedDatabaseIdentifier) (\(newOwn.quotedDatabaseIdentifier), \(newOther.quotedDatabaseIdentifier)) SELECT \(oldOwn.quotedDatabaseIdentifier), \(oldOther.quotedDatabaseIdentifier) FROM \(oldTable.quotedDatabaseIdentifier)",
                    db)
            }
        }
        let existing = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_osd\\_join\\_%' ESCAPE '\\'")
        for table in existing where !kept.contains(table) {
            try execute("DROP TABLE \(table.quotedDatabaseIdentifier)", db)
        }
    }

    /// The new version's non-optional attributes that existing rows all get one value in: the
    /// declared default, or, before a custom stage, a placeholder for it to replace.
    private static func columnsFilledAlike(_ table: TableLayout, from previous: Schema.Entity) -> Set<String> {
        Set(table.entity.attributesInOrder.filter { !$0.isOptional && previous.attribute(continuedBy: $0) == nil }.map(\.name))
    }

    /// Runs a changed table's index and side-table statements, keeping back (before a custom
    /// stage) the unique indices over columns every row holds one value in for now.
    private mutating func createIndices(_ statements: ArraySlice<String>, of table: TableLayout, from previous: Schema.Entity, _ db: Database) throws {
        var deferred: [String: [String]] = [:]
        if preparesForCustomStage {
            let filledAlike = Self.columnsFilledAlike(table, from: previous)
            for constraint in table.entity.uniquenessConstraints where !filledAlike.isDisjoint(with: constraint) {
                deferred[table.uniqueIndexSQL(constraint)] = constraint
            }
        }
        for sql in statements {
            if let constraint = deferred[sql] {
                deferredUniqueIndices.append((table.entity.name, constraint, sql))
            } else {
                try execute(sql, db)
            }
        }
    }

    /// After the custom stage: creates the unique indices kept back for it, then drops the old
    /// tables kept for a typed transform. Rows the stage left sharing a unique value fail the
    /// migration, naming the constraint.
    mutating func finishCustomStage(in db: Database) throws {
        for (entity, column) in columnsAwaitingValues {
            let unfilled = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM \(entity.quotedDatabaseIdentifier) WHERE \(Self.isUnfilled(column.quotedDatabaseIdentifier))") ?? 0
            if unfilled > 0 {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(entity).\(column) is added in \(toName) as non-optional with no default value, and the custom stage's didMigrate left \(unfilled) stored row\(unfilled == 1 ? "" : "s") without a value for it; set it on every model in didMigrate (and save), give it a default, or make it optional (nothing was changed)")
            }
        }
        columnsAwaitingValues = []
        for index in deferredUniqueIndices {
            do {
                try execute(index.sql, db)
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CONSTRAINT {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "after the custom stage to \(toName), stored \(index.entity) rows still share values of \(index.constraint.joined(separator: ", ")), which \(toName) declares unique; give every row its own value in the stage (nothing was changed)")
            }
        }
        deferredUniqueIndices = []
        for table in retainedTables.values.sorted() {
            try execute("DROP TABLE \(table.quotedDatabaseIdentifier)", db)
        }
        retainedTables = [:]
    }

    private mutating func execute(_ sql: String, _ db: Database, arguments: StatementArguments = []) throws {
        executedSQL.append(sql)
        try db.execute(sql: sql, arguments: arguments)
    }

    /// Where a new column's values come from.
    private enum Source {
        case column(String)
        case value(DatabaseValue)
        case columnOr(String, DatabaseValue)
        case null
    }

    private func source(of attribute: Schema.Attribute, codec: ValueCodec, in previous: Schema.Entity) -> Source? {
        let oldAttribute = previous.attribute(continuedBy: attribute)
        let fill = fillValue(of: attribute, codec: codec)
        guard let oldAttribute else {
            if attribute.isOptional { return fill.map(Source.value) ?? .null }
            return fill.map(Source.value)
        }
        if oldAttribute.isOptional, !attribute.isOptional {
            return fill.map { .columnOr(oldAttribute.name, $0) } ?? .column(oldAttribute.name)
        }
        return .column(oldAttribute.name)
    }

    /// What a new non-optional column holds in existing rows: the declared default, or, when a
    /// custom stage follows to fill it, the type's empty value, or ``unfilledMarker`` for a type
    /// without one; `nil` when neither applies.
    private func fillValue(of attribute: Schema.Attribute, codec: ValueCodec) -> DatabaseValue? {
        if let value = defaultValue(of: attribute, codec: codec) { return value }
        guard preparesForCustomStage else { return nil }
        if let empty = Self.emptyValue(codec.storage), (try? codec.decode(empty)) != nil { return empty }
        return Self.unfilledMarker
    }

    /// ``fillValue(of:codec:)`` for an attribute the old version does not have; `nil` for any
    /// other.
    private func fillValue(of attribute: Schema.Attribute?, in previous: Schema.Entity, codec: ValueCodec) -> DatabaseValue? {
        guard let attribute, !attribute.isOptional, previous.attribute(continuedBy: attribute) == nil else { return nil }
        return fillValue(of: attribute, codec: codec)
    }

    /// What a row holds in a new attribute that a custom stage has yet to fill: the one-byte
    /// BLOB `X'00'`, which no value of a TEXT, INTEGER or REAL column is (the tables are not
    /// STRICT, so the column takes it), and which reads back as no value
    /// (``RawStatement/read(at:as:into:at:)``).
    static let unfilledMarker = Data([0]).databaseValue

    /// The SQL condition that `column` holds ``unfilledMarker``.
    static func isUnfilled(_ column: String) -> String {
        "(typeof(\(column)) = 'blob' AND \(column) = X'00')"
    }

    private func defaultValue(of attribute: Schema.Attribute, codec: ValueCodec) -> DatabaseValue? {
        guard let value = attribute.defaultValue else { return nil }
        if let optional = value as? any OptionalProtocol, optional.wrappedValue == nil { return nil }
        return try? codec.encode(value)
    }

    /// The value a new non-optional attribute starts with when a custom stage will fill it.
    private static func emptyValue(_ storage: StorageType) -> DatabaseValue? {
        switch storage {
        case .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64:
            0.databaseValue
        case .double, .float, .date: 0.0.databaseValue
        case .string, .url: "".databaseValue
        case .decimal: "0".databaseValue
        case .data: Data().databaseValue
        case .uuid: Data(count: 16).databaseValue
        case .codable: nil
        }
    }

    /// Every reason the entity cannot be migrated without losing or inventing data.
    private func problems(migrating previous: Schema.Entity, to table: TableLayout, _ db: Database) throws -> [String] {
        var problems: [String] = []
        let entity = table.entity
        for column in table.columns + table.externalColumns {
            guard let attribute = entity.attributesByName[column.name] else { continue }
            let place = "\(entity.name).\(attribute.name)"
            let oldAttribute = previous.attribute(continuedBy: attribute)
            if let oldAttribute, oldAttribute.storageType != attribute.storageType
                || (attribute.storageType == .codable && oldAttribute.valueTypeName != attribute.valueTypeName)
            {
                problems.append(
                    "\(place) changes type from \(oldAttribute.valueTypeName) to \(attribute.valueTypeName) (\(toName)); a type change is not lightweight: add the new attribute under a new name, fill it in a custom stage's didMigrate, and remove the old one in a later version")
                continue
            }
            guard let source = source(of: attribute, codec: column.codec, in: previous) else {
                // A table without rows (perhaps emptied by willMigrate) has no row to leave
                // without a value.
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if rows == 0 { continue }
                problems.append(
                    "\(place) is added in \(toName) as non-optional with no default value, so existing rows would have no value; give it a default (`var \(attribute.name): \(attribute.valueTypeName) = ...`), make it optional, or fill it in a custom stage's didMigrate")
                continue
            }
            if case .column(let name) = source, oldAttribute?.isOptional == true, !attribute.isOptional {
                let nulls = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier) WHERE \(name.quotedDatabaseIdentifier) IS NULL") ?? 0
                if nulls > 0 {
                    problems.append(
                        "\(place) becomes non-optional in \(toName) but \(nulls) row\(nulls == 1 ? " has" : "s have") no value; give it a default value, or fill the nils in a custom stage's willMigrate")
                }
            }
        }
        for constraint in entity.uniquenessConstraints where !previous.uniquenessConstraints.contains(constraint) {
            let columns = constraint.compactMap { name -> String? in
                guard let attribute = entity.attributesByName[name] else {
                    return entity.relationshipsByName[name] != nil && previous.relationshipsByName[name] != nil ? name : nil
                }
                let old = previous.attribute(continuedBy: attribute)
                return old?.name
            }
            guard columns.count == constraint.count else {
                let filledAlike = Self.columnsFilledAlike(table, from: previous).intersection(constraint)
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if !preparesForCustomStage, !filledAlike.isEmpty, rows > 1 {
                    problems.append(
                        "\(entity.name).\(filledAlike.sorted().joined(separator: ", ")) is added in \(toName) as non-optional and unique, but its default would give all \(rows) stored rows the same value; fill it row by row in a custom stage (MigrationStage.transform), or make it optional")
                }
                continue
            }
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let duplicates = try Row.fetchAll(
                db,
                sql: "SELECT \(list), COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier) GROUP BY \(list) HAVING COUNT(*) > 1 LIMIT 5")
            if !duplicates.isEmpty {
                let values = duplicates.map { row in
                    "(" + (0..<constraint.count).map { "\(row[$0] as DatabaseValue)" }.joined(separator: ", ") + ") \(row[constraint.count] as Int) times"
                }
                problems.append(
                    "\(entity.name) gets a unique constraint on \(constraint.joined(separator: ", ")) in \(toName), but stored rows repeat values: \(values.joined(separator: "; ")); remove the duplicates in a custom stage's willMigrate")
            }
        }
        return problems
    }

    /// The relationships whose stored rows cannot be carried over: a new destination (the old
    /// keys name rows of another entity), or a new way of storing them (a join table becoming
    /// the inverse's key column, or the other way round; a to-one becoming to-many).
    private func relationshipProblems(
        migrating previous: Schema.Entity, to table: TableLayout, oldByName: [String: Schema.Entity]
    ) -> [String] {
        table.relationships.compactMap { stored in
            let relationship = stored.relationship
            guard let old = previous.relationship(continuedBy: relationship)
            else { return nil }
            let place = "\(table.entity.name).\(relationship.name)"
            let advice = "add the new relationship under a new name, fill it in a custom stage's didMigrate, and remove the old one in a later version"
            if old.destination != relationship.destination {
                return "\(place) changes destination from \(old.destination) to \(relationship.destination) (\(toName)); its stored keys name \(old.destination) rows, so \(advice)"
            }
            let oldStorage = StoredRelationship(old, of: previous, propertyIndex: 0, destination: oldByName[old.destination]).storage
            guard oldStorage.kind != stored.storage.kind || old.isToOne != relationship.isToOne else { return nil }
            return "\(place) is stored differently in \(toName) (\(oldStorage.kind.rawValue) before, \(stored.storage.kind.rawValue) now: its inverse or its cardinality changed), which is not lightweight; \(advice)"
        }
    }

    /// Changes the table with `ALTER TABLE` when every change is one SQLite makes without
    /// copying rows: columns added (optional, or with a default), renamed or dropped, and indices
    /// added or dropped. Returns `false`, having changed nothing, when a rebuild is needed.
    /// Before a custom stage, only additions are made in place: the stage's old models read
    /// the old columns, so none may be renamed or dropped until it has run.
    private mutating func alterInPlace(_ table: TableLayout, from previous: Schema.Entity, _ db: Database) throws -> Bool {
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
        let declared = Set(table.indices.map(\.name))
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
    private static func sqlLiteral(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: "NULL"
        case .int64(let int): String(int)
        case .double(let double): double.isFinite ? "\(double)" : nil
        case .string(let string): "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// Copies the entity's rows into a table of the new layout and puts it in place.
    private mutating func rebuild(_ table: TableLayout, from previous: Schema.Entity, _ db: Database) throws {
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
    private func oldValue(_ name: String, of previous: Schema.Entity) -> String {
        guard previous.attributesByName[name]?.options.contains(.externalStorage) == true else {
            return name.quotedDatabaseIdentifier
        }
        let side = TableLayout.externalTableName(entity: previous.name, attribute: name)
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        return "(SELECT \"value\" FROM \(side) WHERE \(side).\(key) = \(previous.name.quotedDatabaseIdentifier).\(key))"
    }
}
