import Foundation
import GRDB

/// Reads what a store file holds (its metadata, row counts, indices, column defaults and the
/// record of its migrations) and checks it, through a connection kept from writing: the file
/// stays as it was.
enum StoreFileReader {
    struct Contents {
        let metadata: StoreMetadata
        let rowCounts: [String: Int]
        /// By entity, the name and columns of each index.
        let indices: [String: [(name: String, columns: [String], unique: Bool)]]
        /// By entity, then column, the column's SQL default.
        let columnDefaults: [String: [String: String]]
        let history: [(from: String, to: String, kind: String, rowsChanged: Int, milliseconds: Int, appliedAt: Date)]
        let foreignObjects: [ForeignSchemaObjects.Object]
        /// How many transactions and changes the persistent history keeps.
        let persistentHistory: (transactions: Int, changes: Int)
    }

    /// The persistent history of the store at `url`, transactions after `since` (every one when
    /// `nil`), oldest first; read without writing.
    static func persistentHistory(_ url: URL, since: Int64?) throws -> [StoreHistory.Transaction] {
        try withReader(url) { db in
            _ = try requiredMetadata(db, url)
            let condition = since.map { "\(identifier: "id") > \(SQLFragment.argument(.integer($0)))" as SQLFragment }
            return try StoreHistory.read(where: condition, orderBy: nil, limit: nil, in: db)
        }
    }

    /// The metadata of the store at `url`, read alone (no row is counted).
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is missing, not an
    ///   SQLite database, not one of our stores, or holds schema objects OpenSwiftData did not
    ///   make (``ForeignSchemaObjects``).
    static func metadata(_ url: URL) throws -> StoreMetadata {
        try withReader(url) { db in try requiredMetadata(db, url) }
    }

    private static func requiredMetadata(_ db: Database, _ url: URL, refusingForeignObjects: Bool = true) throws -> StoreMetadata {
        guard let metadata = try SQLiteStore.readMetadata(db, location: .file(url), refusingForeignObjects: refusingForeignObjects) else {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(url.path) is an empty database, not a store")
        }
        return metadata
    }

