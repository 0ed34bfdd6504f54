import Foundation
import GRDB
@testable import OpenSwiftData

/// Writes a store in Core Data's SQLite layout for any model described here, from the
/// layout's documented facts (see ``AppleLayoutStore``): a table `Z<ROOT ENTITY>` per root
/// entity with `Z_PK`, `Z_ENT`, `Z_OPT`, a column `Z<NAME>` per attribute and to-one
/// relationship, `Z_PRIMARYKEY`, `Z_METADATA` and the model in `Z_MODELCACHE`. The rows are the
/// test's to insert, in the tables' own SQL.
struct AppleLayoutBuilder {
    struct Attribute {
        let name: String
        /// Core Data's `NSAttributeType` (700 String, 300 Int64, …).
        let type: Int
        let sqlType: String
        var isOptional = false
        /// `false` for an attribute Core Data keeps no column for (transient).
        var hasColumn = true
    }

    struct Relationship {
        let name: String
        let destination: String
        let inverse: String
        let isToMany: Bool
    }

    struct Entity {
        let name: String
        var superentity: String? = nil
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
    }

    let entities: [Entity]
    /// Each join table: name and its two columns.
    var joinTables: [(name: String, columns: [String])] = []

    /// The entities' numbers, in order from 1.
    func number(of name: String) -> Int { (entities.firstIndex { $0.name == name } ?? 0) + 1 }

    private func root(of entity: Entity) -> Entity {
        var current = entity
        while let parent = current.superentity, let found = entities.first(where: { $0.name == parent }) { current = found }
        return current
    }

    /// The tables every store of the layout has: the entities' numbers, the metadata, the model.
    static let metadataTables = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        """

    /// Writes the store at `url`; `rows` inserts the rows through the connection.
    func write(at url: URL, _ rows: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: Self.metadataTables)
            for entity in entities where entity.superentity == nil {
                var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                for member in entities where root(of: member).name == entity.name {
                    columns += member.attributes.filter(\.hasColumn).map { "Z\($0.name.uppercased()) \($0.sqlType)" }
                    columns += member.relationships.filter { !$0.isToMany }.map { "Z\($0.name.uppercased()) INTEGER" }
                }
                var seen: Set<String> = []
                columns = columns.filter { seen.insert($0).inserted }
                try db.execute(sql: "CREATE TABLE Z\(entity.name.uppercased()) (\(columns.joined(separator: ", ")))")
            }
            for table in joinTables {
                try db.execute(sql: "CREATE TABLE \(table.name) (\(table.columns.map { "\($0) INTEGER" }.joined(separator: ", ")), PRIMARY KEY (\(table.columns.joined(separator: ", "))))")
            }
            for entity in entities {
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, 0)",
                               arguments: [number(of: entity.name), entity.name, entity.superentity.map(number(of:)) ?? 0])
            }
            let plist: [String: Any] = [
                "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1345, "NSStoreModelVersionHashesVersion": 3,
                "NSStoreModelVersionIdentifiers": ["1.0.0"],
                "NSStoreModelVersionHashes": Dictionary(uniqueKeysWithValues: entities.map { ($0.name, Data(repeating: 7, count: 32)) }),
            ]
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, ?, ?)",
                           arguments: [UUID().uuidString, try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)])
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (?)", arguments: [try modelCache()])
            try rows(db)
            // Z_MAX: the highest key handed out, kept on the root entity's row.
            for entity in entities where entity.superentity == nil {
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT ifnull(max(Z_PK), 0) FROM Z\(entity.name.uppercased())) WHERE Z_ENT = ?",
                               arguments: [number(of: entity.name)])
            }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
    }

    private func modelCache() throws -> Data {
        var archived: [String: ArchivedEntity] = [:]
        for entity in entities {
            // A subentity's properties include its superentity's, as Core Data archives them.
            var chain = [entity]
            while let parent = chain.last?.superentity, let found = entities.first(where: { $0.name == parent }) { chain.append(found) }
            var properties: [NSObject] = []
            for member in chain.reversed() {
                properties += member.attributes.map { ArchivedAttribute(name: $0.name, type: $0.type, valueClass: "NSObject", isOptional: $0.isOptional) }
                properties += member.relationships.map {
                    ArchivedRelationship(name: $0.name, destination: $0.destination, inverse: $0.inverse, maximum: $0.isToMany ? 0 : 1, deleteRule: 1)
                }
            }
            archived[entity.name] = ArchivedEntity(name: entity.name, properties: properties)
        }
        for entity in entities {
            archived[entity.name]?.superentity = entity.superentity.flatMap { archived[$0] }
        }
        return try AppleLayoutModelCache.archive(entities.compactMap { archived[$0.name] })
    }
}
