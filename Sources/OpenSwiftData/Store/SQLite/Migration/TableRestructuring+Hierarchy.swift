import Foundation
import GRDB

// The tables of class hierarchies: one per hierarchy, its root's, holding every class's columns
// and `_entity`. A step changes one in place by adding what it lacks: a flat entity gaining
// subentities (its rows stay instances of it), a hierarchy gaining subentities or properties.
// The other changes of a hierarchy's structure are refused before anything is written.
extension TableRestructuring {
    /// Whether the entity is stored in a hierarchy's table, in the new schema or the old.
    static func isInHierarchy(_ entity: Schema.Entity) -> Bool {
        entity.superentity != nil || !entity.subentities.isEmpty
    }

    /// ``hierarchyProblems()`` of a step from `old` to `new`, for a store of another database.
    package static func hierarchyProblems(from old: [Schema.Entity], to new: Schema, toName: String) -> [String] {
        TableRestructuring(from: old, to: new, preparesForCustomStage: false, dropsRemovedEntities: true, fromName: "", toName: toName)
            .hierarchyProblems()
    }

    /// The changes of hierarchies between the old entities and the new that this build does not
    /// carry out, each naming the entity and the way through.
    func hierarchyProblems() -> [String] {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        for entity in new.entities {
            let previous = oldByName[entity.name]
            if entity.superentity == nil, !entity.subentities.isEmpty, let previous {
                problems += Self.ownChanges(of: entity, from: previous, toName: toName)
            } else if let superentity = entity.superentity, let previous {
                if previous.superentityName == nil, previous.subentities.isEmpty {
                    problems += Self.problemsMovingIn(previous, as: entity, toName: toName)
                } else if previous.superentityName != superentity.name {
                    problems.append(
                        "\(entity.name) becomes a subentity of \(superentity.name) (\(toName)) but its rows are stored \(previous.superentityName.map { "as a subentity of \($0)" } ?? "in a table of their own"); moving rows into another class hierarchy is not supported yet: create the new class's models from the old ones in a custom stage (or a transform), in a version where both entities exist, then remove the old entity")
                } else {
                    problems += Self.ownChanges(of: entity, from: previous, toName: toName)
                }
            } else if entity.superentity == nil, entity.subentities.isEmpty, let previous, Self.isInHierarchy(previous) {
                problems.append(
                    "\(entity.name) no longer has a superentity or subentities (\(toName)), but its rows are stored in a class hierarchy's table; taking an entity out of a hierarchy is not supported yet: re-create its models in a custom stage, in a version where both entities exist")
            }
        }
        return problems
    }

    /// What stops the rows of a flat entity from moving into a hierarchy as `entity`: attributes
    /// kept outside the table, and columns whose values the hierarchy stores differently.
    private static func problemsMovingIn(_ previous: Schema.Entity, as entity: Schema.Entity, toName: String) -> [String] {
        var problems: [String] = []
        if previous.attributesInOrder.contains(where: { $0.options.contains(.externalStorage) }) {
            problems.append(
                "\(entity.name) moves into \(entity.rootEntity.name)'s hierarchy (\(toName)) with attributes kept outside its table (.externalStorage), which this build does not move; move them back into the table in an earlier version")
        }
        for attribute in previous.attributesInOrder {
            if let now = entity.attributesByName[attribute.name], now.storageType != attribute.storageType {
                problems.append("\(entity.name).\(attribute.name) changes type as \(entity.name) moves into \(entity.rootEntity.name)'s hierarchy (\(toName)); keep its type, or add the new attribute under another name")
            }
        }
        return problems
    }

    /// The changes of an entity of a hierarchy, among its own properties, that are more than
    /// additions of optional or defaulted attributes and optional relationships.
    private static func ownChanges(of entity: Schema.Entity, from previous: Schema.Entity, toName: String) -> [String] {
        var changes: [String] = []
        for attribute in previous.declaredAttributes {
            guard let kept = entity.declaredAttributes.first(where: { $0.name == attribute.name })
                ?? movedWithinHierarchy(attribute, of: entity)
            else {
                changes.append("\(entity.name).\(attribute.name) is removed or renamed")
                continue
            }
            if kept.storageType != attribute.storageType || kept.isOptional != attribute.isOptional
                || kept.options.contains(.externalStorage) != attribute.options.contains(.externalStorage) {
                changes.append("\(entity.name).\(attribute.name) changes its type, optionality or storage")
            }
        }
        for relationship in previous.declaredRelationships {
            guard let kept = entity.declaredRelationships.first(where: { $0.name == relationship.name }),
                  kept.isToOne == relationship.isToOne, kept.destination == relationship.destination
            else {
                changes.append("\(entity.name).\(relationship.name) is removed, renamed or changed")
                continue
            }
        }
        for attribute in entity.declaredAttributes where !previous.declaredAttributes.contains(where: { $0.name == attribute.name }) {
            if attribute.options.contains(.externalStorage) {
                changes.append("\(entity.name).\(attribute.name) is added with .externalStorage")
            }
        }
        return changes.map {
            "\($0) (\(toName)), in a class hierarchy's table; a hierarchy's table is only added to by this build (new subentities, new optional or defaulted attributes, new optional relationships): make the change in a custom stage over new properties"
        }
    }

