import OpenSwiftData

/// The tables, indices, join and side tables of a schema's entities in one PostgreSQL schema,
/// laid out as the SQLite store lays them out (the DocC article HowValuesAreStored), with
/// PostgreSQL's types (``StorageType/postgresType``):
///
/// - a table per entity, or per class hierarchy (its root's, with `_entity` naming each row's
///   class); `_pk bigint GENERATED ALWAYS AS IDENTITY`, never handing out a key twice;
/// - a column per attribute, a `bigint` key column per to-one relationship (indexed);
/// - beside each `Date` attribute, `<attribute>_timestamptz`, the same instant as a
///   `timestamptz` that PostgreSQL computes, for other SQL clients;
/// - unique indices for `#Unique` and `.unique`, indices for `#Index`, join tables
///   `_osd_join_…(source, target)` and side tables `_osd_external_…` for `.externalStorage`.
///
/// Every name is quoted and shortened to 63 bytes (``PostgresNames``).
struct PostgresTables {
    let databaseSchema: String
    let schema: Schema

    /// The statements that create everything, in order.
    var creationSQL: [String] {
        let entities = schema.entities.sorted { ($0.depth, $0.name) < ($1.depth, $1.name) }
        var statements: [String] = []
        for entity in entities where entity.superentity == nil {
            statements.append(tableSQL(root: entity))
        }
        for entity in entities {
            statements += indexSQL(entity)
            statements += joinTableSQL(entity)
            statements += externalTableSQL(entity)
        }
        return statements
    }

    func table(_ name: String) -> String {
        PostgresNames.qualified(name, in: databaseSchema)
    }

    /// The names of the tables the schema's entities are stored in, unquoted and shortened.
    var tableNames: [String] {
        var names: [String] = []
        for entity in schema.entities {
            if entity.superentity == nil { names.append(PostgresNames.shortened(entity.name)) }
            for relationship in entity.declaredRelationships {
                let storage = RelationshipStorage(relationship, of: entity, destination: schema.entitiesByName[relationship.destination])
                if storage.createsJoinTable, case .joinTable(let name, _, _) = storage { names.append(PostgresNames.shortened(name)) }
            }
            for attribute in entity.declaredAttributes where attribute.options.contains(.externalStorage) {
                names.append(PostgresNames.shortened(Self.externalTableName(entity: entity.name, attribute: attribute.name)))
            }
        }
        return names
    }

    static func externalTableName(entity: String, attribute: String) -> String {
        "_osd_external_\(entity)_\(attribute)"
    }

    func tableSQL(root: Schema.Entity) -> String {
        let definitions = columns(ofTableOf: root).map { "\(PostgresNames.quoted($0.name)) \($0.type)\($0.constraints)" }
        return "CREATE TABLE \(table(root.name)) (\(definitions.joined(separator: ", ")))"
    }

    /// The columns of a hierarchy's (or a flat entity's) table, in order: each name, type (as
    /// PostgreSQL's `format_type` names it) and what follows the type in its definition.
    func columns(ofTableOf root: Schema.Entity) -> [(name: String, type: String, constraints: String)] {
        let hierarchy = root.selfAndDescendants
        var columns = [("_pk", "bigint", " GENERATED ALWAYS AS IDENTITY PRIMARY KEY")]
        if hierarchy.count > 1 { columns.append(("_entity", "text", " NOT NULL")) }
        var seenAttributes: Set<String> = []
        var seenKeys: Set<String> = []
        for member in hierarchy {
            let attributes = member === root ? member.attributesInOrder : member.declaredAttributes
            for attribute in attributes where !attribute.options.contains(.externalStorage) && seenAttributes.insert(attribute.name).inserted {
                // A subclass's column holds NULL in the rows of the other classes.
                columns += Self.columns(of: attribute, required: member === root && !attribute.isOptional)
            }
            let relationships = member === root ? member.relationshipsInOrder : member.declaredRelationships
            for relationship in relationships where relationship.isToOneRelationship && seenKeys.insert(relationship.name).inserted {
                columns.append((relationship.name, "bigint", ""))
            }
        }
        return columns
    }

