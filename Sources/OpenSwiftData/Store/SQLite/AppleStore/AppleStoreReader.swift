import Foundation
import GRDB

/// Reads a store in Core Data's SQLite layout into an ``AppleStoreInspection``: the entities
/// `Z_PRIMARYKEY` numbers, their tables and rows, the join tables, the metadata's binary
/// property list, the persistent history's tables and the external data folder.
enum AppleStoreReader {
    /// The persistent history's tables (their entities are numbered 16001 CHANGE, 16002
    /// TRANSACTION, 16003 TRANSACTIONSTRING in Z_PRIMARYKEY).
    static let transactionTable = "ATRANSACTION"
    static let changeTable = "ACHANGE"

    static func hasAppleLayout(_ url: URL) -> Bool {
        (try? AppleStoreFile.readCopy(of: url) { try AppleStoreFile.hasAppleLayout($0) }) ?? false
    }

    static func inspect(_ url: URL) throws -> AppleStoreInspection {
        try AppleStoreFile.readCopy(of: url) { db in try inspect(db, url: url) }
    }

    /// The inspection of the store at `url`, read through `db`, a connection to its copy.
    static func inspect(_ db: Database, url: URL) throws -> AppleStoreInspection {
        guard try AppleStoreFile.hasAppleLayout(db) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(url.path) is an SQLite database without Core Data's \(AppleStoreFile.primaryKeyTable) and \(AppleStoreFile.metadataTable) tables: not a store written by SwiftData or Core Data")
        }
        let numbered = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            .map { (number: $0[0] as Int, name: $0[1] as String, superentity: $0[2] as Int? ?? 0, maximum: $0[3] as Int? ?? 0) }
        let names = Dictionary(numbered.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        func root(of number: Int) -> Int {
            var current = number
            var seen: Set<Int> = []
            while let entry = numbered.first(where: { $0.number == current }), entry.superentity != 0, seen.insert(current).inserted {
                current = entry.superentity
            }
            return current
        }
        var entities: [AppleStoreInspection.Entity] = []
        for entry in numbered {
            // The persistent history's own entities (CHANGE, TRANSACTION, TRANSACTIONSTRING)
            // are numbered too, their tables named with an A.
            if try db.tableExists("A" + entry.name.uppercased()) && !db.tableExists(tableName(of: entry.name)) { continue }
            let table = tableName(of: names[root(of: entry.number)] ?? entry.name)
            guard try db.tableExists(table) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(url.path): Z_PRIMARYKEY names the entity \(entry.name) (number \(entry.number)), but its table \(table) is missing; the store is damaged")
            }
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE Z_ENT = ?", arguments: [entry.number]) ?? 0
            entities.append(AppleStoreInspection.Entity(
                name: entry.name, number: entry.number, superentity: entry.superentity == 0 ? nil : names[entry.superentity],
                table: table, rows: rows, maximumPrimaryKey: entry.maximum, columns: try columns(of: table, in: db)))
        }
        let fixed: Set<String> = [AppleStoreFile.primaryKeyTable, AppleStoreFile.metadataTable, AppleStoreFile.modelCacheTable]
        var joinTables: [AppleStoreInspection.JoinTable] = []
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' ORDER BY name")
        where !fixed.contains(table) {
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
            joinTables.append(AppleStoreInspection.JoinTable(name: table, columns: try columns(of: table, in: db), rows: rows))
        }
        let metadata = try metadata(in: db, url: url)
        // The store's identifier is Z_METADATA's Z_UUID column (the property list lacks it).
        let identifier = try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1")
        var history: AppleStoreInspection.History?
        if try db.tableExists(transactionTable) {
            let transactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(transactionTable)") ?? 0
            let changes = try db.tableExists(changeTable) ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(changeTable)") ?? 0 : 0
            history = AppleStoreInspection.History(transactions: transactions, changes: changes)
        }
        var model: [AppleStoreInspection.ModelEntity]?
        var modelProblem: String?
        if try db.tableExists(AppleStoreFile.modelCacheTable),
           let content = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1") {
            do {
                model = try AppleStoreModelCache.entities(from: content)
            } catch {
                modelProblem = "\(error)"
            }
        }
        return AppleStoreInspection(
            entities: entities, joinTables: joinTables, model: model, modelProblem: modelProblem,
            versionIdentifiers: (metadata["NSStoreModelVersionIdentifiers"] as? [Any])?.map { "\($0)" } ?? [],
            versionHashes: (metadata["NSStoreModelVersionHashes"] as? [String: Any])?.compactMapValues { $0 as? Data } ?? [:],
            storeIdentifier: identifier ?? metadata["NSStoreUUID"] as? String, storeType: metadata["NSStoreType"] as? String,
            hasModelCache: try db.tableExists(AppleStoreFile.modelCacheTable)
                && (Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL") ?? 0) > 0,
            history: history,
            externalDataFiles: externalDataFiles(of: url))
    }

    /// The table of an entity's rows: `Z` and the root entity's name in capitals.
    static func tableName(of rootEntity: String) -> String {
        "Z" + rootEntity.uppercased()
    }

    /// The column of a property (an attribute, or a to-one relationship's key): `Z` and its
    /// name in capitals.
    static func columnName(of property: String) -> String {
        "Z" + property.uppercased()
    }

    private static func columns(of table: String, in db: Database) throws -> [AppleStoreInspection.Column] {
        try db.columns(in: table).map { AppleStoreInspection.Column(name: $0.name, declaredType: $0.type) }
    }

    /// The metadata's property list (`Z_METADATA.Z_PLIST`, a binary property list).
    private static func metadata(in db: Database, url: URL) throws -> [String: Any] {
        guard let data = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1") else { return [:] }
        do {
            guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw SwiftDataError.loadIssueModelContainer.explaining("\(url.path): Z_METADATA's property list is not a dictionary; the store is damaged")
            }
            return plist
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(url.path): Z_METADATA's property list cannot be read (\(error)); the store is damaged")
        }
    }

    /// How many files the folder of external data beside the store holds.
    private static func externalDataFiles(of url: URL) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: externalDataFolder(of: url).path).filter { !$0.hasPrefix(".") }.count) ?? 0
    }

    /// The folder of the values a store keeps outside it: `.<store name>_SUPPORT/_EXTERNAL_DATA`
    /// beside it.
    static func externalDataFolder(of url: URL) -> URL {
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT/_EXTERNAL_DATA")
    }
}