    /// The attribute of the same name and storage that another class of `entity`'s hierarchy
    /// now declares: one moved up to a superentity or down to a subentity, whose column (in the
    /// hierarchy's one table) keeps its values.
    private static func movedWithinHierarchy(_ attribute: Schema.Attribute, of entity: Schema.Entity) -> Schema.Attribute? {
        entity.rootEntity.selfAndDescendants.lazy.compactMap { member in
            member === entity ? nil : member.declaredAttributes.first { $0.name == attribute.name && $0.storageType == attribute.storageType }
        }.first
    }

    /// Brings the table of the hierarchy whose root is `root` (a new table, or its previous
    /// table, flat or not) to the new schema's columns, adding what it lacks; existing rows of a
    /// previously flat table are instances of the root.
    mutating func restructureHierarchy(root: TableLayout, previous: Schema.Entity?, subentities: [TableLayout], _ db: Database) throws {
        guard previous != nil, try db.tableExists(root.entity.name) else {
            for sql in root.creationSQL { try execute(sql, db) }
            for table in subentities.sorted(by: TableLayout.creationOrder) {
                for sql in table.creationSQL { try execute(sql, db) }
            }
            try moveFlatEntities(into: root, subentities: subentities, db)
            try fillMovedAttributes(root, db)
            return
        }
        let quotedName = root.entity.name.quotedDatabaseIdentifier
        let existing = Set(try db.columns(in: root.entity.name).map(\.name))
        if !existing.contains(TableLayout.entityColumn) {
            let literal = Self.sqlLiteral(root.entity.name.databaseValue)!
            try execute(
                "ALTER TABLE \(quotedName) ADD COLUMN \(TableLayout.entityColumn.quotedDatabaseIdentifier) TEXT NOT NULL DEFAULT \(literal)", db)
        }
        let (attributes, foreignKeys) = TableLayout.hierarchyColumns(root.entity.selfAndDescendants)
        let rootOwn = Set(root.entity.attributesInOrder.map(\.name))
        for attribute in attributes where !existing.contains(attribute.name) {
            let type = (attribute.storageType ?? .string).sqlType
            let column = attribute.name.quotedDatabaseIdentifier
            // A column of the root's own, non-optional, is filled in the existing rows; a
            // subentity's holds NULL in the rows of the other classes.
            if rootOwn.contains(attribute.name), !attribute.isOptional {
                guard let codec = ValueCodec.forType(attribute.valueType, codable: attribute.isCodable),
                      let literal = fillValue(of: attribute, codec: codec).flatMap(Self.sqlLiteral)
                else {
                    throw refusal([
                        "\(root.entity.name).\(attribute.name) is added (\(toName)) without a default value, and the rows already stored have none to take; declare a default, or make it optional"
                    ])
                }
                try execute("ALTER TABLE \(quotedName) ADD COLUMN \(column) \(type) NOT NULL DEFAULT \(literal)", db)
            } else {
                try execute("ALTER TABLE \(quotedName) ADD COLUMN \(column) \(type)", db)
            }
        }
        for key in foreignKeys where !existing.contains(key) {
            try execute("ALTER TABLE \(quotedName) ADD COLUMN \(key.quotedDatabaseIdentifier) INTEGER", db)
        }
        try moveFlatEntities(into: root, subentities: subentities, db)
        try fillMovedAttributes(root, db)
        for table in [root] + subentities.sorted(by: TableLayout.creationOrder) {
            for sql in table.creationSQL where !sql.hasPrefix("CREATE TABLE \(quotedName)") { try execute(sql, db) }
        }
    }

