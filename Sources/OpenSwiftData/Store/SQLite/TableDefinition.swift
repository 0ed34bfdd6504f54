import GRDB

/// The SQLite table of one entity, its indices, join tables and side tables, as the schema
/// alone describes them: what a new store or a migration creates (``TableLayout`` creates
/// through it), and what a store written without the app's model classes is made of.
///
/// A table is `_pk INTEGER PRIMARY KEY AUTOINCREMENT`, a column per attribute kept in the table
/// (`NOT NULL` unless optional), then an `INTEGER` key column per to-one relationship; a
/// hierarchy's root table adds `_entity` and every class's columns.
struct TableDefinition {
    let entity: Schema.Entity
    /// The entity's relationships as stored (their join tables).
    let relationships: [StoredRelationship]
    /// SQLite's quoted table name: the entity's, or for a class of a hierarchy its root's.
    let tableName: String

    init(entity: Schema.Entity, relationships: [StoredRelationship], tableName: String) {
        self.entity = entity
        self.relationships = relationships
        self.tableName = tableName
    }

    /// The definition of `entity` of `schema`, with no model class.
    init(entity: Schema.Entity, schema: Schema) {
        let relationships = entity.relationshipsInOrder.map {
            StoredRelationship($0, of: entity, propertyIndex: -1, destination: schema.entitiesByName[$0.destination])
        }
        self.init(entity: entity, relationships: relationships, tableName: entity.rootEntity.name.quotedDatabaseIdentifier)
    }

    /// The attributes kept in the table, in declaration order.
    var columns: [Schema.Attribute] {
        entity.attributesInOrder.filter { $0.storageType != nil && !$0.options.contains(.externalStorage) }
    }

    /// The attributes kept outside the table, each in its own side table.
    var externalColumns: [Schema.Attribute] {
        entity.attributesInOrder.filter { $0.storageType != nil && $0.options.contains(.externalStorage) }
    }

    var foreignKeys: [StoredRelationship] { relationships.filter(\.isToOne) }

    private var isInHierarchy: Bool { !entity.rootEntity.subentities.isEmpty }

    /// `CREATE TABLE` and `CREATE INDEX` statements of the table, its join and side tables, for a
    /// new store and for a migration (everything but the table itself is `IF NOT EXISTS`). A
    /// subentity's table is its root's: its statements are its indices and join tables, run
    /// after the root's (``TableLayout/creationOrder(_:_:)``).
    var creationSQL: [String] {
        if entity.superentity != nil { return Array(creationSQLAfterTable) }
        if isInHierarchy {
            let (attributes, foreignKeys) = TableLayout.hierarchyColumns(entity.rootEntity.selfAndDescendants)
            let own = Set(entity.attributesInOrder.map(\.name))
            var definitions = ["\(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier) INTEGER PRIMARY KEY AUTOINCREMENT"]
            definitions.append("\(TableLayout.entityColumn.quotedDatabaseIdentifier) TEXT NOT NULL")
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

    /// The statements of ``creationSQL`` after the table's own: indices, join and side tables.
    private var creationSQLAfterTable: [String] {
        Array(flatCreationSQL.dropFirst())
    }

    private var flatCreationSQL: [String] {
        // AUTOINCREMENT: a deleted row's key is never given to a later row, so an identifier
        // held elsewhere (another actor, another process, UserDefaults) can never name a
        // different model; without it SQLite reuses the largest key once that row is deleted.
        var definitions = ["\(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier) INTEGER PRIMARY KEY AUTOINCREMENT"]
        for column in columns {
            definitions.append(
                "\(column.name.quotedDatabaseIdentifier) \((column.storageType ?? .string).sqlType)\(column.isOptional ? "" : " NOT NULL")")
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
        statements += externalColumns.map { externalTableSQL(attribute: $0.name, storage: $0.storageType ?? .data) }
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
            let name = TableLayout.foreignKeyIndexName(entity: entity.name, relationship: foreignKey.name)
            indices.append((name, "CREATE INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) ON \(tableName) (\(foreignKey.name.quotedDatabaseIdentifier))"))
        }
        return indices
    }

    /// `CREATE TABLE` of an external attribute's side table: a row per saved model (`NULL` for
    /// `nil`), deleted with the model's row.
    func externalTableSQL(attribute: String, storage: StorageType) -> String {
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        return "CREATE TABLE IF NOT EXISTS \(TableLayout.externalTableName(entity: entity.name, attribute: attribute)) (\(key) INTEGER PRIMARY KEY REFERENCES \(tableName)(\(key)) ON DELETE CASCADE, \"value\" \(storage.sqlType))"
    }

    func indexDefinition(columns: [String], unique: Bool) -> (name: String, sql: String) {
        let name = TableLayout.indexName(entity: entity.name, columns: columns, unique: unique)
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return (name, "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) ON \(tableName) (\(list))")
    }
}
