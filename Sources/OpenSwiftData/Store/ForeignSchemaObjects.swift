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

        public var description: String {
            type == "table" || type == "view" || table.isEmpty || table == name
                ? "\(type) \(name.quotedDatabaseIdentifier)"
                : "\(type) \(name.quotedDatabaseIdentifier) on \(table.quotedDatabaseIdentifier)"
        }

        /// The statement that removes it.
        var dropSQL: String { "DROP \(type.uppercased()) \(name.quotedDatabaseIdentifier);" }
    }

    let objects: [Object]

    var isEmpty: Bool { objects.isEmpty }

    /// The objects of `db` that OpenSwiftData does not make for a store of `schema`.
    init(in db: Database, schema: Schema) throws {
        let (tables, indices) = Self.expectedNames(schema)
        var objects: [Object] = []
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") {
            let type: String = row[0], name: String = row[1], table: String = row[2]
            let sql: String? = row[3]
            switch type {
            case "table" where tables.contains(name) || Self.sqliteTables.contains(name):
                continue
            case "index" where tables.contains(table) && (indices.contains(name) || (sql == nil && name.hasPrefix("sqlite_autoindex_"))):
                continue
            default:
                objects.append(Object(type: type, name: name, table: table))
            }
        }
        self.objects = objects
    }

    /// Tables SQLite makes itself: key sequences for `AUTOINCREMENT`, statistics of `ANALYZE`.
    private static let sqliteTables: Set<String> = ["sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"]

    /// The tables and indices a store of `schema` has: the metadata and history tables, each
    /// entity's table, its side tables, its join tables and their indices, and its indices.
    private static func expectedNames(_ schema: Schema) -> (tables: Set<String>, indices: Set<String>) {
        var tables: Set<String> = [StoreMetadata.tableName, MigrationHistory.tableName]
        var indices: Set<String> = []
        for entity in schema.entities {
            tables.insert(entity.name)
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

    /// Why a store holding these objects is refused, and how to fix it.
    func refusal(_ location: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(location) holds schema objects OpenSwiftData did not make: \(objects.map(\.description).joined(separator: ", ")). A trigger runs inside every save and can change or delete what was saved, and an unknown table, view or index can stand for the store's own, so the store was refused and left untouched. If you trust where the file came from, remove them (sqlite3 <store> '\(objects.map(\.dropSQL).joined(separator: " "))') and open it again, or restore a backup")
    }
}
