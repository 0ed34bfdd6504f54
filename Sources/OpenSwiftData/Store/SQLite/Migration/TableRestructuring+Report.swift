import Foundation
import GRDB

// What a step is about to drop or reject, read from the rows before the tables change: for the
// migration's report.
extension TableRestructuring {
    /// The entities the step drops, with their rows, and the properties stored in a column of
    /// their entity's table that it drops, with the values (not `NULL`) held there.
    func droppedValues(in db: Database) throws -> (entities: [(name: String, rows: Int)], properties: [(entity: String, name: String, values: Int)]) {
        var entities: [(String, Int)] = []
        var properties: [(String, String, Int)] = []
        for previous in old {
            let table = previous.name.quotedDatabaseIdentifier
            guard try db.tableExists(previous.name) else { continue }
            guard let entity = new.entitiesByName[previous.name] else {
                if dropsRemovedEntities {
                    entities.append((previous.name, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0))
                }
                continue
            }
            let columns = Set(try db.columns(in: previous.name).map(\.name))
            let hierarchy = entity.rootEntity.selfAndDescendants
            let kept = Set(hierarchy.flatMap(\.attributesInOrder).flatMap { [$0.name, $0.originalName] }
                + hierarchy.flatMap(\.relationshipsInOrder).flatMap { [$0.name, $0.originalName] })
            let dropped = (previous.attributesInOrder.map(\.name) + previous.relationshipsInOrder.map(\.name))
                .filter { !kept.contains($0) && columns.contains($0) }
            for name in dropped {
                let values = try Int.fetchOne(db, sql: "SELECT COUNT(\(name.quotedDatabaseIdentifier)) FROM \(table)") ?? 0
                properties.append((previous.name, name, values))
            }
        }
        return (entities, properties)
    }

    /// The unique constraints the new version adds over values already stored, and the values
    /// (at most five per constraint) that several rows hold, with how many rows hold each.
    func uniqueConflicts(in db: Database) throws -> [(entity: String, attributes: [String], repetitions: [(values: [String], rows: Int)])] {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var conflicts: [(String, [String], [([String], Int)])] = []
        for entity in new.entities {
            guard let previous = oldByName[entity.name], try db.tableExists(entity.name) else { continue }
            for constraint in entity.uniquenessConstraints where !previous.uniquenessConstraints.contains(constraint) {
                guard let repetitions = try Self.repeatedValues(of: constraint, in: entity, previous: previous, db) else { continue }
                if !repetitions.isEmpty { conflicts.append((entity.name, constraint, repetitions)) }
            }
        }
        return conflicts
    }

    /// The values of `constraint`'s properties that several stored rows of `previous` hold (at
    /// most five); `nil` when a property of the constraint has no stored column to read.
    static func repeatedValues(
        of constraint: [String], in entity: Schema.Entity, previous: Schema.Entity, _ db: Database
    ) throws -> [(values: [String], rows: Int)]? {
        let columns = constraint.compactMap { name -> String? in
            guard let attribute = entity.attributesByName[name] else {
                return entity.relationshipsByName[name] != nil && previous.relationshipsByName[name] != nil ? name : nil
            }
            return previous.attribute(continuedBy: attribute)?.name
        }
        guard columns.count == constraint.count else { return nil }
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(list), COUNT(*) FROM \(entity.name.quotedDatabaseIdentifier) GROUP BY \(list) HAVING COUNT(*) > 1 LIMIT 5")
        return rows.map { row in
            ((0..<constraint.count).map { "\(row[$0] as DatabaseValue)" }, row[constraint.count] as Int)
        }
    }
}