    /// An attribute's column, and beside a `Date`'s its `timestamptz` twin.
    static func columns(of attribute: Schema.Attribute, required: Bool) -> [(name: String, type: String, constraints: String)] {
        guard let storage = attribute.storageType else { return [] }
        let collation = storage == .string ? " COLLATE \"C\"" : ""
        var columns = [(attribute.name, storage.postgresType, collation + (required ? " NOT NULL" : ""))]
        if storage == .date {
            columns.append((
                attribute.name + "_timestamptz", "timestamp with time zone",
                " GENERATED ALWAYS AS (to_timestamp(\(PostgresNames.quoted(attribute.name)) + 978307200)) STORED"))
        }
        return columns
    }

    func indexSQL(_ entity: Schema.Entity) -> [String] {
        entity.uniquenessConstraints.map { indexSQL(entity, columns: $0, unique: true) }
            + entity.indices.map { indexSQL(entity, columns: $0, unique: false) }
            + entity.declaredRelationships.filter(\.isToOneRelationship).map { keyIndexSQL(entity, $0) }
    }

    /// The name of an entity's index over `columns`.
    static func indexName(_ entity: Schema.Entity, columns: [String], unique: Bool) -> String {
        "\(entity.name)_\(unique ? "unique" : "index")_\(columns.joined(separator: "_"))"
    }

    func indexSQL(_ entity: Schema.Entity, columns: [String], unique: Bool) -> String {
        let name = PostgresNames.quoted(Self.indexName(entity, columns: columns, unique: unique))
        return "CREATE \(unique ? "UNIQUE " : "")INDEX \(name) ON \(table(entity.rootEntity.name)) (\(columns.map(PostgresNames.quoted).joined(separator: ", ")))"
    }

    /// The index of a to-one relationship's key column, by which the inverse side is found.
    func keyIndexSQL(_ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String {
        let name = PostgresNames.quoted("\(entity.name)_key_\(relationship.name)")
        return "CREATE INDEX \(name) ON \(table(entity.rootEntity.name)) (\(PostgresNames.quoted(relationship.name)))"
    }

    func joinTableSQL(_ entity: Schema.Entity) -> [String] {
        entity.declaredRelationships.flatMap { joinTableSQL(entity, $0) }
    }

    /// The join table of a relationship, when this side is the one that creates it.
    func joinTableSQL(_ entity: Schema.Entity, _ relationship: Schema.Relationship) -> [String] {
        let storage = RelationshipStorage(relationship, of: entity, destination: schema.entitiesByName[relationship.destination])
        guard storage.createsJoinTable, case .joinTable(let name, _, _) = storage else { return [] }
        return [
            "CREATE TABLE \(table(name)) (\"source\" bigint NOT NULL, \"target\" bigint NOT NULL, PRIMARY KEY (\"source\", \"target\"))",
            "CREATE INDEX \(PostgresNames.quoted(name + "_target")) ON \(table(name)) (\"target\", \"source\")",
        ]
    }

    func externalTableSQL(_ entity: Schema.Entity) -> [String] {
        entity.declaredAttributes.compactMap { externalTableSQL(entity, $0) }
    }

    /// The side table of an `.externalStorage` attribute; `nil` for any other.
    func externalTableSQL(_ entity: Schema.Entity, _ attribute: Schema.Attribute) -> String? {
        guard attribute.options.contains(.externalStorage), let storage = attribute.storageType else { return nil }
        let name = table(Self.externalTableName(entity: entity.name, attribute: attribute.name))
        return "CREATE TABLE \(name) (\"_pk\" bigint PRIMARY KEY REFERENCES \(table(entity.rootEntity.name)) (\"_pk\") ON DELETE CASCADE, \"value\" \(storage.postgresType))"
    }
}
