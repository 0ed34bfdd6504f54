extension Schema {
    /// A property whose value is another model (to-one) or an array of models (to-many).
    ///
    /// Properties typed `Model`, `Model?`, `[Model]` or `[Model]?` are relationships with or
    /// without `@Relationship`; the macro's arguments set the delete rule, the inverse, the
    /// bounds on the number of related models and the original name.
    public final class Relationship: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        public final var name: String
        public final var originalName: String
        public final var keypath: AnyKeyPath?
        public final var options: [Option]
        public final var valueType: any Any.Type
        /// The entity name of the related models.
        public final var destination: String
        public final var deleteRule: DeleteRule
        public final var inverseName: String?
        public final var inverseKeyPath: AnyKeyPath?
        public final var minimumModelCount: Int?
        public final var maximumModelCount: Int?
        public final var hashModifier: String?
        /// Whether the relationship holds at most one model.
        var isToOne: Bool
        /// Whether `inverse: nil` was written explicitly, which makes the relationship one-way.
        var isExplicitlyUnidirectional = false
        var isOptionalValue: Bool

        /// The marker a `@Relationship` declaration records, before the schema gives it its
        /// property's name, destination and cardinality.
        ///
        /// - Parameters:
        ///   - options: The relationship's options.
        ///   - deleteRule: What deleting the model does to the models the relationship holds.
        ///   - minimumModelCount: The fewest related models allowed at save; `0` for no bound.
        ///   - maximumModelCount: The most related models allowed at save; `0` for no bound.
        ///   - originalName: The property's name in the previous version; `nil` when it was not
        ///     renamed.
        ///   - inverse: The key path of the destination's property that points back.
        ///   - hashModifier: A string mixed into the schema's fingerprint.
        public init(
            _ options: Option..., deleteRule: DeleteRule = .nullify,
            minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
            inverse: AnyKeyPath? = nil, hashModifier: String? = nil
        ) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.keypath = nil
            self.options = options
            self.valueType = Any.self
            self.destination = ""
            self.deleteRule = deleteRule
            self.inverseName = nil
            self.inverseKeyPath = inverse
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.hashModifier = hashModifier
            self.isToOne = true
            self.isOptionalValue = false
        }

        /// A new relationship with the options a `@Relationship` marker declared, or the defaults.
        convenience init(copying marker: Relationship?) {
            self.init()
            guard let marker else { return }
            options = marker.options
            deleteRule = marker.deleteRule
            minimumModelCount = marker.minimumModelCount
            maximumModelCount = marker.maximumModelCount
            originalName = marker.originalName
            inverseKeyPath = marker.inverseKeyPath
            hashModifier = marker.hashModifier
            isExplicitlyUnidirectional = marker.isExplicitlyUnidirectional
        }

        /// Marks a relationship declared with `inverse: nil`: it has no inverse, even where one
        /// could be inferred. `@Model` calls this; you don't.
        ///
        /// - Parameter relationship: The marker of the declaration.
        /// - Returns: The same marker, marked one-way.
        public static func _explicitlyUnidirectional(_ relationship: Relationship) -> Relationship {
            relationship.isExplicitlyUnidirectional = true
            return relationship
        }

        public final var isToOneRelationship: Bool { isToOne }
        public final var isUnique: Bool { options.contains(.unique) }
        public final var isAttribute: Bool { false }
        public final var isRelationship: Bool { true }
        public final var isTransient: Bool { false }
        public final var isOptional: Bool { isOptionalValue }

        public var debugDescription: String {
            "Relationship(name: \(name), destination: \(destination), toOne: \(isToOne), inverse: \(inverseName ?? "nil"), deleteRule: \(deleteRule))"
        }

        // MARK: Codable (the store's snapshot)

        private enum CodingKeys: String, CodingKey {
            case name, originalName, options, destination, deleteRule, inverseName
            case minimumModelCount, maximumModelCount, hashModifier, isToOne, isOptional
        }

        /// Decodes a relationship from a store's schema snapshot: it has no key paths and no Swift
        /// type (`valueType` is `Any`).
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when the JSON is not a relationship's.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decode(String.self, forKey: .originalName)
            options = try container.decode([Option].self, forKey: .options)
            destination = try container.decode(String.self, forKey: .destination)
            deleteRule = try container.decode(DeleteRule.self, forKey: .deleteRule)
            inverseName = try container.decodeIfPresent(String.self, forKey: .inverseName)
            minimumModelCount = try container.decodeIfPresent(Int.self, forKey: .minimumModelCount)
            maximumModelCount = try container.decodeIfPresent(Int.self, forKey: .maximumModelCount)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            isToOne = try container.decode(Bool.self, forKey: .isToOne)
            isOptionalValue = try container.decode(Bool.self, forKey: .isOptional)
            keypath = nil
            inverseKeyPath = nil
            valueType = Any.self
        }

        /// Encodes what a store's schema snapshot records of the relationship: its names, options,
        /// destination, delete rule, inverse, count bounds, hash modifier, cardinality and
        /// optionality.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: The encoder's errors.
        public final func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encode(destination, forKey: .destination)
            try container.encode(deleteRule, forKey: .deleteRule)
            try container.encodeIfPresent(inverseName, forKey: .inverseName)
            try container.encodeIfPresent(minimumModelCount, forKey: .minimumModelCount)
            try container.encodeIfPresent(maximumModelCount, forKey: .maximumModelCount)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
            try container.encode(isToOne, forKey: .isToOne)
            try container.encode(isOptionalValue, forKey: .isOptional)
        }

        /// Relationships are equal when everything a store's snapshot records of them is.
        ///
        /// - Parameters:
        ///   - lhs: A relationship.
        ///   - rhs: Another relationship.
        /// - Returns: Whether both record the same names, options, destination, delete rule,
        ///   inverse, count bounds, hash modifier, cardinality and optionality.
        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.inverseName == rhs.inverseName && lhs.minimumModelCount == rhs.minimumModelCount
                && lhs.maximumModelCount == rhs.maximumModelCount && lhs.hashModifier == rhs.hashModifier
                && lhs.isToOne == rhs.isToOne && lhs.isOptionalValue == rhs.isOptionalValue
        }

        /// Hashes the name, the destination and the cardinality.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
            hasher.combine(isToOne)
        }
    }
}

extension Schema.Relationship {
    /// What deleting a model does to the models its relationship holds.
    public enum DeleteRule: String, Codable, Hashable, Sendable {
        /// Nothing: related models keep their references. You take care of them.
        case noAction
        /// Related models stop referring to the deleted one (the default).
        case nullify
        /// Related models are deleted too, and their own rules apply in turn.
        case cascade
        /// The delete is refused while the relationship holds any model; the save fails.
        case deny
    }

    /// An option of `@Relationship`.
    public struct Option: Codable, Hashable, Sendable, CustomDebugStringConvertible {
        let kind: String

        /// No two models may relate to the same model through this to-one relationship.
        public static var unique: Option { Option(kind: "unique") }

        public var debugDescription: String { kind }
    }
}
