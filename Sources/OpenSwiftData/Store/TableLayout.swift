import GRDB

/// How one entity is laid out in SQLite in one store: its table, the column of each stored
/// attribute, and the SQL statements that read and write its rows. The DocC article
/// HowValuesAreStored describes the tables it makes.
///
/// The column order is part of every statement and of ``rowDecoder``: `_pk`, the attributes
/// kept in the table in declaration order, then the to-one relationships' keys. The classes of
/// a hierarchy share their root's table and select all its columns (``selectedColumns``).
/// Built once per store and never changed (a class, so that handing it on for every row is one
/// retain).
package final class TableLayout: @unchecked Sendable {
    /// A stored attribute: its column and where its value sits in the model's backing data.
    // A class: fetches and saves pass columns around for every row, and a reference is handed
    // on with one retain.
    package final class Column {
        package let name: String
        package let propertyIndex: Int
        package let codec: ValueCodec
        package let isOptional: Bool

        init(name: String, propertyIndex: Int, codec: ValueCodec, isOptional: Bool) {
            self.name = name
            self.propertyIndex = propertyIndex
            self.codec = codec
            self.isOptional = isOptional
        }
    }

    package static let primaryKeyColumn = "_pk"

    /// The layout of each entity's table, by entity name.
    /// - Parameter storedNames: tables to read under another name than their entity's.
    package static func layouts(of schema: Schema, storedNames: [String: String] = [:]) -> [String: TableLayout] {
        var tables: [String: TableLayout] = [:]
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name] else { continue }
            tables[entity.name] = TableLayout(entity: entity, layout: layout, schema: schema, storedName: storedNames[entity.name])
        }
        return tables
    }

    /// `?, ?, …`: `count` parameters, for a `VALUES` or `IN` list.
    package static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Deletes the rows with `keyCount` keys, bound in order.
    func deleteSQL(keyCount: Int) -> String {
        "DELETE FROM \(tableName) WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) IN (\(Self.placeholders(keyCount)))"
    }

    /// The condition that a row's key is one of `rowIDs`.
    package func keyIsOne(of rowIDs: [Int64]) -> SQLFragment {
        "\(keyColumn) IN (\(SQLFragment.list(rowIDs.map { .integer($0) })))"
    }

    /// The key column, qualified with the table's name, as every store's queries name it.
    package var keyColumn: SQLFragment {
        .column(Self.primaryKeyColumn, of: storedName)
    }

    /// The key column, qualified with the table's name for queries that join other tables.
    package var qualifiedKeyColumn: String {
        "\(tableName).\(Self.primaryKeyColumn.quotedDatabaseIdentifier)"
    }

    package let entity: Schema.Entity
    package let layout: ModelLayout
    package let columns: [Column]
    package let columnIndexByName: [String: Int]
    /// The attributes kept outside the table, each in its own side table.
    package let externalColumns: [Column]
    package let relationships: [StoredRelationship]
    /// The to-one relationships, whose key columns follow the attribute columns.
    package let foreignKeys: [StoredRelationship]

    /// What a context registers the table's models under: the entity's name (its hierarchy
    /// root's, for a class hierarchy, whose rows share one table), or, for a layout reading the
    /// rows as another class of the entity (``readingRows(of:as:schema:)``), a key of its own,
    /// so that each class has one object per row.
    package let registryKey: String

    /// For an entity of a class hierarchy, the entities whose rows a fetch of it reads (itself
    /// and its descendants); `nil` for an entity outside any hierarchy. A hierarchy is stored
    /// in its root entity's table: every column of every class, and ``entityColumn`` naming the
    /// class of each row.
    package let hierarchyEntities: [String]?
    /// The column holding the entity name of each row of a hierarchy's table.
    package static let entityColumn = "_entity"

    /// For a class of a hierarchy, that a row of its table (named `qualifier`, the table's own
    /// name when `nil`) is of the class or, unless `exactly`, of a subclass of it; `nil` when
    /// every row of the table qualifies (a flat entity, or the root with subclasses allowed).
    package func classCondition(qualifiedBy qualifier: String? = nil, exactly: Bool = false) -> SQLFragment? {
        guard let names = hierarchyEntities else { return nil }
        let classes = exactly ? [entity.name] : names
        guard classes.count < names.count || entity.superentity != nil else { return nil }
        let column = SQLFragment.column(Self.entityColumn, of: qualifier ?? storedName)
        return "\(column) IN (\(SQLFragment.list(classes.map { .text($0) })))"
    }

    /// - Parameters:
    ///   - storedName: the table's name when it is not the entity's: a migration reads the old
    ///     version of a rebuilt table under another name.
    ///   - registryKey: see ``registryKey``; the entity's name when `nil`.
    init(entity: Schema.Entity, layout: ModelLayout, schema: Schema, storedName: String? = nil, registryKey: String? = nil) {
        self.entity = entity
        self.layout = layout
        let root = entity.rootEntity
        let hierarchy = root.subentities.isEmpty ? nil : root.selfAndDescendants
        hierarchyEntities = hierarchy == nil ? nil : entity.selfAndDescendants.map(\.name)
        self.registryKey = registryKey ?? root.name
        var columns: [Column] = []
        var externalColumns: [Column] = []
        for attribute in entity.attributesInOrder {
            guard let index = layout.properties.firstIndex(where: { $0.name == attribute.name }),
                  let codec = layout.properties[index].codec
            else { continue }
            let column = Column(name: attribute.name, propertyIndex: index, codec: codec, isOptional: attribute.isOptional)
            if attribute.options.contains(.externalStorage) {
                externalColumns.append(column)
            } else {
                columns.append(column)
            }
        }
        self.columns = columns
        self.externalColumns = externalColumns
        relationships = entity.relationshipsInOrder.compactMap { relationship in
            guard let index = layout.properties.firstIndex(where: { $0.name == relationship.name }) else { return nil }
            return StoredRelationship(
                relationship, of: entity, propertyIndex: index, destination: schema.entitiesByName[relationship.destination])
        }
        foreignKeys = relationships.filter(\.isToOne)
        columnIndexByName = Dictionary(columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        self.storedName = storedName ?? root.name
        tableName = self.storedName.quotedDatabaseIdentifier
        let table = tableName
        if let hierarchy {
            // Every class of a hierarchy selects the table's columns alike, so one query reads
            // rows of any of them, each decoded by its class's decoder.
            let shared = Self.hierarchyColumns(hierarchy)
            selectedColumns = [Self.primaryKeyColumn, Self.entityColumn] + shared.attributes.map(\.name) + shared.foreignKeys
        } else {
            selectedColumns = [Self.primaryKeyColumn] + columns.map(\.name) + foreignKeys.map(\.name)
        }
        selectList = selectedColumns.map { "\(table).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        var names = (columns.map(\.name) + foreignKeys.map(\.name)).map(\.quotedDatabaseIdentifier)
        var values = Array(repeating: "?", count: names.count)
        if hierarchy != nil {
            names.append(Self.entityColumn.quotedDatabaseIdentifier)
            values.append("'\(entity.name.replacingOccurrences(of: "'", with: "''"))'")
        }
        insertSQL = names.isEmpty
            ? "INSERT INTO \(tableName) DEFAULT VALUES"
            : "INSERT INTO \(tableName) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        upsertSQL = Self.upsertSQL(insertSQL: insertSQL, entity: entity, columns: columns, columnIndexByName: columnIndexByName)
        rowDecoder = RowDecoder(
            entity: entity, layout: layout, columns: columns, relationships: relationships, selectedColumns: selectedColumns,
            readsAnotherClass: registryKey != nil)!
    }

    /// Reads this table's model values from the rows `other` fetches, when `other` is a layout
    /// of the same stored table that selects every column this one reads (and this one keeps
    /// nothing in side tables); `nil` otherwise. A transform over a table the migration only
    /// added columns to reads each row once for the old model and the new, and the old model
    /// takes the values of primitive attributes declared alike from the new one's.
    func rowDecoder(readingRowsOf other: TableLayout) -> RowDecoder? {
        // A migration rebuilds a table with side tables rather than altering it in place, so
        // the old layout reads another table then; the second check keeps a change there from
        // handing old models rows without their side tables' values.
        guard other.tableName == tableName, externalColumns.isEmpty else { return nil }
        return RowDecoder(
            entity: entity, layout: layout, columns: columns, relationships: relationships, selectedColumns: other.selectedColumns,
            sharingValuesOf: other)
    }

    /// The quoted table name: the entity's, or for a class of a hierarchy its root's.
    package let tableName: String
    /// The table's name, unquoted: what queries name it by in every store's dialect.
    package let storedName: String
    /// The names of the columns every fetch selects, in order: `_pk`, the attributes, the
    /// to-one relationships' keys; for a class of a hierarchy, `_pk`, `_entity` and every
    /// column of the hierarchy's table, alike for all its classes.
    package let selectedColumns: [String]
    /// `"Film"."_pk", "Film"."title", …`: `selectedColumns`, qualified and quoted.
    let selectList: String
    let insertSQL: String
    /// The insert as one statement that inserts nothing where a row holds the same unique
    /// values, which the save then merges the model into (``UpsertMerge``): for an entity with
    /// one uniqueness constraint over non-optional attributes. Otherwise `nil`, and a save looks
    /// for that row first (`IS` matches `NULL`, which a unique index never does). SQLite counts
    /// a key off the table's sequence before it finds the conflict, so an upsert that updates
    /// leaves a gap in the keys new rows get.
    let upsertSQL: String?
    /// Whether an insert can find the row holding its unique values in the same statement: one
    /// uniqueness constraint, over non-optional attributes (``upsertSQL``'s case).
    package var upsertsInOneStatement: Bool { upsertSQL != nil }
    /// Reads a fetched row, its columns `selectList`'s, into a model's values.
    package let rowDecoder: RowDecoder

    /// The attribute columns and to-one keys of a hierarchy's table, in order: the root's, then
    /// each descendant's own (a name two classes declare is one column).
    static func hierarchyColumns(_ hierarchy: [Schema.Entity]) -> (attributes: [Schema.Attribute], foreignKeys: [String]) {
        var attributes: [Schema.Attribute] = []
        var foreignKeys: [String] = []
        for member in hierarchy {
            let declared = member.superentity == nil ? member.attributesInOrder : member.declaredAttributes
            for attribute in declared where !attribute.options.contains(.externalStorage) && !attributes.contains(where: { $0.name == attribute.name }) {
                attributes.append(attribute)
            }
            let relationships = member.superentity == nil ? member.relationshipsInOrder : member.declaredRelationships
            for relationship in relationships where relationship.isToOne && !foreignKeys.contains(relationship.name) {
                foreignKeys.append(relationship.name)
            }
        }
        return (attributes, foreignKeys)
    }

    /// `CREATE TABLE` and `CREATE INDEX` statements of the table, its join and side tables, for a
    /// new store and for a migration (everything but the table itself is `IF NOT EXISTS`). A
    /// subentity's table is its root's: its statements are its indices and join tables, run
    /// after the root's (``creationOrder``).
    var creationSQL: [String] {
        if entity.superentity != nil { return Array(creationSQLAfterTable) }
        if hierarchyEntities != nil {
            let (attributes, foreignKeys) = Self.hierarchyColumns(entity.rootEntity.selfAndDescendants)
            let own = Set(entity.attributesInOrder.map(\.name))
            var definitions = ["\(Self.primaryKeyColumn.quotedDatabaseIdentifier) INTEGER PRIMARY KEY AUTOINCREMENT"]
            definitions.append("\(Self.entityColumn.quotedDatabaseIdentifier) TEXT NOT NULL")
            for attribute in attributes {
                // A subclass's column holds NULL in the rows of the other classes.
                let required = own.contains(attribute.name) && !attribute.isOptional
                definitions.append(
                    "\(attribute.name.quotedDatabaseIdentifier) \((attribute.storageType ?? .string).sqlType)\(required ? " NOT NULL" : "")")
            }
            definitions += foreignKeys.map { "\($0.quotedDatabaseIdentifier) INTEGER" }
            return ["CREATE TABLE \(tableName) (\(definitions.joined(separator: ", ")))"] + creationSQLAfterTable
        }
        return flatCreationSQL
    }

    /// The order tables are created in: a hierarchy's root before its subentities.
    static func creationOrder(_ lhs: TableLayout, _ rhs: TableLayout) -> Bool {
        let (left, right) = (lhs.entity.depth, rhs.entity.depth)
        return left != right ? left < right : lhs.entity.name < rhs.entity.name
    }

    /// The statements of ``creationSQL`` after the table's own: indices, join and side tables.
    private var creationSQLAfterTable: [String] {
        Array(flatCreationSQL.dropFirst())
    }

    private var flatCreationSQL: [String] {
        // AUTOINCREMENT: a deleted row's key is never given to a later row, so an identifier
        // held elsewhere (another actor, another process, UserDefaults) can never name a
        // different model; without it SQLite reuses the largest key once that row is deleted.
        var definitions = ["\(Self.primaryKeyColumn.quotedDatabaseIdentifier) INTEGER PRIMARY KEY AUTOINCREMENT"]
        for column in columns {
            definitions.append(
                "\(column.name.quotedDatabaseIdentifier) \(column.codec.storage.sqlType)\(column.isOptional ? "" : " NOT NULL")")
        }
        for foreignKey in foreignKeys {
            definitions.append("\(foreignKey.name.quotedDatabaseIdentifier) INTEGER")
        }
        var statements = ["CREATE TABLE \(tableName) (\(definitions.joined(separator: ", ")))"]
        statements += indices.map(\.sql)
        for relationship in relationships where relationship.createsJoinTable {
            guard case .joinTable(let table, _, _) = relationship.storage else { continue }
            statements.append(
                "CREATE TABLE IF NOT EXISTS \(table.quotedDatabaseIdentifier) (\"source\" INTEGER NOT NULL, \"target\" INTEGER NOT NULL, PRIMARY KEY (\"source\", \"target\")) WITHOUT ROWID")
            statements.append(
                "CREATE INDEX IF NOT EXISTS \("\(table)_target".quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier) (\"target\", \"source\")")
        }
        statements += externalColumns.map(externalTableSQL)
        return statements
    }

    /// The table's indices, by name: uniqueness constraints, `#Index` declarations and the keys
    /// of to-one relationships.
    var indices: [(name: String, sql: String)] {
        var indices = entity.uniquenessConstraints.map { indexDefinition(columns: $0, unique: true) }
        indices += entity.indices.map { indexDefinition(columns: $0, unique: false) }
        // A subentity's inherited keys are indexed under its superentity's name.
        let declared = Set(entity.declaredRelationships.map(\.name))
        for foreignKey in foreignKeys where entity.superentity == nil || declared.contains(foreignKey.name) {
            let name = Self.foreignKeyIndexName(entity: entity.name, relationship: foreignKey.name)
            indices.append((name, "CREATE INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) ON \(tableName) (\(foreignKey.name.quotedDatabaseIdentifier))"))
        }
        return indices
    }

    /// The names of the indices ``indices`` makes for `entity`, found from the entity alone.
    static func indexNames(of entity: Schema.Entity) -> [String] {
        entity.uniquenessConstraints.map { indexName(entity: entity.name, columns: $0, unique: true) }
            + entity.indices.map { indexName(entity: entity.name, columns: $0, unique: false) }
            + entity.declaredRelationships.filter(\.isToOne).map { foreignKeyIndexName(entity: entity.name, relationship: $0.name) }
    }

    private static func indexName(entity: String, columns: [String], unique: Bool) -> String {
        "\(entity)_\(unique ? "unique" : "index")_\(columns.joined(separator: "_"))"
    }

    private static func foreignKeyIndexName(entity: String, relationship: String) -> String {
        "\(entity)_key_\(relationship)"
    }

    /// The quoted name of the side table of an attribute with `.externalStorage`.
    func externalTableName(_ column: Column) -> String {
        Self.externalTableName(entity: entity.name, attribute: column.name)
    }

    static func externalTableName(entity: String, attribute: String) -> String {
        unquotedExternalTableName(entity: entity, attribute: attribute).quotedDatabaseIdentifier
    }

    package static func unquotedExternalTableName(entity: String, attribute: String) -> String {
        "_osd_external_\(entity)_\(attribute)"
    }

    /// `CREATE TABLE` of an external attribute's side table: a row per saved model (`NULL` for
    /// `nil`), deleted with the model's row.
    func externalTableSQL(_ column: Column) -> String {
        let key = Self.primaryKeyColumn.quotedDatabaseIdentifier
        return "CREATE TABLE IF NOT EXISTS \(externalTableName(column)) (\(key) INTEGER PRIMARY KEY REFERENCES \(tableName)(\(key)) ON DELETE CASCADE, \"value\" \(column.codec.storage.sqlType))"
    }

    /// Stores an external attribute's value for a row, replacing what the row had (`NULL` for
    /// `nil`).
    func writeExternalValueSQL(_ column: Column) -> String {
        "INSERT OR REPLACE INTO \(externalTableName(column)) (\(Self.primaryKeyColumn.quotedDatabaseIdentifier), \"value\") VALUES (?, ?)"
    }

    func readExternalValueSQL(_ column: Column) -> String {
        "SELECT \"value\" FROM \(externalTableName(column)) WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) = ?"
    }

    /// `CREATE UNIQUE INDEX` of one of the entity's uniqueness constraints.
    func uniqueIndexSQL(_ constraint: [String]) -> String {
        indexDefinition(columns: constraint, unique: true).sql
    }

    private func indexDefinition(columns: [String], unique: Bool) -> (name: String, sql: String) {
        let name = Self.indexName(entity: entity.name, columns: columns, unique: unique)
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return (name, "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) ON \(tableName) (\(list))")
    }

    /// For a class of a hierarchy, the statement giving a row (its key the argument) this
    /// class: an insert that updates a stored row makes it an instance of the inserted class.
    var setClassSQL: String? {
        guard hierarchyEntities != nil else { return nil }
        return "UPDATE \(tableName) SET \(Self.entityColumn.quotedDatabaseIdentifier) = '\(entity.name.replacingOccurrences(of: "'", with: "''"))' WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) = ?"
    }

    private static func upsertSQL(insertSQL: String, entity: Schema.Entity, columns: [Column], columnIndexByName: [String: Int]) -> String? {
        let constraints = entity.uniquenessConstraintsWithInherited
        guard constraints.count == 1, let constraint = constraints.first,
              constraint.allSatisfy({ name in columnIndexByName[name].map { !columns[$0].isOptional } ?? false })
        else { return nil }
        let target = constraint.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return insertSQL + " ON CONFLICT (\(target)) DO NOTHING"
    }

    /// `UPDATE` of the given columns of one row; the row's key is the last argument.
    func updateSQL(columnIndices: [Int]) -> String {
        let assignments = columnIndices.map { "\(columns[$0].name.quotedDatabaseIdentifier) = ?" }
        return "UPDATE \(tableName) SET \(assignments.joined(separator: ", ")) WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) = ?"
    }

    /// A query finding the row whose values match a uniqueness constraint; `IS` makes `NULL`
    /// match `NULL`, as SwiftData's constraints do.
    func uniqueLookupSQL(constraint: [String]) -> String {
        let conditions = constraint.map { "\($0.quotedDatabaseIdentifier) IS ?" }
        return "SELECT \(Self.primaryKeyColumn.quotedDatabaseIdentifier) FROM \(tableName) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
    }

    /// The column holding the property at `keyPath`, for queries.
    func storedColumn(for keyPath: AnyKeyPath) -> Column? {
        guard let index = layout.index(of: keyPath) else { return nil }
        return columns.first { $0.propertyIndex == index }
    }

    /// What `column` stores for the model's value, or an error naming the property when it has
    /// none (non-optional) or cannot be encoded.
    package func encode(_ state: ModelState, _ column: Column) throws -> DatabaseValue {
        try encoding(state, column) { slot in try ModelState.optional(slot).map { try column.codec.encode($0).databaseValue } ?? .null }
    }

    /// What `column` stores for the model's value, as ``encode(_:_:)`` says.
    package func storedValue(of state: ModelState, _ column: Column) throws -> StoredValue {
        StoredValue(try encode(state, column))
    }

    /// The model's value for `column` read where it lies, when it is an `Int`, a `Double` (not
    /// NaN) or a `String` its codec stores as itself; `nil` otherwise (``storedValue(of:_:)``
    /// then gives it): what a bulk write takes without boxing the value.
    package func plainValue(of state: ModelState, _ column: Column) -> PlainValue? {
        guard state.hasValue(at: column.propertyIndex) else { return nil }
        let values = state.values
        switch column.codec.identityType {
        case .int?:
            return values.slot(at: column.propertyIndex, holding: Int.self).map { .int($0.load(as: Int.self)) }
        case .double?:
            guard let double = values.slot(at: column.propertyIndex, holding: Double.self)?.load(as: Double.self), !double.isNaN else { return nil }
            return .double(double)
        case .string?:
            return values.slot(at: column.propertyIndex, holding: String.self).map { .string($0.assumingMemoryBound(to: String.self).pointee) }
        default:
            return nil
        }
    }

    /// A value ``plainValue(of:_:)`` read.
    package enum PlainValue {
        case int(Int)
        case double(Double)
        case string(String)
    }

    /// Binds the model's value for `column` to a parameter of an insert or update, with the
    /// errors of ``encode(_:_:)``.
    func bind(_ state: ModelState, _ column: Column, to statement: RawStatement, at position: Int32) throws {
        // An integer, real or text is bound from its slot, without boxing it. (What that can
        // throw is SQLite refusing the value, which `encoding` passes on as it is too.)
        if state.hasValue(at: column.propertyIndex),
           try statement.bind(slot: column.propertyIndex, of: state.values, as: column.codec, at: position)
        {
            return
        }
        try encoding(state, column) { try statement.bind($0, as: column.codec, at: position) }
    }

    /// Calls `body` with the model's slot for `column` (``ModelState/noValue`` for none, which
    /// only an optional may have), and names the property in any error encoding it raises.
    private func encoding<Result>(_ state: ModelState, _ column: Column, _ body: (Any) throws -> Result) throws -> Result {
        let index = column.propertyIndex
        let hasValue = state.hasValue(at: index)
        if !hasValue, !column.isOptional {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(entity.name).\(column.name) has no value; a non-optional property needs one before the model is saved (assign it in the initializer or declare a default)")
        }
        do {
            // The slot is handed over where it lies, not copied out of the array first.
            return try hasValue ? body(state.values[index]) : body(ModelState.noValue)
        } catch let error as DatabaseError {
            // SQLite refusing the bound value (too big, say) is the save's failure, not the codec's.
            throw error
        } catch {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(entity.name).\(column.name) could not be encoded for storage: \(error)")
        }
    }
}
