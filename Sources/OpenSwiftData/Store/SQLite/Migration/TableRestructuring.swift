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
package struct TableRestructuring {
    let old: [Schema.Entity]
    let new: Schema
    /// Whether a custom stage's `didMigrate` runs after: new non-optional attributes that have no
    /// default then start with their type's empty value (0, "", false, empty data, the reference
    /// date) for the stage to fill. A table that only gains columns is altered in place, so its
    /// old columns are still there to read; any other changed table is rebuilt keeping its old
    /// rows, renamed `_osd_old_<Entity>`, until ``finishCustomStage(in:place:)``. Either way the
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
    var retainedTables: [String: String] = [:]
    /// New non-optional attributes with no default whose type has no empty value (a `Codable`
    /// value, an enum, a URL): existing rows hold ``unfilledMarker`` in them until the custom
    /// stage gives each its value, and none may still hold it afterwards.
    var columnsAwaitingValues: [(entity: String, column: String)] = []
    /// Unique indices over new columns that every existing row holds one value in until the
    /// custom stage fills them, created once it has: by entity, the constraint and its SQL.
    var deferredUniqueIndices: [(entity: String, constraint: [String], sql: String)] = []

    /// The SQL run, for the migration's report.
    var executedSQL: [String] = []

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
        var hierarchyTables: [(TableLayout, Schema.Entity?)] = []
        var blocking = hierarchyProblems()
        let removedSubentities = try removedSubentityRows(db)
        blocking += removedSubentities.blocking
        for entity in new.entities {
            guard let layout = new.layouts[entity.name] else { continue }
            let table = TableLayout(entity: entity, layout: layout, schema: new)
            // A hierarchy's table is its root's, changed by adding to it (TableRestructuring+Hierarchy).
            if Self.isInHierarchy(entity) || oldByName[entity.name].map(Self.isInHierarchy) == true {
                hierarchyTables.append((table, oldByName[entity.name]))
                continue
            }
            plans.append((table, oldByName[entity.name]))
            if let previous = oldByName[entity.name] {
                for column in table.columns where fillValue(of: entity.attributesByName[column.name], in: previous, codec: column.codec) == Self.unfilledMarker {
                    columnsAwaitingValues.append((entity.name, column.name))
                }
                blocking += typeChanges(migrating: previous, to: table)
                blocking += try problems(migrating: previous, to: table, db)
                blocking += relationshipProblems(migrating: previous, to: table, oldByName: oldByName)
            }
        }
        let newNames = Set(new.entities.map(\.name))
        if !dropsRemovedEntities {
            for entity in old where !newNames.contains(entity.name) && entity.superentity == nil {
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if rows > 0 {
                    blocking.append(
                        "the entity \(entity.name) holds \(rows) row\(rows == 1 ? "" : "s") but is not among the models the store is opened with; open the store with its models, or declare the versions in a SchemaMigrationPlan to remove the entity on purpose")
                }
            }
        }
        guard blocking.isEmpty else { throw refusal(blocking) }
        for sql in removedSubentities.deletions { try execute(sql, db) }
        for entity in old where !newNames.contains(entity.name) && entity.superentity == nil {
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
        for (root, previous) in hierarchyTables where root.entity.superentity == nil {
            let subentities = hierarchyTables.map(\.0).filter { $0.entity.superentity != nil && $0.entity.rootEntity === root.entity }
            try restructureHierarchy(root: root, previous: previous, subentities: subentities, db)
        }
        try moveJoinTables(plans.map(\.0) + hierarchyTables.map(\.0), oldByName: oldByName, db)
    }

    /// Carries the rows of renamed many-to-many and one-way to-many relationships into their
    /// new join tables, and drops the join tables of relationships that are gone.
    mutating func moveJoinTables(_ tables: [TableLayout], oldByName: [String: Schema.Entity], _ db: Database) throws {
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
    static func columnsFilledAlike(_ table: TableLayout, from previous: Schema.Entity) -> Set<String> {
        Set(table.entity.attributesInOrder.filter { !$0.isOptional && previous.attribute(continuedBy: $0) == nil }.map(\.name))
    }

    /// Runs a changed table's index and side-table statements, keeping back (before a custom
    /// stage) the unique indices over columns every row holds one value in for now.
    mutating func createIndices(_ statements: ArraySlice<String>, of table: TableLayout, from previous: Schema.Entity, _ db: Database) throws {
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
    mutating func finishCustomStage(in db: Database, place: String) throws {
        for (entity, column) in columnsAwaitingValues {
            let unfilled = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM \(entity.quotedDatabaseIdentifier) WHERE \(Self.isUnfilled(column.quotedDatabaseIdentifier))") ?? 0
            if unfilled > 0 {
                throw SwiftDataError.stageLeftRowsUnfilled(entity: entity, attribute: column, in: toName, rows: unfilled, place: place)
            }
        }
        columnsAwaitingValues = []
        for index in deferredUniqueIndices {
            do {
                try execute(index.sql, db)
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CONSTRAINT {
                throw SwiftDataError.stageLeftValuesShared(entity: index.entity, constraint: index.constraint, in: toName, place: place)
            }
        }
        deferredUniqueIndices = []
        for table in retainedTables.values.sorted() {
            try execute("DROP TABLE \(table.quotedDatabaseIdentifier)", db)
        }
        retainedTables = [:]
    }

    mutating func execute(_ sql: String, _ db: Database, arguments: StatementArguments = []) throws {
        executedSQL.append(sql)
        try db.execute(sql: sql, arguments: arguments)
    }

    /// Where a new column's values come from.
    enum Source {
        case column(String)
        case value(DatabaseValue)
        case columnOr(String, DatabaseValue)
        case null
    }

    func source(of attribute: Schema.Attribute, codec: ValueCodec, in previous: Schema.Entity) -> Source? {
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
    func fillValue(of attribute: Schema.Attribute, codec: ValueCodec) -> DatabaseValue? {
        if let value = defaultValue(of: attribute, codec: codec) { return value }
        guard preparesForCustomStage else { return nil }
        if let empty = codec.emptyStoredValue { return empty.databaseValue }
        return Self.unfilledMarker
    }

    /// ``fillValue(of:codec:)`` for a non-optional attribute the old version does not have or
    /// has as optional (its rows without a value get the fill); `nil` for any other.
    func fillValue(of attribute: Schema.Attribute?, in previous: Schema.Entity, codec: ValueCodec) -> DatabaseValue? {
        guard let attribute, !attribute.isOptional else { return nil }
        if let old = previous.attribute(continuedBy: attribute), !old.isOptional { return nil }
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

    func defaultValue(of attribute: Schema.Attribute, codec: ValueCodec) -> DatabaseValue? {
        guard let value = attribute.defaultValue else { return nil }
        if let optional = value as? any OptionalProtocol, optional.wrappedValue == nil { return nil }
        return try? codec.encode(value).databaseValue
    }
}