    /// Moves the rows of entities that had a table of their own and are now subentities into
    /// the hierarchy's table, as instances of their class. They take new keys after the table's
    /// highest (the hierarchy's rows keep theirs), and every stored reference to them (a to-one
    /// key in any table, either column of a join table) is rewritten to the new keys; their
    /// identifiers change.
    private mutating func moveFlatEntities(into root: TableLayout, subentities: [TableLayout], _ db: Database) throws {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let table = root.entity.name.quotedDatabaseIdentifier
        let key = TableLayout.primaryKeyColumn.quotedDatabaseIdentifier
        for moved in subentities {
            let name = moved.entity.name
            guard let previous = oldByName[name], previous.superentityName == nil, previous.subentities.isEmpty,
                  name != root.entity.name, try db.tableExists(name)
            else { continue }
            let tableColumns = Set(try db.columns(in: root.entity.name).map(\.name))
            let columns = try db.columns(in: name).map(\.name).filter { $0 != TableLayout.primaryKeyColumn && tableColumns.contains($0) }
            let highest = try Int64.fetchOne(
                db, sql: "SELECT MAX(m) FROM (SELECT MAX(\(key)) AS m FROM \(table) UNION ALL SELECT seq FROM sqlite_sequence WHERE name = ?)",
                arguments: [root.entity.name]) ?? 0
            try execute("DROP TABLE IF EXISTS temp.\"_osd_moved_keys\"", db)
            try execute(
                "CREATE TEMP TABLE \"_osd_moved_keys\" AS SELECT \(key) AS old, ? + ROW_NUMBER() OVER (ORDER BY \(key)) AS new FROM \(name.quotedDatabaseIdentifier)",
                db, arguments: [highest])
            // Columns the table requires that the moved rows have no value for take the
            // attribute's default; without one the step is refused.
            let required = try String.fetchAll(
                db, sql: "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 1", arguments: [root.entity.name]
            ).filter { ![TableLayout.primaryKeyColumn, TableLayout.entityColumn].contains($0) && !columns.contains($0) }
            var filled: [(column: String, literal: String)] = []
            for column in required {
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0
                guard rows > 0 else { break }
                guard let attribute = root.entity.attributesByName[column],
                      let codec = ValueCodec.forType(attribute.valueType, codable: attribute.isCodable),
                      let literal = fillValue(of: attribute, codec: codec).flatMap(Self.sqlLiteral)
                else {
                    throw refusal([
                        "\(root.entity.name).\(column) is required (\(toName)) but the \(rows) stored row\(rows == 1 ? "" : "s") of \(name), which move\(rows == 1 ? "s" : "") into \(root.entity.name)'s hierarchy, hold\(rows == 1 ? "s" : "") no value for it; give it a default value, or make it optional"
                    ])
                }
                filled.append((column, literal))
            }
            let list = (columns + filled.map(\.column)).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let selected = (columns.map { "o.\($0.quotedDatabaseIdentifier)" } + filled.map(\.literal)).joined(separator: ", ")
            try execute(
                "INSERT INTO \(table) (\(key), \(TableLayout.entityColumn.quotedDatabaseIdentifier)\(list.isEmpty ? "" : ", " + list)) SELECT m.new, \(Self.sqlLiteral(name.databaseValue)!)\(selected.isEmpty ? "" : ", " + selected) FROM \(name.quotedDatabaseIdentifier) AS o JOIN \"_osd_moved_keys\" AS m ON m.old = o.\(key)",
                db)
            try execute(
                "UPDATE sqlite_sequence SET seq = (SELECT MAX(\(key)) FROM \(table)) WHERE name = ?", db, arguments: [root.entity.name])
            try rewriteReferences(to: previous, db)
            try execute("DROP TABLE \(name.quotedDatabaseIdentifier)", db)
            try execute("DROP TABLE temp.\"_osd_moved_keys\"", db)
        }
    }

    /// Rewrites the stored references to the rows of `moved` to the keys in
    /// `temp._osd_moved_keys`: to-one keys of the old schema's relationships to it (in the
    /// tables their entities have now), and the join tables' columns that hold its keys.
    private mutating func rewriteReferences(to moved: Schema.Entity, _ db: Database) throws {
        let newKey = "(SELECT new FROM \"_osd_moved_keys\" WHERE old = %@)"
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var rewritten: Set<String> = []
        for entity in old {
            for relationship in entity.relationshipsInOrder where relationship.destination == moved.name {
                let stored = StoredRelationship(relationship, of: entity, propertyIndex: 0, destination: oldByName[relationship.destination])
                switch stored.storage {
                case .foreignKey(let column):
                    let owner = new.entitiesByName[entity.name]?.rootEntity.name ?? entity.name
                    guard try db.tableExists(owner), try db.columns(in: owner).contains(where: { $0.name == column }),
                          rewritten.insert("\(owner).\(column)").inserted
                    else { continue }
                    let quoted = column.quotedDatabaseIdentifier
                    try execute(
                        "UPDATE \(owner.quotedDatabaseIdentifier) SET \(quoted) = \(newKey.replacingOccurrences(of: "%@", with: quoted)) WHERE \(quoted) IN (SELECT old FROM \"_osd_moved_keys\")",
                        db)
                case .joinTable(let table, _, let otherColumn):
                    try rewriteJoinColumn(table, otherColumn, into: newKey, &rewritten, db)
                case .inverseForeignKey:
                    continue
                }
            }
            guard entity.name == moved.name else { continue }
            for relationship in entity.relationshipsInOrder {
                let stored = StoredRelationship(relationship, of: entity, propertyIndex: 0, destination: oldByName[relationship.destination])
                if case .joinTable(let table, let ownColumn, _) = stored.storage {
                    try rewriteJoinColumn(table, ownColumn, into: newKey, &rewritten, db)
                }
            }
        }
    }

