import GRDB

/// The schema objects of a store file that OpenSwiftData did not make: triggers, views, and
/// tables or indices its recorded schema has no place for. A store travels (sent for support,
/// uploaded, restored from somewhere), and such an object could act on what OpenSwiftData
/// writes: a trigger runs inside every save's transaction and can change or delete what was
/// saved, a view can stand where a table was. A store holding any is refused before anything
/// is written; `osd check` reports them and `osd inspect` lists them.
struct ForeignSchemaObjects: Sendable {
    struct Object: Sendable, CustomStringConvertible {
        /// `trigger`, `view`, `table` or `index`.
        let type: String
        let name: String
        /// The table a trigger or index belongs to.
        let table: String
        /// For one of the store's own tables, what its definition has that OpenSwiftData never
        /// writes there (a `CHECK`, a foreign key, an `ON CONFLICT` clause, a collation, a
        /// generated column); `nil` for an object OpenSwiftData does not make at all.
        var clauses: [String]? = nil

        public var description: String {
            if let clauses { return "table \(name.quotedDatabaseIdentifier) (defined with \(clauses.joined(separator: ", ")))" }
            return type == "table" || type == "view" || table.isEmpty || table == name
                ? "\(type) \(name.quotedDatabaseIdentifier)"
                : "\(type) \(name.quotedDatabaseIdentifier) on \(table.quotedDatabaseIdentifier)"
        }

        /// How to remove it.
        var dropSQL: String {
            clauses == nil ? "DROP \(type.uppercased()) \(name.quotedDatabaseIdentifier);"
                : "-- rebuild table \(name.quotedDatabaseIdentifier) without them;"
        }
    }

    let objects: [Object]
    /// The tables the recorded schema names that the file does not have.
    let missingTables: [String]

    var isEmpty: Bool { objects.isEmpty }

    /// The objects of `db` that OpenSwiftData does not make for a store of `schema`.
    init(in db: Database, schema: Schema) throws {
        let (tables, indices) = Self.expectedNames(schema)
        var objects: [Object] = []
        var missing = tables
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") {
            let type: String = row[0], name: String = row[1], table: String = row[2]
            let sql: String? = row[3]
            if type == "table" { missing.remove(name) }
            switch type {
            case "table" where Self.sqliteTables.contains(name):
                continue
            case "table" where tables.contains(name):
                // A side table's key refers to its entity's row, deleted with it; nothing else of
                // ours has a clause that acts on a write.
                let clauses = Self.actingClauses(in: sql ?? "", allowingReferences: name.hasPrefix("_osd_external_"))
                if !clauses.isEmpty { objects.append(Object(type: type, name: name, table: table, clauses: clauses)) }
                continue
            case "index" where tables.contains(table) && (indices.contains(name) || (sql == nil && name.hasPrefix("sqlite_autoindex_"))):
                continue
            default:
                objects.append(Object(type: type, name: name, table: table))
            }
        }
        self.objects = objects
        // The migration history is made with the first migration, and the persistent history
        // with the first save that changes the store.
        missingTables = missing.subtracting(StoreHistory.tableNames.union([MigrationHistory.tableName])).sorted()
    }

    /// The clauses of a `CREATE TABLE` statement that can act on a write, or change what a
    /// comparison or a uniqueness constraint means, and that OpenSwiftData never writes; words
    /// inside quoted names and strings are not read. (Read byte by byte: every open reads the
    /// statement of each of the store's tables.)
    static func actingClauses(in sql: String, allowingReferences: Bool) -> [String] {
        var words: Set<String> = []
        var word: [UInt8] = []
        var quote: UInt8?
        func endWord() {
            if !word.isEmpty { words.insert(String(decoding: word, as: UTF8.self).uppercased()) }
            word.removeAll(keepingCapacity: true)
        }
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                endWord()
                quote = byte
            case UInt8(ascii: "["):
                endWord()
                quote = UInt8(ascii: "]")
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                word.append(byte)
            default:
                endWord()
            }
        }
        endWord()
        var clauses: [String] = []
        let kinds = [
            ("CHECK", "a CHECK constraint"), ("CONFLICT", "an ON CONFLICT clause"), ("COLLATE", "a collation"),
            // `AS` begins a generated column's expression (`GENERATED ALWAYS` may be left out).
            ("AS", "a generated column"),
        ]
        for (keyword, clause) in kinds where words.contains(keyword) { clauses.append(clause) }
        if !allowingReferences, words.contains("REFERENCES") { clauses.append("a foreign key") }
        return clauses
    }

    /// Tables SQLite makes itself: key sequences for `AUTOINCREMENT`, statistics of `ANALYZE`.
    private static let sqliteTables: Set<String> = ["sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"]

    /// The tables and indices a store of `schema` has: the metadata and history tables, each
    /// entity's table, its side tables, its join tables and their indices, and its indices.
    private static func expectedNames(_ schema: Schema) -> (tables: Set<String>, indices: Set<String>) {
        var tables = StoreHistory.tableNames.union([StoreMetadata.tableName, MigrationHistory.tableName])
        var indices: Set<String> = []
        for entity in schema.entities {
            // A hierarchy's rows are in its root's table.
            tables.insert(entity.rootEntity.name)
            indices.formUnion(TableLayout.indexNames(of: entity))
            for attribute in entity.attributesInOrder where attribute.options.contains(.externalStorage) {
                tables.insert(TableLayout.unquotedExternalTableName(entity: entity.name, attribute: attribute.name))
            }
            for relationship in entity.relationshipsInOrder {
                let stored = StoredRelationship(
                    relationship, of: entity, propertyIndex: 0, destination: schema.entitiesByName[relationship.destination])
                if case .joinTable(let table, _, _) = stored.storage {
                    tables.insert(table)
                    indices.insert("\(table)_target")
                }
            }
        }
        return (tables, indices)
    }

    /// Why a store lacking tables its recorded schema names is refused.
    func missingTablesRefusal(_ location: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(location) records a schema whose tables it does not have: \(missingTables.map(\.quotedDatabaseIdentifier).joined(separator: ", ")); it was changed by another tool or is damaged, and was left untouched. Restore it from a backup")
    }

    /// Why a store holding these objects is refused, and how to fix it.
    func refusal(_ location: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(location) holds schema objects OpenSwiftData did not make: \(objects.map(\.description).joined(separator: ", ")). A trigger runs inside every save and can change or delete what was saved, and an unknown table, view or index can stand for the store's own, so the store was refused and left untouched. If you trust where the file came from, remove them (sqlite3 <store> '\(objects.map(\.dropSQL).joined(separator: " "))') and open it again, or restore a backup")
    }
}
