import Foundation
import OpenSwiftData
import PostgresNIO

/// Brings a PostgreSQL store's tables from its recorded schema to the models', inside the
/// opening transaction that holds the store's advisory lock: the planner decides the steps
/// (with every refusal it makes from structure alone), and each step alters the tables in
/// place, as PostgreSQL can: entities created and dropped, attributes added (`ADD COLUMN …
/// DEFAULT`, no rewrite), renamed, dropped, made optional or non-optional (rows holding `NULL`
/// take the default), relationships added, renamed and dropped, indices and unique constraints
/// created and dropped.
///
/// In a custom stage's step, what the old models may still read waits until `didMigrate` has
/// run (``StepPlan/afterStage``): dropped columns and tables stay, new non-optional attributes
/// start with their type's empty value (or `NULL` for a `Codable` one) for the stage to fill,
/// and `NOT NULL`, indices and unique constraints over them come after. Renamed columns are
/// renamed before, and the old models read them under their new names.
///
/// A step that drops stored values (an entity, an attribute, a relationship) runs only when the
/// configuration allows it (`allowsDestructiveMigration`): a PostgreSQL store has no file to
/// copy beside it, so the refusal says to take a dump first. What it cannot do (as on SQLite, a
/// type change and other hierarchy changes) is refused before any table changes or any stage's
/// code runs, naming each change.
struct PostgresMigration {
    let databaseSchema: String
    let place: String
    let allowsDestructiveMigration: Bool

    /// What one step runs, and what it drops with stored values: entities (`attribute` nil),
    /// attributes and relationships.
    struct StepPlan {
        /// Before the stage's `didMigrate` (after its `willMigrate`).
        var statements: [String] = []
        /// After the stage's `didMigrate`: empty for a step without a stage.
        var afterStage: [String] = []
        var dropped: [(entity: String, attribute: String?)] = []
        /// The non-optional columns that `didMigrate` must give each row a value in, before
        /// `afterStage` makes them `NOT NULL`: entity, attribute, qualified table, column.
        var awaitingValues: [(entity: String, attribute: String, table: String, column: String)] = []
        /// The columns the step renames, by entity: the old name to the new.
        var renamedColumns: [String: [String: String]] = [:]
        /// The unique indices the step creates, by statement: the entity and its constraint.
        var uniqueIndices: [String: (entity: String, constraint: [String])] = [:]
        /// The new unique constraints over columns the table already holds, which its stored
        /// rows must not repeat: the table and each column's stored name (and whether it is text).
        var newUniqueConstraints: [(entity: String, constraint: [String], table: String, columns: [(name: String, isText: Bool)])] = []
    }

