import Foundation

/// What a store file holds, read from the file alone (the schema it records is the truth, so
/// no model code is needed) without writing to it: its version, entities with their attributes,
/// relationships, indices and row counts, the migrations it went through, its files and the
/// backups beside it. `osd inspect` prints it.
///
/// ```swift
/// let inspection = try StoreInspection(storeAt: url)
/// print(inspection.version, inspection.entities.map { "\($0.name): \($0.rows)" })
/// ```
public struct StoreInspection: Codable, Sendable {
    /// One attribute, as the store records it.
    public struct Attribute: Codable, Sendable, Equatable {
        public let name: String
        /// The Swift type the values were written as.
        public let type: String
        public let isOptional: Bool
        public let isUnique: Bool
        /// The column's SQL default, when it has one.
        public let defaultValue: String?
        /// Kept outside the entity's table (`.externalStorage`).
        public let isExternal: Bool
    }

    /// One relationship, as the store records it.
    public struct Relationship: Codable, Sendable, Equatable {
        public let name: String
        public let destination: String
        public let isToMany: Bool
        public let inverse: String?
        public let deleteRule: String
    }

    /// One index of an entity's table.
    public struct Index: Codable, Sendable, Equatable {
        public let name: String
        public let columns: [String]
        public let isUnique: Bool
    }

    /// One entity and its table.
    public struct Entity: Codable, Sendable {
        public let name: String
        /// The entity it inherits from, for a class of a hierarchy.
        public var superentity: String? = nil
        public let rows: Int
        public let attributes: [Attribute]
        public let relationships: [Relationship]
        public let indices: [Index]
    }

    /// One step of a migration the store went through.
    public struct MigrationRecord: Codable, Sendable, Equatable {
        public let fromVersion: String
        public let toVersion: String
        public let kind: String
        public let rowsChanged: Int
        public let milliseconds: Int
        public let appliedAt: Date
    }

    /// A transaction of the store's persistent history, as `osd history` lists it.
    public struct HistoryRecord: Codable, Sendable {
        /// The transaction's number: `--since` it lists what came after.
        public let transaction: Int64
        public let timestamp: Date
        public let author: String?
        public let bundleIdentifier: String
        public let processIdentifier: String
        /// Each change: `insert Note 3`, `update Note 1 (title, body)`, `delete Note 2 {code: "B2"}`.
        public let changes: [String]
    }

    /// A file of the store, with its size.
    public struct File: Codable, Sendable, Equatable {
        public let path: String
        public let bytes: Int
    }

    public let path: String
    /// The version of the schema the store records.
    public let version: String
    /// A digest of its structure (16 hexadecimal digits): two stores with one structure have
    /// one fingerprint.
    public let fingerprint: String
    public let entities: [Entity]
    public let history: [MigrationRecord]
    /// How many transactions, and changes in them, the persistent history keeps.
    public let historyTransactions: Int
    public let historyChanges: Int
    /// The store, its write-ahead log when there is one, and nothing else.
    public let files: [File]
    /// Backups beside the store (`<store>.backup`).
    public let backups: [File]
    /// Schema objects in the file that OpenSwiftData did not make (triggers, views, tables and
    /// indices its schema has no place for), each as `trigger "name" on "Table"`: a container
    /// refuses the store while any is there.
    public let foreignObjects: [String]

    /// Reads the store at `url`.
    ///
    /// - Parameter url: the store file.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when there is no file, or it is not
    ///   an SQLite database, or not a store.
    public init(storeAt url: URL) throws {
        let contents = try StoreFileReader.read(url)
        self.init(
            path: url.path, versionIdentifier: contents.metadata.versionIdentifier, fingerprint: contents.metadata.fingerprint,
            schema: try contents.metadata.schema(), rowCounts: contents.rowCounts, indices: contents.indices,
            columnDefaults: contents.columnDefaults,
            history: contents.history.map {
                MigrationRecord(fromVersion: $0.from, toVersion: $0.to, kind: $0.kind, rowsChanged: $0.rowsChanged, milliseconds: $0.milliseconds, appliedAt: $0.appliedAt)
            },
            files: [url.path, url.path + "-wal"].compactMap(Self.file), backups: [url.path + ".backup"].compactMap(Self.file),
            foreignObjects: contents.foreignObjects.map(\.description), persistentHistory: contents.persistentHistory)
    }

