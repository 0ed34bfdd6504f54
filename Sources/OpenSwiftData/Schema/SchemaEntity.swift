extension Schema {
    /// A kind of model in a schema: its name, attributes, relationships, uniqueness constraints
    /// and indices, and, for a class in a hierarchy, its superentity and subentities.
    ///
    /// The entity's name is the model class's unqualified name, so `V1.Film` and `V2.Film` are
    /// both the entity `Film`. A subclass's entity declares its own properties
    /// (``storedProperties``) and inherits its superentity's (``inheritedProperties``, the same
    /// objects); ``properties`` and ``attributes`` hold both.
    public final class Entity: Codable, Hashable, CustomDebugStringConvertible, @unchecked Sendable {
        public final var name: String
        public final var subentities: Set<Entity> = []
        public final var superentityName: String?
        public final var superentity: Entity?
        /// The entity's own persisted properties, in declaration order.
        public final var storedProperties: [any SchemaProperty]
        /// The properties of the superentity (its own and those it inherits), in order.
        public final var inheritedProperties: [any SchemaProperty] = []
        /// Each inner array names properties whose values together are unique.
        public final var uniquenessConstraints: [[String]]
        /// Each inner array names the properties of one index.
        public final var indices: [[String]]

        public final var properties: [any SchemaProperty] { inheritedProperties + storedProperties }

        public final var attributes: Set<Attribute> { Set(attributesInOrder) }
        public final var relationships: Set<Relationship> { Set(relationshipsInOrder) }

        public final var attributesByName: [String: Attribute] {
            Dictionary(attributesInOrder.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        public final var relationshipsByName: [String: Relationship] {
            Dictionary(relationshipsInOrder.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        public final var storedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(storedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        public final var inheritedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(inheritedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The attributes in declaration order, inherited ones first.
        package var attributesInOrder: [Attribute] { properties.compactMap { $0 as? Attribute } }
        /// The relationships in declaration order, inherited ones first.
        package var relationshipsInOrder: [Relationship] { properties.compactMap { $0 as? Relationship } }
        /// The attributes the entity declares itself, in order.
        package var declaredAttributes: [Attribute] { storedProperties.compactMap { $0 as? Attribute } }
        /// The relationships the entity declares itself, in order.
        package var declaredRelationships: [Relationship] { storedProperties.compactMap { $0 as? Relationship } }

        /// An entity with no properties, constraints or indices.
        ///
        /// - Parameter name: The entity's name.
        public init(_ name: String) {
            self.name = name
            storedProperties = []
            uniquenessConstraints = []
            indices = []
        }

        /// An entity with subentities and properties; each property marked unique is a uniqueness
        /// constraint of its own.
        ///
        /// - Parameters:
        ///   - name: The entity's name.
        ///   - subentities: The entities that inherit from it.
        ///   - properties: Its properties, in declaration order.
        public init(_ name: String, subentities: Entity..., properties: any SchemaProperty...) {
            self.name = name
            self.subentities = Set(subentities)
            storedProperties = properties
            uniquenessConstraints = Self.uniqueAttributeNames(properties)
            indices = []
        }

        /// An entity with properties; each property marked unique is a uniqueness constraint of its
        /// own.
        ///
        /// - Parameters:
        ///   - name: The entity's name.
        ///   - properties: Its properties, in declaration order.
        public init(_ name: String, properties: any SchemaProperty...) {
            self.name = name
            storedProperties = properties
            uniquenessConstraints = Self.uniqueAttributeNames(properties)
            indices = []
        }

        init(
            name: String, superentityName: String? = nil, properties: [any SchemaProperty], uniquenessConstraints: [[String]],
            indices: [[String]]
        ) {
            self.name = name
            self.superentityName = superentityName
            storedProperties = properties
            self.uniquenessConstraints = uniquenessConstraints
            self.indices = indices
        }

        private static func uniqueAttributeNames(_ properties: [any SchemaProperty]) -> [[String]] {
            properties.filter(\.isUnique).map { [$0.name] }
        }

        public var debugDescription: String {
            let superentity = superentityName.map { ", superentity: \($0)" } ?? ""
            return "Entity(\(name)\(superentity), properties: \(storedProperties.map(\.name)), unique: \(uniquenessConstraints), indices: \(indices))"
        }

        // MARK: Codable (the store's snapshot)

        private enum CodingKeys: String, CodingKey {
            case name, superentity, attributes, relationships, uniquenessConstraints, indices
        }

        /// Decodes an entity from a store's schema snapshot: its name, attributes, relationships,
        /// uniqueness constraints and indices.
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when the JSON is not an entity's.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            superentityName = try container.decodeIfPresent(String.self, forKey: .superentity)
            let attributes = try container.decode([Attribute].self, forKey: .attributes)
            let relationships = try container.decode([Relationship].self, forKey: .relationships)
            storedProperties = attributes + relationships
            uniquenessConstraints = try container.decode([[String]].self, forKey: .uniquenessConstraints)
            indices = try container.decode([[String]].self, forKey: .indices)
        }

        /// Encodes what a store's schema snapshot records of the entity: its name, its
        /// superentity's when it has one, the attributes and relationships it declares in
        /// declaration order, its uniqueness constraints and its indices.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: The encoder's errors.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(superentityName, forKey: .superentity)
            try container.encode(declaredAttributes, forKey: .attributes)
            try container.encode(declaredRelationships, forKey: .relationships)
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
            try container.encode(indices, forKey: .indices)
        }

        /// Entities are equal when their names, superentities' names, declared attributes and
        /// relationships (in declaration order), uniqueness constraints and indices are.
        ///
        /// - Parameters:
        ///   - lhs: An entity.
        ///   - rhs: Another entity.
        /// - Returns: Whether all six are equal.
        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.superentityName == rhs.superentityName
                && lhs.declaredAttributes == rhs.declaredAttributes
                && lhs.declaredRelationships == rhs.declaredRelationships
                && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
        }

        /// Hashes the entity's name.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
        }
    }
}

extension Schema.Entity {
    /// The attribute of this, older, version of the entity that `attribute` of a newer version
    /// continues: the one its `originalName` names, else the one with its name.
    package func attribute(continuedBy attribute: Schema.Attribute) -> Schema.Attribute? {
        attributesByName[attribute.originalName] ?? attributesByName[attribute.name]
    }

    /// The relationship of this, older, version of the entity that `relationship` continues.
    package func relationship(continuedBy relationship: Schema.Relationship) -> Schema.Relationship? {
        relationshipsByName[relationship.originalName] ?? relationshipsByName[relationship.name]
    }
}

extension Schema.Entity {
    /// Links the hierarchies among `entities`: each entity named as another's superentity (or
    /// given as another's subentity) gets it as ``superentity`` and is among its
    /// ``subentities``, and inherits its properties. Returns `entities` with the subentities
    /// given only inside another entity added, and the names of superentities that are not
    /// among them.
    static func linkHierarchies(_ entities: [Schema.Entity]) -> (entities: [Schema.Entity], missingSuperentities: [(entity: String, superentity: String)]) {
        var all = entities
        var index = 0
        while index < all.count {
            for subentity in all[index].subentities {
                subentity.superentityName = all[index].name
                if !all.contains(where: { $0 === subentity }) { all.append(subentity) }
            }
            index += 1
        }
        let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var missing: [(String, String)] = []
        var linked: Set<String> = []
        func link(_ entity: Schema.Entity, depth: Int) {
            guard linked.insert(entity.name).inserted else { return }
            guard let name = entity.superentityName else { return }
            guard let superentity = byName[name], depth < all.count else {
                missing.append((entity.name, name))
                return
            }
            link(superentity, depth: depth + 1)
            entity.superentity = superentity
            superentity.subentities.insert(entity)
            entity.inheritedProperties = superentity.properties
        }
        for entity in all { link(entity, depth: 0) }
        return (all, missing)
    }

    /// The entity at the root of the entity's hierarchy: itself when it has no superentity.
    package var rootEntity: Schema.Entity {
        var entity = self
        while let superentity = entity.superentity, superentity !== self { entity = superentity }
        return entity
    }

    /// The entity that declares `property`, one of this entity's: itself, or the superentity
    /// it inherits the property from.
    package func declaring(_ property: any SchemaProperty) -> Schema.Entity {
        let object = property as AnyObject
        var entity = self
        while !entity.storedProperties.contains(where: { ($0 as AnyObject) === object }), let superentity = entity.superentity {
            entity = superentity
        }
        return entity
    }

    /// The entity's uniqueness constraints and its superentities': a value unique in a
    /// superentity is unique among the rows of every class below it.
    package var uniquenessConstraintsWithInherited: [[String]] {
        (superentity?.uniquenessConstraintsWithInherited ?? []) + uniquenessConstraints
    }

    /// How many superentities are above the entity.
    package var depth: Int {
        var depth = 0
        var entity = self
        while let superentity = entity.superentity, depth < 64 {
            entity = superentity
            depth += 1
        }
        return depth
    }

    /// The entity and every entity below it in its hierarchy.
    package var selfAndDescendants: [Schema.Entity] {
        [self] + subentities.sorted { $0.name < $1.name }.flatMap(\.selfAndDescendants)
    }
}