    private mutating func rewriteJoinColumn(_ table: String, _ column: String, into newKey: String, _ rewritten: inout Set<String>, _ db: Database) throws {
        guard try db.tableExists(table), rewritten.insert("\(table).\(column)").inserted else { return }
        let quoted = column.quotedDatabaseIdentifier
        try execute(
            "UPDATE \(table.quotedDatabaseIdentifier) SET \(quoted) = \(newKey.replacingOccurrences(of: "%@", with: quoted)) WHERE \(quoted) IN (SELECT old FROM \"_osd_moved_keys\")",
            db)
    }

    /// After attributes moved within the hierarchy: rows of the classes that now have a
    /// non-optional attribute and hold no value in its column take its default, and a column
    /// the table requires (`NOT NULL`) may no longer belong to a subentity only, whose
    /// siblings' rows could not be written. Refuses, before the step is committed, what cannot
    /// be done.
    private mutating func fillMovedAttributes(_ root: TableLayout, _ db: Database) throws {
        let table = root.entity.name
        let requiredColumns = Set(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" = 1", arguments: [table]).map { $0[0] as String })
        var problems: [String] = []
        for member in root.entity.selfAndDescendants {
            let classes = member.selfAndDescendants.map(\.name)
            let inClasses = "\(TableLayout.entityColumn.quotedDatabaseIdentifier) IN (\(classes.map { Self.sqlLiteral($0.databaseValue)! }.joined(separator: ", ")))"
            for attribute in member.declaredAttributes where !attribute.options.contains(.externalStorage) {
                let column = attribute.name.quotedDatabaseIdentifier
                if member.superentity != nil, requiredColumns.contains(attribute.name) {
                    problems.append(
                        "\(member.name).\(attribute.name) moves down from \(root.entity.name) (\(toName)), whose table requires a value in its column for every class; make it optional first, or keep it in \(root.entity.name)")
                    continue
                }
                guard !attribute.isOptional,
                      let missing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(column) IS NULL AND \(inClasses)"),
                      missing > 0
                else { continue }
                guard let codec = ValueCodec.forType(attribute.valueType, codable: attribute.isCodable),
                      let fill = fillValue(of: attribute, codec: codec)
                else {
                    problems.append(
                        "\(member.name).\(attribute.name) is required (\(toName)) but \(missing) stored row\(missing == 1 ? "" : "s") of \(classes.joined(separator: ", ")) hold\(missing == 1 ? "s" : "") no value for it (it moved up from a subentity); give it a default value, or make it optional")
                    continue
                }
                try execute("UPDATE \(table.quotedDatabaseIdentifier) SET \(column) = ? WHERE \(column) IS NULL AND \(inClasses)", db, arguments: [fill])
            }
        }
        if !problems.isEmpty { throw refusal(problems) }
    }

    /// Removes the rows of the old subentities the new schema drops (a plan's step), or says
    /// how many there are (without a plan, a store holding rows of classes its models lack is
    /// more likely the wrong store).
    func removedSubentityRows(_ db: Database) throws -> (blocking: [String], deletions: [String]) {
        let newNames = Set(new.entities.map(\.name))
        var blocking: [String] = []
        var deletions: [String] = []
        for entity in old where entity.superentity != nil && !newNames.contains(entity.name) {
            let table = entity.rootEntity.name
            guard try db.tableExists(table) else { continue }
            let condition = "\(TableLayout.entityColumn.quotedDatabaseIdentifier) = \(Self.sqlLiteral(entity.name.databaseValue)!)"
            if dropsRemovedEntities {
                deletions.append("DELETE FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)")
            } else if let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)"), rows > 0 {
                blocking.append(
                    "the entity \(entity.name) holds \(rows) row\(rows == 1 ? "" : "s") but is not among the models the store is opened with; open the store with its models, or declare the versions in a SchemaMigrationPlan to remove the entity on purpose")
            }
        }
        return (blocking, deletions)
    }
}
