import Foundation
import GRDB

/// Checks a store in Core Data's layout, from a copy: SQLite's integrity check, then what the
/// layout promises: every row's `Z_ENT` names an entity of its table, each root entity's
/// `Z_MAX` is at least its table's highest `Z_PK`, every to-one column and join-table column
/// names a row that is there, and every entity the model the store keeps has is numbered.
enum AppleStoreCheck {
    static func problems(_ url: URL) throws -> [String] {
        try AppleStoreFile.readCopy(of: url) { db in
            let inspection = try AppleStoreReader.inspect(db, url: url)
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }.map { "SQLite's integrity check: \($0)" }
            let byNumber = Dictionary(inspection.entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
            for (table, entities) in Dictionary(grouping: inspection.entities, by: \.table) {
                let numbers = entities.map(\.number)
                let strays = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(numbers.map(String.init).joined(separator: ", ")))") ?? 0
                if strays > 0 {
                    problems.append("\(table): \(strays) row(s) whose Z_ENT names no entity of the table (\(entities.map { "\($0.name) = \($0.number)" }.joined(separator: ", ")))")
                }
                if let root = entities.first(where: { $0.superentity == nil }),
                   let highest = try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table.quotedDatabaseIdentifier)"), highest > root.maximumPrimaryKey {
                    problems.append("\(table): its highest Z_PK is \(highest), but Z_PRIMARYKEY's Z_MAX for \(root.name) is \(root.maximumPrimaryKey); Core Data would hand out a key already used")
                }
            }
            let tableOfEntity = Dictionary(inspection.entities.map { ($0.name, $0.table) }, uniquingKeysWith: { first, _ in first })
            for entity in inspection.model ?? [] {
                guard let table = tableOfEntity[entity.name] else {
                    problems.append("the model's entity \(entity.name) is not in Z_PRIMARYKEY")
                    continue
                }
                // Attributes are not checked against columns: transient ones have none, and how
                // the model cache marks an attribute transient is not known yet.
                let columns = Set(try db.columns(in: table).map(\.name))
                for relationship in entity.relationships where !relationship.isToMany {
                    let column = AppleStoreReader.columnName(of: relationship.name)
                    guard columns.contains(column), let destination = tableOfEntity[relationship.destination] else { continue }
                    let dangling = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) AS source
                        WHERE source.\(column.quotedDatabaseIdentifier) IS NOT NULL AND NOT EXISTS (
                            SELECT 1 FROM \(destination.quotedDatabaseIdentifier) AS target WHERE target.Z_PK = source.\(column.quotedDatabaseIdentifier))
                        """) ?? 0
                    if dangling > 0 {
                        problems.append("\(entity.name).\(relationship.name): \(dangling) row(s) of \(table) name a \(relationship.destination) (\(column)) that \(destination) does not have")
                    }
                }
            }
            for joinTable in inspection.joinTables {
                for column in joinTable.columns {
                    // Z_<entity number><NAME>: the keys of that entity's rows.
                    let digits = column.name.dropFirst(2).prefix { $0.isNumber }
                    guard column.name.hasPrefix("Z_"), let number = Int(digits), let entity = byNumber[number] else { continue }
                    let dangling = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(joinTable.name.quotedDatabaseIdentifier) AS link
                        WHERE NOT EXISTS (SELECT 1 FROM \(entity.table.quotedDatabaseIdentifier) AS target WHERE target.Z_PK = link.\(column.name.quotedDatabaseIdentifier))
                        """) ?? 0
                    if dangling > 0 {
                        problems.append("\(joinTable.name).\(column.name): \(dangling) link(s) to a \(entity.name) that \(entity.table) does not have")
                    }
                }
            }
            let unhashed = inspection.entities.map(\.name).filter { inspection.versionHashes[$0] == nil }
            if !inspection.versionHashes.isEmpty && !unhashed.isEmpty {
                problems.append("Z_METADATA records no version hash for \(unhashed.joined(separator: ", ")), which Z_PRIMARYKEY numbers")
            }
            if let problem = inspection.modelProblem { problems.append("Z_MODELCACHE: \(problem)") }
            return problems
        }
    }
}
