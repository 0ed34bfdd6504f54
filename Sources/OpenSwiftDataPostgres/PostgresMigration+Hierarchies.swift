import Foundation
import OpenSwiftData

// Class hierarchies' tables in a PostgreSQL migration: one table per hierarchy, its root's,
// holding every class's columns and `_entity`, changed as the SQLite store changes it.
extension PostgresMigration {
    /// What a step does to class hierarchies' tables, as the SQLite store does: a new hierarchy's
    /// table made; an existing one (or a flat entity's, gaining subentities) added to: `_entity`
    /// (the existing rows are the root's), the columns of new subentities and attributes (a
    /// subentity's hold `NULL` in other classes' rows), key columns, indices, join and side
    /// tables; a flat entity's rows moved in (``movedIn(_:into:tables:oldTables:step:layouts:)``);
    /// a removed subentity's rows deleted (a drop, under `allowsDestructiveMigration`). Every
    /// other change of a hierarchy is refused, as on SQLite.
    func hierarchyChanges(
        of step: PlannedSchemaStep, tables: PostgresTables, layouts: [String: TableLayout]
    ) throws -> (statements: [String], refusals: [String], entities: Set<String>, dropped: [(entity: String, attribute: String?)]) {
        let oldByName = step.from.entitiesByName
        let oldTables = PostgresTables(databaseSchema: databaseSchema, schema: step.from)
        let isInHierarchy = { (entity: Schema.Entity) in entity.superentity != nil || !entity.subentities.isEmpty }
        var statements: [String] = []
        var dropped: [(entity: String, attribute: String?)] = []
        var refusals = TableRestructuring.hierarchyProblems(from: step.from.entities, to: step.to, toName: step.toName)
        var entities: Set<String> = []
        for root in step.to.entities where root.superentity == nil && (isInHierarchy(root) || oldByName[root.name].map(isInHierarchy) == true) {
            let members = root.selfAndDescendants
            entities.formUnion(members.map(\.name))
            let movingIn = members.filter { member in
                guard member !== root, let previous = oldByName[member.name] else { return false }
                return previous.superentity == nil && previous.subentities.isEmpty
            }
            guard let previousRoot = oldByName[root.name] else {
                statements.append(tables.tableSQL(root: root))
                for member in movingIn {
                    statements += try movedIn(oldByName[member.name]!, into: root, tables: tables, oldTables: oldTables, step: step, layouts: layouts)
                }
                // A moved entity's join tables stay as they are.
                let had = Set(movingIn.flatMap { oldTables.joinTableSQL(oldByName[$0.name]!) })
                for member in members {
                    statements += (tables.indexSQL(member) + tables.joinTableSQL(member) + tables.externalTableSQL(member)).filter { !had.contains($0) }
                }
                continue
            }
            entities.formUnion(previousRoot.selfAndDescendants.map(\.name))
            let table = tables.table(root.name)
            // A subentity the plan removes goes with its rows (and their join rows), as on
            // SQLite; its columns stay, holding NULL.
            let removed = previousRoot.selfAndDescendants.filter { step.to.entitiesByName[$0.name] == nil }
            if !removed.isEmpty {
                dropped += removed.map { ($0.name, nil) }
                let classes = removed.map { PostgresNames.literal($0.name) }.joined(separator: ", ")
                let rows = "SELECT \"_pk\" FROM \(table) WHERE \"_entity\" IN (\(classes))"
                for entity in step.from.entities {
                    for relationship in entity.declaredRelationships {
                        let storage = RelationshipStorage(relationship, of: entity, destination: step.from.entitiesByName[relationship.destination])
                        guard storage.createsJoinTable, case .joinTable(let name, let own, let other) = storage else { continue }
                        let join = oldTables.table(name)
                        if removed.contains(where: { $0.name == entity.name }) {
                            statements.append("DELETE FROM \(join) WHERE \(PostgresNames.quoted(own)) IN (\(rows))")
                        }
                        if removed.contains(where: { $0.name == relationship.destination }) {
                            statements.append("DELETE FROM \(join) WHERE \(PostgresNames.quoted(other)) IN (\(rows))")
                        }
                    }
                }
                statements.append("DELETE FROM \(table) WHERE \"_entity\" IN (\(classes))")
            }
            let existing = Set(oldTables.columns(ofTableOf: previousRoot).map(\.name))
            for column in tables.columns(ofTableOf: root) where !existing.contains(column.name) {
                if column.name == TableLayout.entityColumn {
                    // The rows already there are the root's; old servers insert theirs as its too.
                    statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(column.name)) text NOT NULL DEFAULT \(PostgresNames.literal(root.name))")
                } else if column.constraints.hasSuffix(" NOT NULL"), let attribute = root.attributesByName[column.name] {
                    guard let fill = try defaultLiteral(of: attribute, layout: layouts[root.name], entity: root.name) else {
                        refusals.append("\(root.name).\(attribute.name) is added (\(step.toName)) without a default value to a class hierarchy's table, and the rows already stored have none to take; declare a default, or make it optional")
                        continue
                    }
                    statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(column.name)) \(column.type) DEFAULT \(fill)\(column.constraints)")
                } else {
                    statements.append("ALTER TABLE \(table) ADD COLUMN \(PostgresNames.quoted(column.name)) \(column.type)\(column.constraints)")
                }
            }
            for member in movingIn {
                statements += try movedIn(oldByName[member.name]!, into: root, tables: tables, oldTables: oldTables, step: step, layouts: layouts)
            }
            // What the members now have that the old ones did not: indices, join and side tables.
            let had = Set((previousRoot.selfAndDescendants + movingIn.map { oldByName[$0.name]! }).flatMap {
                oldTables.indexSQL($0) + oldTables.joinTableSQL($0) + oldTables.externalTableSQL($0)
            })
            for member in members {
                statements += (tables.indexSQL(member) + tables.joinTableSQL(member) + tables.externalTableSQL(member)).filter { !had.contains($0) }
            }
        }
        return (statements, refusals, entities, dropped)
    }

    /// Moves the rows of `previous`, a flat entity that is now a subentity, into the hierarchy's
    /// table as SQLite does: each takes a new key from the table's identity sequence (the
    /// hierarchy's rows keep theirs), every stored reference to it (a to-one key in any table,
    /// either column of a join table) is rewritten to the new key, and its own table goes. A
    /// column the hierarchy requires that its rows have no value for takes the attribute's
    /// default; without one, rows to move make the step fail, naming the column.
    private func movedIn(
        _ previous: Schema.Entity, into root: Schema.Entity, tables: PostgresTables, oldTables: PostgresTables, step: PlannedSchemaStep,
        layouts: [String: TableLayout]
    ) throws -> [String] {
        let keys = PostgresNames.quoted("_osd_moved_keys")
        let (oldTable, table) = (oldTables.table(previous.name), tables.table(root.name))
        let sequence = "pg_get_serial_sequence(\(PostgresNames.literal(table)), '_pk')"
        var statements = [
            "CREATE TEMP TABLE \(keys) ON COMMIT DROP AS SELECT old, nextval(\(sequence)) AS new FROM (SELECT \"_pk\" AS old FROM \(oldTable) ORDER BY \"_pk\") AS moved"
        ]
        let stored = Set(oldTables.columns(ofTableOf: previous).filter { !$0.constraints.contains("GENERATED") }.map(\.name)).subtracting(["_pk"])
        var columns: [String] = []
        var values: [String] = []
        for column in tables.columns(ofTableOf: root) where !column.constraints.contains("GENERATED") && column.name != "_pk" {
            if column.name == TableLayout.entityColumn {
                (columns, values) = (columns + [column.name], values + [PostgresNames.literal(previous.name)])
            } else if stored.contains(column.name) {
                (columns, values) = (columns + [column.name], values + ["o." + PostgresNames.quoted(column.name)])
            } else if column.constraints.hasSuffix(" NOT NULL"), let attribute = root.attributesByName[column.name],
                      let fill = try defaultLiteral(of: attribute, layout: layouts[root.name], entity: root.name) {
                (columns, values) = (columns + [column.name], values + [fill])
            }
        }
        statements.append(
            "INSERT INTO \(table) (\"_pk\"\(columns.map { ", " + PostgresNames.quoted($0) }.joined())) OVERRIDING SYSTEM VALUE SELECT m.new\(values.map { ", " + $0 }.joined()) FROM \(oldTable) AS o JOIN \(keys) AS m ON m.old = o.\"_pk\"")
        // References to the moved rows, as the old schema stored them, in the tables they are in now.
        var rewritten: Set<String> = []
        func rewrite(_ owner: String, _ column: String) {
            guard rewritten.insert(owner + "." + column).inserted else { return }
            let quoted = PostgresNames.quoted(column)
            statements.append("UPDATE \(owner) AS t SET \(quoted) = m.new FROM \(keys) AS m WHERE t.\(quoted) = m.old")
        }
        for entity in step.from.entities {
            for relationship in entity.relationshipsInOrder {
                let storage = RelationshipStorage(relationship, of: entity, destination: step.from.entitiesByName[relationship.destination])
                switch storage {
                case .foreignKey(let column) where relationship.destination == previous.name:
                    let owner = step.to.entitiesByName[entity.name]?.rootEntity.name ?? entity.name
                    rewrite(tables.table(owner), column)
                case .joinTable(let name, let ownColumn, let otherColumn):
                    if relationship.destination == previous.name { rewrite(oldTables.table(name), otherColumn) }
                    if entity.name == previous.name { rewrite(oldTables.table(name), ownColumn) }
                default:
                    continue
                }
            }
        }
        statements += ["DROP TABLE \(oldTable)", "DROP TABLE \(keys)"]
        return statements
    }
}