    /// An inspection of a store of any kind, from what was read of it: the schema it records
    /// and what its tables hold.
    package init(
        path: String, versionIdentifier: String, fingerprint: String, schema: Schema, rowCounts: [String: Int],
        indices: [String: [(name: String, columns: [String], unique: Bool)]], columnDefaults: [String: [String: String]],
        history: [MigrationRecord], files: [File], backups: [File], foreignObjects: [String],
        persistentHistory: (transactions: Int, changes: Int)
    ) {
        self.path = path
        version = versionIdentifier
        self.fingerprint = Self.digest(fingerprint)
        entities = schema.entities.map { entity in
            let unique = Set(entity.uniquenessConstraints.filter { $0.count == 1 }.map { $0[0] })
            return Entity(
                name: entity.name, superentity: entity.superentityName,
                rows: rowCounts[entity.name] ?? 0,
                attributes: entity.attributesInOrder.map { attribute in
                    Attribute(
                        name: attribute.name, type: Self.unwrapped(attribute.valueTypeName), isOptional: attribute.isOptional,
                        isUnique: attribute.isUnique || unique.contains(attribute.name),
                        defaultValue: columnDefaults[entity.name]?[attribute.name],
                        isExternal: attribute.options.contains(.externalStorage))
                },
                relationships: entity.relationshipsInOrder.map { relationship in
                    Relationship(
                        name: relationship.name, destination: relationship.destination, isToMany: !relationship.isToOne,
                        inverse: relationship.inverseName, deleteRule: "\(relationship.deleteRule)")
                },
                indices: (indices[entity.name] ?? []).map { Index(name: $0.name, columns: $0.columns, isUnique: $0.unique) })
        }
        self.history = history
        self.files = files
        self.backups = backups
        self.foreignObjects = foreignObjects
        historyTransactions = persistentHistory.transactions
        historyChanges = persistentHistory.changes
    }

    /// The persistent history of the store at `url`: its transactions after `transaction`
    /// (every one it keeps when `nil`), oldest first, each change named with its entity and
    /// row. Reads only; needs no model class.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is not a store.
    public static func persistentHistory(ofStoreAt url: URL, since transaction: Int64? = nil) throws -> [HistoryRecord] {
        try StoreFileReader.persistentHistory(url, since: transaction).map { recorded in
            HistoryRecord(
                transaction: recorded.id, timestamp: recorded.timestamp, author: recorded.author,
                bundleIdentifier: recorded.bundle, processIdentifier: recorded.process,
                changes: recorded.changes.map { _, change in
                    switch change.kind {
                    case .insert: return "insert \(change.entity) \(change.row)"
                    case .update: return "update \(change.entity) \(change.row) (\(change.updated.joined(separator: ", ")))"
                    case .delete:
                        let kept = change.tombstone.map { "\($0.attribute): \($0.value.databaseValue)" }.joined(separator: ", ")
                        return "delete \(change.entity) \(change.row)" + (kept.isEmpty ? "" : " {\(kept)}")
                    }
                })
        }
    }

    /// Checks the store at `url`: SQLite's integrity and foreign-key checks, the metadata
    /// against the schema it records, every table and column that schema names, and its unique
    /// constraints. Reads only.
    ///
    /// - Parameter url: the store file.
    /// - Returns: the problems found, each saying where; empty for a sound store.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is missing or is not
    ///   an SQLite database.
    public static func problems(inStoreAt url: URL) throws -> [String] {
        try StoreFileReader.problems(url)
    }

    /// The schema the store at `url` records: the snapshot of the version that wrote it.
    ///
    /// - Parameter url: the store file.
    /// - Returns: the recorded schema, which ``Schema/save(to:)`` writes in the snapshot format.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is not a store.
    public static func recordedSchema(ofStoreAt url: URL) throws -> Schema {
        try StoreFileReader.metadata(url).schema()
    }

    /// FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `Wrapped` for `Optional<Wrapped>`.
    private static func unwrapped(_ typeName: String) -> String {
        guard typeName.hasPrefix("Optional<"), typeName.hasSuffix(">") else { return typeName }
        return String(typeName.dropFirst("Optional<".count).dropLast())
    }

    private static func file(_ path: String) -> File? {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else { return nil }
        return File(path: path, bytes: size)
    }
}
