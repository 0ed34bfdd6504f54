import Foundation
import GRDB

// The refusals: every change of an entity that would lose or invent data, found before any
// table is touched.
extension TableRestructuring {
    /// The refusals that follow from the two structures alone, whatever the rows hold: checked
    /// for every step of a migration before any code of the plan runs.
    func structuralProblems() -> [String] {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var problems = hierarchyProblems()
        for entity in new.entities where !Self.isInHierarchy(entity) {
            guard let layout = new.layouts[entity.name], let previous = oldByName[entity.name], !Self.isInHierarchy(previous) else { continue }
            let table = TableLayout(entity: entity, layout: layout, schema: new)
            problems += typeChanges(migrating: previous, to: table)
            problems += relationshipProblems(migrating: previous, to: table, oldByName: oldByName)
        }
        return problems
    }

    /// The error that refuses a migration for `problems`, naming the versions.
    func refusal(_ problems: [String]) -> SwiftDataError {
        SwiftDataError.migrationLosesData(from: fromName, to: toName, problems: problems)
    }

    /// The attributes whose type changes, which no lightweight step can carry over.
    func typeChanges(migrating previous: Schema.Entity, to table: TableLayout) -> [String] {
        let entity = table.entity
        return (table.columns + table.externalColumns).compactMap { column in
            guard let attribute = entity.attributesByName[column.name],
                  let oldAttribute = previous.attribute(continuedBy: attribute),
                  Self.changesType(from: oldAttribute, to: attribute)
            else { return nil }
            return "\(entity.name).\(attribute.name) changes type from \(oldAttribute.valueTypeName) to \(attribute.valueTypeName) (\(toName)); a type change is not lightweight: add the new attribute under a new name, fill it in a custom stage's didMigrate, and remove the old one in a later version"
        }
    }

    private static func changesType(from old: Schema.Attribute, to new: Schema.Attribute) -> Bool {
        old.storageType != new.storageType || (new.storageType == .codable && old.valueTypeName != new.valueTypeName)
    }

    /// Every other reason the entity cannot be migrated without losing or inventing data: what
    /// the rows hold decides (after a custom stage's `willMigrate` has run).
    func problems(migrating previous: Schema.Entity, to table: TableLayout, _ db: Database) throws -> [String] {
        var problems: [String] = []
        let entity = table.entity
        for column in table.columns + table.externalColumns {
            guard let attribute = entity.attributesByName[column.name] else { continue }
            let place = "\(entity.name).\(attribute.name)"
            let oldAttribute = previous.attribute(continuedBy: attribute)
            if let oldAttribute, Self.changesType(from: oldAttribute, to: attribute) { continue }
            guard let source = source(of: attribute, codec: column.codec, in: previous) else {
                // A table without rows (perhaps emptied by willMigrate) has no row to leave
                // without a value.
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if rows == 0 { continue }
                problems.append(
                    "\(place) is added in \(toName) as non-optional with no default value, so existing rows would have no value; give it a default (`var \(attribute.name): \(attribute.valueTypeName) = ...`), make it optional, or fill it in a custom stage's didMigrate")
                continue
            }
            if case .column(let name) = source, oldAttribute?.isOptional == true, !attribute.isOptional {
                let nulls = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier) WHERE \(name.quotedDatabaseIdentifier) IS NULL") ?? 0
                if nulls > 0 {
                    problems.append(
                        "\(place) becomes non-optional in \(toName) but \(nulls) row\(nulls == 1 ? " has" : "s have") no value; give it a default value, or fill the nils in a custom stage's willMigrate")
                }
            }
        }
        for constraint in entity.uniquenessConstraints where !previous.uniquenessConstraints.contains(constraint) {
            guard let duplicates = try Self.repeatedValues(of: constraint, in: entity, previous: previous, db) else {
                let filledAlike = Self.columnsFilledAlike(table, from: previous).intersection(constraint)
                let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier)") ?? 0
                if !preparesForCustomStage, !filledAlike.isEmpty, rows > 1 {
                    problems.append(
                        "\(entity.name).\(filledAlike.sorted().joined(separator: ", ")) is added in \(toName) as non-optional and unique, but its default would give all \(rows) stored rows the same value; fill it row by row in a custom stage (MigrationStage.transform), or make it optional")
                }
                continue
            }
            if !duplicates.isEmpty {
                problems.append(SwiftDataError.repeatedUniqueValuesProblem(entity: entity.name, constraint: constraint, in: toName, repetitions: duplicates))
            }
        }
        return problems
    }

    /// The relationships whose stored rows cannot be carried over: a new destination (the old
    /// keys name rows of another entity), or a new way of storing them (a join table becoming
    /// the inverse's key column, or the other way round; a to-one becoming to-many).
    func relationshipProblems(
        migrating previous: Schema.Entity, to table: TableLayout, oldByName: [String: Schema.Entity]
    ) -> [String] {
        table.relationships.compactMap { stored in
            let relationship = stored.relationship
            guard let old = previous.relationship(continuedBy: relationship)
            else { return nil }
            let place = "\(table.entity.name).\(relationship.name)"
            let advice = "add the new relationship under a new name, fill it in a custom stage's didMigrate, and remove the old one in a later version"
            if old.destination != relationship.destination {
                return "\(place) changes destination from \(old.destination) to \(relationship.destination) (\(toName)); its stored keys name \(old.destination) rows, so \(advice)"
            }
            let oldStorage = StoredRelationship(old, of: previous, propertyIndex: 0, destination: oldByName[old.destination]).storage
            guard oldStorage.kind != stored.storage.kind || old.isToOne != relationship.isToOne else { return nil }
            return "\(place) is stored differently in \(toName) (\(oldStorage.kind.rawValue) before, \(stored.storage.kind.rawValue) now: its inverse or its cardinality changed), which is not lightweight; \(advice)"
        }
    }
}