    /// The contents of the store at `url`, schema objects OpenSwiftData did not make included.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is missing, not an
    ///   SQLite database, or not one of our stores.
    static func read(_ url: URL) throws -> Contents {
        try withReader(url) { db in
            let metadata = try requiredMetadata(db, url, refusingForeignObjects: false)
            let schema = try metadata.schema()
            let foreign = try ForeignSchemaObjects(in: db, schema: schema)
            var rowCounts: [String: Int] = [:]
            var indices: [String: [(String, [String], Bool)]] = [:]
            var defaults: [String: [String: String]] = [:]
            for entity in schema.entities {
                // A hierarchy's rows are in its root's table, each naming its class.
                let table = entity.rootEntity.name
                guard try db.tableExists(table) else { continue }
                if entity.subentities.isEmpty, entity.superentity == nil {
                    rowCounts[entity.name] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
                } else {
                    rowCounts[entity.name] = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(TableLayout.entityColumn.quotedDatabaseIdentifier) = ?",
                        arguments: [entity.name]) ?? 0
                }
                guard entity.superentity == nil else { continue }
                indices[entity.name] = try db.indexes(on: entity.name).map { ($0.name, $0.columns, $0.isUnique) }
                for column in try db.columns(in: entity.name) {
                    if let value = column.defaultValueSQL { defaults[entity.name, default: [:]][column.name] = value }
                }
            }
            var history: [(String, String, String, Int, Int, Date)] = []
            if try db.tableExists(MigrationHistory.tableName) {
                for row in try Row.fetchAll(db, sql: "SELECT fromVersion, toVersion, kind, rowsChanged, milliseconds, appliedAt FROM \(MigrationHistory.tableName.quotedDatabaseIdentifier) ORDER BY id") {
                    history.append((row[0], row[1], row[2], row[3], row[4], Date(timeIntervalSinceReferenceDate: row[5])))
                }
            }
            var persistentHistory = (transactions: 0, changes: 0)
            if try db.tableExists(StoreHistory.transactionsTable), try db.tableExists(StoreHistory.changesTable) {
                persistentHistory.transactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(StoreHistory.transactionsTable.quotedDatabaseIdentifier)") ?? 0
                persistentHistory.changes = try Int.fetchOne(db, sql: "SELECT TOTAL(\"count\") FROM \(StoreHistory.changesTable.quotedDatabaseIdentifier)").map { Int($0) } ?? 0
            }
            return Contents(
                metadata: metadata, rowCounts: rowCounts, indices: indices, columnDefaults: defaults, history: history,
                foreignObjects: foreign.objects, persistentHistory: persistentHistory)
        }
    }

    /// What is wrong with the store at `url`: SQLite's integrity and foreign-key checks, then
    /// ours (metadata consistent with its schema, every table and column the schema names
    /// present, unique constraints holding). Empty for a sound store.
    static func problems(_ url: URL) throws -> [String] {
        try withReader(url) { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                .map { "SQLite integrity check: \($0)" }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                problems.append("foreign key check: a row of \(row[0] as String) (rowid \(row[1] as Int64? ?? -1)) refers to a missing row of \(row[2] as String)")
            }
            guard let metadata = try SQLiteStore.readMetadata(db, location: .file(url), refusingForeignObjects: false) else {
                return problems + ["the database has no \(StoreMetadata.tableName) table: it is not a store"]
            }
            let schema: Schema
            do {
                schema = try metadata.schema()
            } catch {
                return problems + ["the recorded schema cannot be read: \(error)"]
            }
            for object in try ForeignSchemaObjects(in: db, schema: schema).objects {
                problems.append("\(object) was not made by OpenSwiftData: a container refuses the store while it is there (remove it with \(object.dropSQL) if the file is trusted)")
            }
            if schema.fingerprint != metadata.fingerprint {
                problems.append("the recorded fingerprint \(metadata.fingerprint) is not the recorded schema's (\(schema.fingerprint))")
            }
            if schema.version.description != metadata.versionIdentifier {
                problems.append("the recorded version \(metadata.versionIdentifier) is not the recorded schema's (\(schema.version))")
            }
            for entity in schema.entities {
                let table = entity.rootEntity.name
                guard try db.tableExists(table) else {
                    problems.append("entity \(entity.name) has no table")
                    continue
                }
                let columns = Set(try db.columns(in: table).map(\.name))
                if entity.superentity != nil || !entity.subentities.isEmpty, !columns.contains(TableLayout.entityColumn) {
                    problems.append("table \(table) holds a class hierarchy but has no \(TableLayout.entityColumn) column")
                }
                for attribute in entity.attributesInOrder where !attribute.options.contains(.externalStorage) && !columns.contains(attribute.name) {
                    problems.append("\(entity.name).\(attribute.name) has no column in table \(table)")
                }
                for constraint in entity.uniquenessConstraints where constraint.allSatisfy(columns.contains) {
                    let list = constraint.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                    let repeated = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM \(table.quotedDatabaseIdentifier) GROUP BY \(list) HAVING COUNT(*) > 1)") ?? 0
                    if repeated > 0 {
                        problems.append("\(entity.name): \(repeated) value\(repeated == 1 ? "" : "s") of the unique \(constraint.joined(separator: ", ")) repeat")
                    }
                }
            }
            return problems
        }
    }

    /// Calls `body` with the column names of `entity`'s table, then with each row's values in
    /// key order, one row in memory at a time.
    static func forEachRow(
        _ url: URL, entity: String, columns: ([String]) throws -> Void, _ body: ([StoredValue]) throws -> Void
    ) throws {
        try withReader(url) { db in
            let metadata = try requiredMetadata(db, url)
            // An entity of a hierarchy is read from its root's table: its rows and its
            // subentities', each naming its class in `_entity`.
            let recorded = (try? metadata.schema())?.entitiesByName[entity]
            let table = recorded?.rootEntity.name ?? entity
            guard try db.tableExists(table), entity != StoreMetadata.tableName, entity != MigrationHistory.tableName else {
                throw SwiftDataError.loadIssueModelContainer.explaining("the store \(url.path) has no entity \(entity)")
            }
            let names = try db.columns(in: table).map(\.name)
            try columns(names)
            var condition = ""
            var arguments: [DatabaseValue] = []
            if let recorded, recorded.superentity != nil {
                let classes = recorded.selfAndDescendants.map(\.name)
                condition = " WHERE \(TableLayout.entityColumn.quotedDatabaseIdentifier) IN (\(TableLayout.placeholders(classes.count)))"
                arguments = classes.map(\.databaseValue)
            }
            let rows = try Row.fetchCursor(
                db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)\(condition) ORDER BY \(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier)",
                arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                try body((0..<row.count).map { StoredValue(row[$0] as DatabaseValue) })
            }
        }
    }

    /// Runs `body` on a connection to the existing store file that cannot write to it.
    private static func withReader<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SwiftDataError.loadIssueModelContainer.explaining("there is no store at \(url.path)")
        }
        try SQLiteStore.checkFile(at: url, readOnly: true)
        return try SQLiteStore.readWithoutWriting(url, body)
    }
}