    /// The statements of `step`, and what it drops.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what the store cannot
    ///   migrate, or may not without `allowsDestructiveMigration`, and the way around.
    func plan(of step: PlannedSchemaStep) throws -> StepPlan {
        let tables = PostgresTables(databaseSchema: databaseSchema, schema: step.to)
        let comparison = SchemaComparison(from: step.from, to: step.to)
        // A stage's code fills what a lightweight step cannot invent.
        var refusals = step.isCustom ? comparison.blockersNoStageResolves : comparison.blockers
        let oldByName = step.from.entitiesByName
        let layouts = TableLayout.layouts(of: step.to)
        var plan = StepPlan()
        var statements: [String] = []
        // What the old models may still read, or the stage must fill first: after the stage.
        var later: [String] = []
        var dropped: [(entity: String, attribute: String?)] = []
        let newNames = Set(step.to.entities.map(\.name))
        // Class hierarchies' tables are added to (their own pass); their entities skip the rest.
        let hierarchies = try hierarchyChanges(of: step, tables: tables, layouts: layouts)
        statements += hierarchies.statements
        refusals += hierarchies.refusals
        dropped += hierarchies.dropped
        for entity in step.from.entities where !newNames.contains(entity.name) && !hierarchies.entities.contains(entity.name) {
            dropped.append((entity.name, nil))
            let old = PostgresTables(databaseSchema: databaseSchema, schema: step.from)
            later += entity.declaredRelationships.compactMap { joinTable(old, entity, $0) }.map { "DROP TABLE \($0)" }
            later += entity.declaredAttributes.filter { $0.options.contains(.externalStorage) }.map {
                "DROP TABLE \(old.table(PostgresTables.externalTableName(entity: entity.name, attribute: $0.name)))"
            }
            if entity.superentity == nil { later.append("DROP TABLE \(old.table(entity.name))") }
        }
        for entity in step.to.entities where !hierarchies.entities.contains(entity.name) {
            guard let previous = oldByName[entity.name] else {
                statements.append(tables.tableSQL(root: entity))
                statements += tables.indexSQL(entity) + tables.joinTableSQL(entity) + tables.externalTableSQL(entity)
                continue
            }
            let table = tables.table(entity.name)
            var continued: Set<String> = []
            for attribute in entity.attributesInOrder {
                guard let before = previous.attribute(continuedBy: attribute) else {
                    guard step.isCustom, !attribute.isOptional, !attribute.options.contains(.externalStorage),
                          try defaultLiteral(of: attribute, layout: layouts[entity.name], entity: entity.name) == nil
                    else {
                        statements += try added(attribute, of: entity, table: table, tables: tables, layout: layouts[entity.name])
                        continue
                    }
                    // The stage fills it: rows start with the type's empty value, or NULL.
                    let (column, columnSQL) = (PostgresNames.quoted(attribute.name), try addedForStage(attribute, of: entity, layout: layouts[entity.name]))
                    statements += columnSQL.map { "ALTER TABLE \(table) ADD COLUMN \($0)" }
                    if columnSQL[0].hasSuffix(" NOT NULL") {
                        statements.append("ALTER TABLE \(table) ALTER COLUMN \(column) DROP DEFAULT")
                    } else {
                        plan.awaitingValues.append((entity.name, attribute.name, table, attribute.name))
                        later.append("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
                    }
                    continue
                }
                continued.insert(before.name)
                if before.options.contains(.externalStorage) != attribute.options.contains(.externalStorage) {
                    // The values move between the table and the side table; the place they
                    // leave goes once the stage (if any) is done.
                    let oldSide = PostgresTables(databaseSchema: databaseSchema, schema: step.from)
                        .table(PostgresTables.externalTableName(entity: entity.name, attribute: before.name))
                    let (oldColumn, newColumn) = (PostgresNames.quoted(before.name), PostgresNames.quoted(attribute.name))
                    if let sideTable = tables.externalTableSQL(entity, attribute) {
                        let newSide = tables.table(PostgresTables.externalTableName(entity: entity.name, attribute: attribute.name))
                        statements.append(sideTable)
                        statements.append("INSERT INTO \(newSide) (\"_pk\", \"value\") SELECT \"_pk\", \(oldColumn) FROM \(table) WHERE \(oldColumn) IS NOT NULL")
                        later += PostgresTables.columns(of: before, required: false).reversed().map { "ALTER TABLE \(table) DROP COLUMN \(PostgresNames.quoted($0.name))" }
                    } else {
                        statements += PostgresTables.columns(of: attribute, required: false).map {
                            "ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted($0.name)) \($0.type)\($0.constraints)"
                        }
                        statements.append("UPDATE \(table) SET \(newColumn) = s.\"value\" FROM \(oldSide) s WHERE s.\"_pk\" = \(table).\"_pk\"")
                        if !attribute.isOptional { later.append("ALTER TABLE \(table) ALTER COLUMN \(newColumn) SET NOT NULL") }
                        later.append("DROP TABLE \(oldSide)")
                    }
                    continue
                }
                if before.name != attribute.name {
                    if attribute.options.contains(.externalStorage) {
                        statements.append("ALTER TABLE \(tables.table(PostgresTables.externalTableName(entity: entity.name, attribute: before.name))) RENAME TO \(PostgresNames.quoted(PostgresTables.externalTableName(entity: entity.name, attribute: attribute.name)))")
                    } else {
                        for (old, new) in zip(PostgresTables.columns(of: before, required: false), PostgresTables.columns(of: attribute, required: false)) {
                            plan.renamedColumns[entity.name, default: [:]][old.name] = new.name
                            statements.append("ALTER TABLE \(table) RENAME COLUMN \(PostgresNames.quoted(old.name)) TO \(PostgresNames.quoted(new.name))")
                        }
                    }
                }
                guard !attribute.options.contains(.externalStorage), before.isOptional != attribute.isOptional else { continue }
                let column = PostgresNames.quoted(attribute.name)
                if attribute.isOptional {
                    statements.append("ALTER TABLE \(table) ALTER COLUMN \(column) DROP NOT NULL")
                } else if let fill = try defaultLiteral(of: attribute, layout: layouts[entity.name], entity: entity.name) {
                    statements.append("UPDATE \(table) SET \(column) = \(fill) WHERE \(column) IS NULL")
                    statements.append("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
                } else if step.isCustom {
                    // The stage gives the rows holding NULL a value.
                    plan.awaitingValues.append((entity.name, attribute.name, table, attribute.name))
                    later.append("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
                } else {
                    statements.append("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
                }
            }
            for attribute in previous.attributesInOrder where !continued.contains(attribute.name) {
                dropped.append((entity.name, attribute.name))
                if attribute.options.contains(.externalStorage) {
                    later.append("DROP TABLE \(tables.table(PostgresTables.externalTableName(entity: entity.name, attribute: attribute.name)))")
                } else {
                    later += PostgresTables.columns(of: attribute, required: false).reversed().map { "ALTER TABLE \(table) DROP COLUMN \(PostgresNames.quoted($0.name))" }
                }
            }
            var continuedRelationships: Set<String> = []
            let old = PostgresTables(databaseSchema: databaseSchema, schema: step.from)
            for relationship in entity.relationshipsInOrder {
                guard let before = previous.relationship(continuedBy: relationship) else {
                    if relationship.isToOneRelationship {
                        statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(relationship.name)) bigint")
                        statements.append(tables.keyIndexSQL(entity, relationship))
                    } else {
                        statements += tables.joinTableSQL(entity, relationship)
                    }
                    continue
                }
                continuedRelationships.insert(before.name)
                guard before.name != relationship.name else { continue }
                if relationship.isToOneRelationship {
                    plan.renamedColumns[entity.name, default: [:]][before.name] = relationship.name
                    statements.append("ALTER TABLE \(table) RENAME COLUMN \(PostgresNames.quoted(before.name)) TO \(PostgresNames.quoted(relationship.name))")
                } else if let oldJoin = joinTable(old, previous, before), let newJoin = joinTableName(tables, entity, relationship), oldJoin != tables.table(newJoin) {
                    statements.append("ALTER TABLE \(oldJoin) RENAME TO \(PostgresNames.quoted(newJoin))")
                }
            }
            for relationship in previous.relationshipsInOrder where !continuedRelationships.contains(relationship.name) {
                dropped.append((entity.name, relationship.name))
                if relationship.isToOneRelationship {
                    later.append("ALTER TABLE \(table) DROP COLUMN \(PostgresNames.quoted(relationship.name))")
                } else if let join = joinTable(old, previous, relationship) {
                    later.append("DROP TABLE IF EXISTS \(join)")
                }
            }
            let oldIndices = Set(previous.indices), newIndices = Set(entity.indices)
            let oldUnique = Set(previous.uniquenessConstraints), newUnique = Set(entity.uniquenessConstraints)
            for columns in oldIndices.subtracting(newIndices) {
                statements.append("DROP INDEX IF EXISTS \(PostgresNames.qualified(PostgresTables.indexName(entity, columns: columns, unique: false), in: tables.databaseSchema))")
            }
            for columns in oldUnique.subtracting(newUnique) {
                statements.append("DROP INDEX IF EXISTS \(PostgresNames.qualified(PostgresTables.indexName(entity, columns: columns, unique: true), in: tables.databaseSchema))")
            }
            for columns in newIndices.subtracting(oldIndices).sorted(by: { $0.description < $1.description }) {
                later.append(tables.indexSQL(entity, columns: columns, unique: false))
            }
            for columns in newUnique.subtracting(oldUnique).sorted(by: { $0.description < $1.description }) {
                let sql = tables.indexSQL(entity, columns: columns, unique: true)
                later.append(sql)
                plan.uniqueIndices[sql] = (entity.name, columns)
                let stored = columns.compactMap { name -> (name: String, isText: Bool)? in
                    if let attribute = entity.attributesByName[name] {
                        return previous.attribute(continuedBy: attribute).map { ($0.name, ($0.storageType ?? .string) == .string) }
                    }
                    return entity.relationshipsByName[name] != nil && previous.relationshipsByName[name] != nil ? (name, false) : nil
                }
                if stored.count == columns.count { plan.newUniqueConstraints.append((entity.name, columns, table, stored)) }
            }
        }
        guard refusals.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(place) needs the step from \(step.fromName) to \(step.toName), which a PostgreSQL store cannot run:\n"
                    + refusals.map { "- \($0)" }.joined(separator: "\n") + "\nNothing was changed. Migrate the data yourself, or split the change into steps the store runs")
        }
        if !dropped.isEmpty, !allowsDestructiveMigration {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(place) needs the step from \(step.fromName) to \(step.toName), which drops \(dropped.map { item in item.attribute.map { "\(item.entity).\($0)" } ?? "entity \(item.entity)" }.joined(separator: ", ")) with their stored values. A PostgreSQL store has no file to copy beside it first: take a dump (pg_dump --schema=\(databaseSchema)), then open it with a configuration whose allowsDestructiveMigration is true. Nothing was changed")
        }
        // Without a stage nothing waits: the drops and indices follow the rest.
        plan.statements = step.isCustom ? statements : statements + later
        plan.afterStage = step.isCustom ? later : []
        plan.dropped = dropped
        return plan
    }

    /// An added attribute's column (and twin), or side table.
    private func added(
        _ attribute: Schema.Attribute, of entity: Schema.Entity, table: String, tables: PostgresTables, layout: TableLayout?
    ) throws -> [String] {
        if let sideTable = tables.externalTableSQL(entity, attribute) { return [sideTable] }
        let defaultSQL = try defaultLiteral(of: attribute, layout: layout, entity: entity.name)
        return PostgresTables.columns(of: attribute, required: !attribute.isOptional).enumerated().map { index, column in
            // The default goes on the attribute's own column, not its timestamptz twin.
            let defaultClause = index == 0 ? defaultSQL.map { " DEFAULT \($0)" } ?? "" : ""
            return "ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(column.name)) \(column.type)\(defaultClause)\(column.constraints)"
        }
    }

    /// The column definitions (the attribute's, then its twin's) of a non-optional attribute
    /// without a default that a custom stage fills: `NOT NULL DEFAULT` its type's empty value
    /// (the default dropped once added, which keeps the rows' value without rewriting them), or
    /// nullable when the type has none its codec reads back.
    private func addedForStage(_ attribute: Schema.Attribute, of entity: Schema.Entity, layout: TableLayout?) throws -> [String] {
        let codec = layout?.columns.first { $0.name == attribute.name }?.codec
        let literal = try codec.flatMap { codec in
            try codec.emptyStoredValue.flatMap {
                try PostgresValues.constant($0, as: codec.storage, attribute: attribute.name, entity: entity.name)
            }
        }
        return PostgresTables.columns(of: attribute, required: false).enumerated().map { index, column in
            let definition = "\(PostgresNames.quoted(column.name)) \(column.type)\(column.constraints)"
            guard index == 0, let literal else { return definition }
            return definition + " DEFAULT \(literal) NOT NULL"
        }
    }

    /// The qualified join table a relationship's side created; `nil` for the other side and
    /// for relationships without one.
    private func joinTable(_ tables: PostgresTables, _ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String? {
        joinTableName(tables, entity, relationship).map(tables.table)
    }

    private func joinTableName(_ tables: PostgresTables, _ entity: Schema.Entity, _ relationship: Schema.Relationship) -> String? {
        let storage = RelationshipStorage(relationship, of: entity, destination: tables.schema.entitiesByName[relationship.destination])
        guard storage.createsJoinTable, case .joinTable(let name, _, _) = storage else { return nil }
        return name
    }

    /// An added attribute's default as an SQL constant of its column's type; `nil` when it has
    /// none (an optional attribute's rows then hold `NULL`).
    func defaultLiteral(of attribute: Schema.Attribute, layout: TableLayout?, entity: String) throws -> String? {
        guard let value = attribute.defaultValue, let column = layout?.columns.first(where: { $0.name == attribute.name }) else { return nil }
        return try PostgresValues.constant(try column.codec.encode(value), as: column.codec.storage, attribute: attribute.name, entity: entity)
    }
}
