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
