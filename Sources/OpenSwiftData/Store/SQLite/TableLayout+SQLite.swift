import GRDB

/// SQLite's statements over a ``TableLayout``: the tables, indices and side tables it creates,
/// and the statements that insert, update, look up and delete rows. The strings a save uses
/// for every row (``sqliteStatements(storedName:entity:selectedColumns:columns:foreignKeys:inHierarchy:upsertConstraint:)``)
/// are made once, when the layout is.
extension TableLayout {
    /// The quoted table name, select list, insert and one-statement upsert of a layout.
    static func sqliteStatements(
        storedName: String, entity: Schema.Entity, selectedColumns: [String], columns: [Column], foreignKeys: [StoredRelationship],
        inHierarchy: Bool, upsertConstraint: [String]?
    ) -> (tableName: String, selectList: String, insert: String, upsert: String?) {
        let table = storedName.quotedDatabaseIdentifier
        let selectList = selectedColumns.map { "\(table).\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        var names = (columns.map(\.name) + foreignKeys.map(\.name)).map(\.quotedDatabaseIdentifier)
        var values = Array(repeating: "?", count: names.count)
        if inHierarchy {
            names.append(entityColumn.quotedDatabaseIdentifier)
            values.append("'\(entity.name.replacingOccurrences(of: "'", with: "''"))'")
        }
        let insert = names.isEmpty
            ? "INSERT INTO \(table) DEFAULT VALUES"
            : "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        let upsert = upsertConstraint.map { constraint in
            insert + " ON CONFLICT (\(constraint.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) DO NOTHING"
        }
        return (table, selectList, insert, upsert)
    }

    /// Deletes the rows with `keyCount` keys, bound in order.
    func deleteSQL(keyCount: Int) -> String {
        "DELETE FROM \(tableName) WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) IN (\(Self.placeholders(keyCount)))"
    }

    /// `?, ?, …`: `count` parameters, for a `VALUES` or `IN` list.
    package static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The key column, qualified with the table's name for queries that join other tables.
    package var qualifiedKeyColumn: String {
        "\(tableName).\(Self.primaryKeyColumn.quotedDatabaseIdentifier)"
    }

    /// The statements creating the table, its indices, join and side tables
    /// (``TableDefinition/creationSQL``).
    var creationSQL: [String] {
        definition.creationSQL
    }

    /// What the layout's table is made of, from its entity alone.
    var definition: TableDefinition {
        TableDefinition(entity: entity, relationships: relationships, tableName: tableName)
    }

    /// The order tables are created in: a hierarchy's root before its subentities.
    static func creationOrder(_ lhs: TableLayout, _ rhs: TableLayout) -> Bool {
        let (left, right) = (lhs.entity.depth, rhs.entity.depth)
        return left != right ? left < right : lhs.entity.name < rhs.entity.name
    }

    /// The names of the indices ``indices`` makes for `entity`, found from the entity alone.
    static func indexNames(of entity: Schema.Entity) -> [String] {
        entity.uniquenessConstraints.map { indexName(entity: entity.name, columns: $0, unique: true) }
            + entity.indices.map { indexName(entity: entity.name, columns: $0, unique: false) }
            + entity.declaredRelationships.filter(\.isToOne).map { foreignKeyIndexName(entity: entity.name, relationship: $0.name) }
    }

    static func indexName(entity: String, columns: [String], unique: Bool) -> String {
        "\(entity)_\(unique ? "unique" : "index")_\(columns.joined(separator: "_"))"
    }

    static func foreignKeyIndexName(entity: String, relationship: String) -> String {
        "\(entity)_key_\(relationship)"
    }

    /// The quoted name of the side table of an attribute with `.externalStorage`.
    func externalTableName(_ column: Column) -> String {
        Self.externalTableName(entity: entity.name, attribute: column.name)
    }

    static func externalTableName(entity: String, attribute: String) -> String {
        unquotedExternalTableName(entity: entity, attribute: attribute).quotedDatabaseIdentifier
    }

    /// `CREATE TABLE` of an external attribute's side table.
    func externalTableSQL(_ column: Column) -> String {
        definition.externalTableSQL(attribute: column.name, storage: column.codec.storage)
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
        definition.indexDefinition(columns: constraint, unique: true).sql
    }

    /// For a class of a hierarchy, the statement giving a row (its key the argument) this
    /// class: an insert that updates a stored row makes it an instance of the inserted class.
    var setClassSQL: String? {
        guard hierarchyEntities != nil else { return nil }
        return "UPDATE \(tableName) SET \(Self.entityColumn.quotedDatabaseIdentifier) = '\(entity.name.replacingOccurrences(of: "'", with: "''"))' WHERE \(Self.primaryKeyColumn.quotedDatabaseIdentifier) = ?"
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

    /// What `column` stores for the model's value, or an error naming the property when it has
    /// none (non-optional) or cannot be encoded.
    package func encode(_ state: ModelState, _ column: Column) throws -> DatabaseValue {
        try storedValue(of: state, column).databaseValue
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
        try bindEncoded(state, column, to: statement, at: position)
    }

    /// ``bind(_:_:to:at:)`` for a value its slot cannot give as it is. Kept out of line, so
    /// that the path every integer, real and text takes stays small enough to be inlined into
    /// the save's loops.
    @inline(never)
    private func bindEncoded(_ state: ModelState, _ column: Column, to statement: RawStatement, at position: Int32) throws {
        try encoding(state, column, passingThrough: { $0 is DatabaseError }) { try statement.bind($0, as: column.codec, at: position) }
    }
}
