import Foundation

/// What a store written by Apple's SwiftData or Core Data holds (Core Data's SQLite layout:
/// `ZTRIP` tables, `Z_PK`, `Z_ENT`, `Z_PRIMARYKEY`, `Z_METADATA`), read from the file alone and
/// without writing to it or the files beside it: entities with their tables, columns and row
/// counts, join tables, the version identifiers and entity hashes the store records, its
/// persistent history and its external data. `osd inspect` prints it.
///
/// ```swift
/// let inspection = try AppleStoreInspection(storeAt: URL(fileURLWithPath: "default.store"))
/// print(inspection.versionIdentifiers, inspection.entities.map { "\($0.name): \($0.rows)" })
/// ```
public struct AppleStoreInspection: Codable, Sendable {
    /// One column of an entity's table, with the SQL type the store declared.
    public struct Column: Codable, Sendable, Equatable {
        public let name: String
        public let declaredType: String
    }

    /// One entity, as `Z_PRIMARYKEY` numbers it.
    public struct Entity: Codable, Sendable, Equatable {
        public let name: String
        /// Its number (`Z_ENT`), which its rows carry.
        public let number: Int
        /// The entity it inherits from, if any: its rows are in the root entity's table.
        public let superentity: String?
        /// The table its rows are in (`Z` and the root entity's name in capitals).
        public let table: String
        /// The rows of this entity (not of its subentities).
        public let rows: Int
        /// The highest primary key handed out (`Z_MAX`).
        public let maximumPrimaryKey: Int
        /// The table's columns, `Z_PK`, `Z_ENT` and `Z_OPT` first.
        public let columns: [Column]
    }

    /// A table joining the models of a many-to-many relationship (`Z_<number><NAME>`).
    public struct JoinTable: Codable, Sendable, Equatable {
        public let name: String
        public let columns: [Column]
        public let rows: Int
    }

    /// One attribute of the model the store keeps.
    public struct ModelAttribute: Codable, Sendable, Equatable {
        public let name: String
        /// Core Data's type of it (`Int64`, `String`, `Date`, `UUID`, `Transformable`, …).
        public let type: String
        public let isOptional: Bool
        /// The class of its values (`NSString`, `NSNumber`, …).
        public let valueClassName: String?
        /// A transformable attribute's transformer.
        public let transformerName: String?
    }

    /// One relationship of the model the store keeps.
    public struct ModelRelationship: Codable, Sendable, Equatable {
        public let name: String
        public let destination: String
        public let inverse: String?
        public let isToMany: Bool
        public let isOptional: Bool
        /// `nullify`, `cascade`, `deny` or `noAction`.
        public let deleteRule: String
        public let isOrdered: Bool
    }

    /// One entity of the model the store keeps, its inherited properties included.
    public struct ModelEntity: Codable, Sendable, Equatable {
        public let name: String
        public let superentity: String?
        public let isAbstract: Bool
        /// Its uniqueness constraints (`@Attribute(.unique)`, `#Unique`), each a list of
        /// property names.
        public let uniquenessConstraints: [[String]]
        public let attributes: [ModelAttribute]
        public let relationships: [ModelRelationship]
    }

    public let entities: [Entity]
    public let joinTables: [JoinTable]
    /// The model the store was written with, from its model cache (`Z_MODELCACHE`): `nil` when
    /// the store keeps none or it could not be read (``modelProblem`` says why).
    public let model: [ModelEntity]?
    /// Why the model cache could not be read, when it could not.
    public let modelProblem: String?
    /// The models' version identifiers, as the store's metadata records them
    /// (`NSStoreModelVersionIdentifiers`).
    public let versionIdentifiers: [String]
    /// Each entity's version hash (`NSStoreModelVersionHashes`), what Core Data compares to
    /// decide whether a store needs migrating.
    public let versionHashes: [String: Data]
    /// The store's identifier (`Z_METADATA.Z_UUID`), which its models' URIs carry.
    public let storeIdentifier: String?
    /// The store type the metadata names (`NSStoreType`, "SQLite").
    public let storeType: String?
    /// Whether the store keeps its compiled model (`Z_MODELCACHE`, a keyed archive compressed
    /// with raw DEFLATE).
    public let hasModelCache: Bool
    /// How much persistent history a store keeps.
    public struct History: Codable, Sendable, Equatable {
        public let transactions: Int
        public let changes: Int
    }

    /// The persistent history's transactions and changes, when the store keeps one.
    public let history: History?
    /// The files of attributes kept outside the store (`.<store>_SUPPORT/_EXTERNAL_DATA`).
    public let externalDataFiles: Int

    /// Reads the store at `url` from a copy; the store and the files beside it are left as
    /// they are.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when there is no file, it is not
    ///   an SQLite database, or its tables are not Core Data's layout, saying which.
    public init(storeAt url: URL) throws {
        self = try AppleStoreReader.inspect(url)
    }

    /// What is wrong with the store at `url`, read from a copy: SQLite's integrity check, rows
    /// naming entities their table does not hold, primary keys past `Z_MAX`, to-one and join
    /// table columns naming rows that are not there, entities of the model `Z_PRIMARYKEY` does
    /// not number, entities without a version hash, a model cache that cannot be read. Empty
    /// when nothing is.
    public static func problems(inStoreAt url: URL) throws -> [String] {
        try AppleStoreCheck.problems(url)
    }

    /// Whether the file at `url` is an SQLite database in Core Data's layout (read from a copy).
    public static func isAppleStore(at url: URL) -> Bool {
        AppleStoreReader.hasAppleLayout(url)
    }

    init(
        entities: [Entity], joinTables: [JoinTable], model: [ModelEntity]?, modelProblem: String?, versionIdentifiers: [String], versionHashes: [String: Data],
        storeIdentifier: String?, storeType: String?, hasModelCache: Bool, history: History?, externalDataFiles: Int
    ) {
        self.entities = entities
        self.joinTables = joinTables
        self.model = model
        self.modelProblem = modelProblem
        self.versionIdentifiers = versionIdentifiers
        self.versionHashes = versionHashes
        self.storeIdentifier = storeIdentifier
        self.storeType = storeType
        self.hasModelCache = hasModelCache
        self.history = history
        self.externalDataFiles = externalDataFiles
    }
}
