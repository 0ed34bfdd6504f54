import Foundation
import OpenSwiftData
import PostgresNIO

/// Brings a PostgreSQL store's tables from its recorded schema to the models', inside the
/// opening transaction that holds the store's advisory lock: the planner decides the steps
/// (with every refusal it makes from structure alone), and each step alters the tables in place.
///
/// For now the steps a PostgreSQL store runs are expand steps (``SchemaComparison/keepsPreviousVersionRunning``):
/// entities, optional or defaulted attributes (`ADD COLUMN … DEFAULT`, no rewrite), optional
/// relationships and indices added, indices and unique constraints removed. Anything else (a
/// drop, a rename, a type change, a custom stage) is refused before any table changes, naming
/// each change; the transaction then ends with nothing changed.
struct PostgresMigration {
    let steps: [PlannedSchemaStep]
    let databaseSchema: String
    let place: String

    /// The SQL of every step, in order.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what a PostgreSQL store
    ///   cannot migrate yet, and the way around.
    func statements() throws -> [String] {
        var statements: [String] = []
        for step in steps {
            statements += try Self.statements(for: step, in: PostgresTables(databaseSchema: databaseSchema, schema: step.to), place: place)
        }
        return statements
    }

    private static func statements(for step: PlannedSchemaStep, in tables: PostgresTables, place: String) throws -> [String] {
        let comparison = SchemaComparison(from: step.from, to: step.to)
        var refusals = comparison.blockers + comparison.breaksPreviousVersion
        if step.isCustom { refusals.append("the step runs the plan's custom stage, whose code a PostgreSQL store does not run yet") }
        let oldByName = step.from.entitiesByName
        let touchesHierarchy = step.to.entities.contains { entity in
            entity.superentity != nil || !entity.subentities.isEmpty || oldByName[entity.name].map { $0.superentity != nil || !$0.subentities.isEmpty } == true
        }
        if touchesHierarchy, !comparison.changes.isEmpty {
            refusals.append("the step changes a class hierarchy's table, which a PostgreSQL store does not migrate yet")
        }
        guard refusals.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(place) needs the step from \(step.fromName) to \(step.toName); a PostgreSQL store migrates expand steps only for now (entities, optional or defaulted attributes, optional relationships and indices added), and this step also has:\n"
                    + refusals.map { "- \($0)" }.joined(separator: "\n")
                    + "\nNothing was changed. Ship the change as expand steps (add beside, drop in a later version once every server runs the new one), or migrate the data yourself")
        }
        let layouts = TableLayout.layouts(of: step.to)
        var statements: [String] = []
        for entity in step.to.entities {
            guard let previous = oldByName[entity.name] else {
                statements.append(tables.tableSQL(root: entity))
                statements += tables.indexSQL(entity) + tables.joinTableSQL(entity) + tables.externalTableSQL(entity)
                continue
            }
            let table = tables.table(entity.name)
            for attribute in entity.attributesInOrder where previous.attribute(continuedBy: attribute) == nil {
                if let sideTable = tables.externalTableSQL(entity, attribute) {
                    statements.append(sideTable)
                    continue
                }
                let defaultSQL = try defaultLiteral(of: attribute, layout: layouts[entity.name], entity: entity.name)
                for (index, column) in PostgresTables.columns(of: attribute, required: !attribute.isOptional).enumerated() {
                    // The default goes on the attribute's own column, not its timestamptz twin.
                    let defaultClause = index == 0 ? defaultSQL.map { " DEFAULT \($0)" } ?? "" : ""
                    statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(column.name)) \(column.type)\(defaultClause)\(column.constraints)")
                }
            }
            for relationship in entity.relationshipsInOrder where previous.relationship(continuedBy: relationship) == nil {
                if relationship.isToOneRelationship {
                    statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(relationship.name)) bigint")
                    statements.append(tables.keyIndexSQL(entity, relationship))
                } else {
                    statements += tables.joinTableSQL(entity, relationship)
                }
            }
            let oldIndices = Set(previous.indices), newIndices = Set(entity.indices)
            let oldUnique = Set(previous.uniquenessConstraints), newUnique = Set(entity.uniquenessConstraints)
            for columns in oldIndices.subtracting(newIndices) {
                statements.append("DROP INDEX \(PostgresNames.qualified(PostgresTables.indexName(entity, columns: columns, unique: false), in: tables.databaseSchema))")
            }
            for columns in oldUnique.subtracting(newUnique) {
                statements.append("DROP INDEX \(PostgresNames.qualified(PostgresTables.indexName(entity, columns: columns, unique: true), in: tables.databaseSchema))")
            }
            for columns in newIndices.subtracting(oldIndices).sorted(by: { $0.description < $1.description }) {
                statements.append(tables.indexSQL(entity, columns: columns, unique: false))
            }
        }
        return statements
    }

    /// An added attribute's default as an SQL constant of its column's type; `nil` when it has
    /// none (an optional attribute's rows then hold `NULL`).
    private static func defaultLiteral(of attribute: Schema.Attribute, layout: TableLayout?, entity: String) throws -> String? {
        guard let value = attribute.defaultValue, let column = layout?.columns.first(where: { $0.name == attribute.name }) else { return nil }
        let stored = try column.codec.encode(value)
        let storage = column.codec.storage
        var binds = PostgresBindings()
        try PostgresValues.bind(stored, as: storage, into: &binds, attribute: attribute.name, entity: entity)
        switch (stored, storage) {
        case (.null, _): return nil
        case (.integer(let int), .bool): return int != 0 ? "TRUE" : "FALSE"
        case (.integer(let int), _): return String(int)
        case (.real(let double), _):
            return double == .infinity ? "'Infinity'::double precision" : double == -.infinity ? "'-Infinity'::double precision" : "'\(double)'::\(storage.postgresType)"
        case (.text(let text), .decimal):
            return "'\(OrderedDecimalText.decimal(from: text)?.description ?? "0")'::numeric"
        case (.text(let text), .codable):
            return PostgresNames.literal(text) + "::jsonb"
        case (.text(let text), _):
            return PostgresNames.literal(text)
        case (.blob(let data), .uuid) where data.count == 16:
            return "'" + data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString + "'::uuid"
        case (.blob(let data), _):
            return "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea"
        }
    }
}
