import Foundation

/// The entities a container stores, built from model classes.
///
/// ```swift
/// let schema = Schema([Film.self, Studio.self])
/// let container = try ModelContainer(for: schema)
/// ```
///
/// Models reached through relationships join the schema even when not listed. A schema encodes
/// to a stable, canonical JSON form; every store records the schema it was written with, so the
/// store can be opened, inspected and migrated without guessing what is on disk.
public final class Schema: Codable, Hashable, CustomDebugStringConvertible, @unchecked Sendable {
    /// The version of the format schemas encode to.
    public static let schemaEncodingVersion = Version(1, 0, 0)

    public final let encodingVersion: Version
    /// The version the schema was declared with (`VersionedSchema.versionIdentifier`), or 1.0.0.
    public final let version: Version
    /// The entities, ordered by name.
    public final let entities: [Entity]
    public final let entitiesByName: [String: Entity]

    /// The model class behind each entity, by entity name; empty for a decoded schema.
    let layouts: [String: ModelLayout]
    /// Whether the schema is a `VersionedSchema`'s, or the version of a migration plan its
    /// models match: a store written with it is then migrated only through the app's plan.
    /// Set only as the schema is made.
    package var isVersioned = false
    /// What is wrong with the models, found while building the schema; opening a container with
    /// the schema throws them.
    let problems: [String]

    /// An empty schema: no entities, version 1.0.0.
    public init() {
        encodingVersion = Self.schemaEncodingVersion
        version = Version(1, 0, 0)
        entities = []
        entitiesByName = [:]
        layouts = [:]
        problems = []
    }

    /// A schema of entities described by hand, with no model classes behind them.
    ///
    /// - Parameters:
    ///   - entities: The entities.
    ///   - version: The schema's version.
    public convenience init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        self.init(describing: entities, version: version)
    }

    /// A schema of entities described by hand (or read from a store), with no model classes
    /// behind them; a subentity names its superentity (``Entity/superentityName``).
    package init(describing entities: [Entity], version: Version) {
        encodingVersion = Self.schemaEncodingVersion
        self.version = version
        let linked = Entity.linkHierarchies(entities).entities
        self.entities = linked.sorted { $0.name < $1.name }
        entitiesByName = Dictionary(linked.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        layouts = [:]
        problems = []
    }

    /// The schema of model classes: their entities, and those of the models their relationships
    /// reach.
    ///
    /// A model that cannot be stored does not stop the schema from being built: creating a
    /// container with the schema throws, naming the model and the property.
    ///
    /// - Parameters:
    ///   - types: The model classes.
    ///   - version: The schema's version, which a store written with it records.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        let built = SchemaBuilder(types)
        encodingVersion = Self.schemaEncodingVersion
        self.version = version
        entities = built.entities.sorted { $0.name < $1.name }
        entitiesByName = Dictionary(built.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        layouts = built.layouts
        problems = built.problems
    }

    /// The schema of model classes: their entities, and those of the models their relationships
    /// reach.
    ///
    /// - Parameters:
    ///   - types: The model classes.
    ///   - version: The schema's version, which a store written with it records.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The same entities and models under another version: the version of a migration plan
    /// that the models match, which a store then records.
    func withVersion(_ version: Version) -> Schema {
        let versioned = Schema(entities: entities, layouts: layouts, problems: problems, version: version)
        versioned.isVersioned = true
        return versioned
    }

    /// The schema of the entities named (and those their relationships reach), under the same
    /// version: what one of several configurations stores. The schema itself when it names
    /// every entity.
    ///
    /// The entities are this schema's own, not rebuilt from their classes: a class reached
    /// through a relationship may be another version's class of an entity's name (a model a
    /// version takes from an older one through a typealias), and rebuilding would let it stand
    /// for the entity instead of the class the version lists.
    func restricted<Names: Sequence<String>>(to entityNames: Names) -> Schema {
        var names = Set(entityNames)
        var pending = Array(names)
        while let name = pending.popLast() {
            let entity = entitiesByName[name]
            // A hierarchy is stored together: its entities go where any of them goes.
            let hierarchy = entity.map { $0.rootEntity.selfAndDescendants.map(\.name) } ?? []
            for reached in (entity?.relationshipsInOrder.map(\.destination) ?? []) + hierarchy where names.insert(reached).inserted {
                pending.append(reached)
            }
        }
        if entities.allSatisfy({ names.contains($0.name) }) { return self }
        let restricted = Schema(
            entities: entities.filter { names.contains($0.name) }, layouts: layouts.filter { names.contains($0.key) },
            problems: problems, version: version)
        restricted.isVersioned = isVersioned
        return restricted
    }

    private init(entities: [Entity], layouts: [String: ModelLayout], problems: [String], version: Version) {
        encodingVersion = Self.schemaEncodingVersion
        self.version = version
        self.entities = entities
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.layouts = layouts
        self.problems = problems
    }

    /// The entity of a model class, if the schema has it.
    ///
    /// - Parameter type: A model class.
    /// - Returns: The entity of the class's name, or `nil` when the schema has none.
    public final func entity<T>(for type: T.Type) -> Entity? where T: PersistentModel {
        entitiesByName[Self.entityName(for: type)]
    }

    /// The entity name of a model class: its unqualified name (`V2.Film` is `Film`).
    ///
    /// - Parameter type: A model class.
    /// - Returns: The class's name without its module and enclosing types.
    public static func entityName<T>(for type: T.Type) -> String where T: PersistentModel {
        entityName(for: type as any PersistentModel.Type)
    }

    static func entityName(for type: any PersistentModel.Type) -> String {
        // What `String(describing:)` gives a type, without its look for conformances.
        _typeName(type, qualified: false)
    }

    /// Throws the problems found in the models, if any, naming each model and property.
    package func validate() throws {
        guard problems.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the models cannot be stored:\n" + problems.map { "- \($0)" }.joined(separator: "\n"))
        }
    }

    // MARK: Saving and loading

    /// Writes the schema's canonical JSON to a file.
    ///
    /// - Parameter toURL: The file to write; replaced atomically.
    /// - Throws: An error encoding the schema or writing the file.
    public final func save(to toURL: URL) throws {
        try canonicalJSON().write(to: toURL, options: .atomic)
    }

    /// Reads a schema written by ``save(to:)``.
    ///
    /// - Parameter fromURL: The file to read.
    /// - Returns: The schema, with no model classes behind it.
    /// - Throws: An error reading the file or decoding the schema.
    public static func load(from fromURL: URL) throws -> Schema {
        try JSONDecoder().decode(Schema.self, from: Data(contentsOf: fromURL))
    }

    /// The schema's JSON with keys sorted and entities in name order: equal schemas give equal
    /// bytes.
    package func canonicalJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    private enum CodingKeys: String, CodingKey { case encodingVersion, version, entities }

    /// Decodes a schema from its JSON: its entities and their properties, with no model classes
    /// behind them.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the JSON is not a schema's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        encodingVersion = try container.decode(Version.self, forKey: .encodingVersion)
        version = try container.decode(Version.self, forKey: .version)
        let decoded = try container.decode([Entity].self, forKey: .entities)
        let linked = Entity.linkHierarchies(decoded)
        if let missing = linked.missingSuperentities.first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [CodingKeys.entities],
                debugDescription: "the entity \(missing.entity) names \(missing.superentity) as its superentity, which the schema does not have"))
        }
        entities = linked.entities.sorted { $0.name < $1.name }
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        layouts = [:]
        problems = []
    }

    /// Encodes the schema as a store's snapshot records it: its encoding version, its version and
    /// its entities.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public final func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodingVersion, forKey: .encodingVersion)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }

    /// Schemas are equal when their versions are and their entities are.
    ///
    /// - Parameters:
    ///   - lhs: A schema.
    ///   - rhs: Another schema.
    /// - Returns: Whether both have the same version and equal entities.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities == rhs.entities
    }

    /// Hashes the version and the entities' names.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name))
    }

    public var debugDescription: String {
        "Schema(version: \(version), entities: \(entities.map(\.debugDescription)))"
    }
}
