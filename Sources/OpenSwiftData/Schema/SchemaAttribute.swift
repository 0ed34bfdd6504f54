import Foundation

extension Schema {
    /// A persisted value property of an entity: its name, options, value type and default.
    ///
    /// `@Attribute(.unique, originalName: "title") var name: String` becomes an attribute named
    /// `name` whose `originalName` is `title` and whose options contain `.unique`. Unannotated
    /// properties become attributes with no options.
    public class Attribute: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable {
        public var name: String
        /// The property's name in the previous schema version; equal to `name` unless renamed.
        public var originalName: String
        public var options: [Option]
        public var valueType: any Any.Type
        public var defaultValue: Any?
        public var isOptional: Bool
        /// A string mixed into the attribute's fingerprint, to make a version distinct when only
        /// the meaning of its data changed.
        public var hashModifier: String?
        /// What the column holds; `nil` when the value type cannot be stored.
        package var storageType: StorageType?
        /// The name of the Swift value type, as recorded in a store's snapshot.
        var valueTypeName: String

        /// The marker an `@Attribute` declaration records, before the schema gives it its
        /// property's name and type.
        ///
        /// - Parameters:
        ///   - options: The attribute's options.
        ///   - originalName: The property's name in the previous version; `nil` when it was not
        ///     renamed.
        ///   - hashModifier: A string mixed into the schema's fingerprint.
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.originalName = originalName ?? ""
            self.options = options
            self.valueType = Any.self
            self.defaultValue = nil
            self.isOptional = false
            self.hashModifier = hashModifier
            self.storageType = nil
            self.valueTypeName = "Any"
        }

        /// An attribute described in full.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - originalName: Its name in the previous version; `name` when `nil`.
        ///   - options: Its options.
        ///   - valueType: The Swift type of its values; an `Optional` type makes it optional.
        ///   - defaultValue: The value a new model starts with, when the declaration gives one.
        ///   - hashModifier: A string mixed into the schema's fingerprint.
        public init(
            name: String, originalName: String? = nil, options: [Option] = [],
            valueType: any Any.Type, defaultValue: Any? = nil, hashModifier: String? = nil
        ) {
            self.name = name
            self.originalName = originalName ?? name
            self.options = options
            self.valueType = valueType
            self.defaultValue = defaultValue
            self.isOptional = valueType is any OptionalProtocol.Type
            self.hashModifier = hashModifier
            self.storageType = ValueCodec.forType(valueType, codable: options.contains(.codable))?.storage
            // What `String(describing:)` gives a type, without its look for conformances.
            self.valueTypeName = _typeName(valueType, qualified: false)
        }

        public var isAttribute: Bool { true }
        public var isRelationship: Bool { false }
        public var isTransient: Bool { options.contains(.ephemeral) }
        public var isUnique: Bool { options.contains(.unique) }
        public var isTransformable: Bool { options.contains { $0.transformerName != nil } }
        /// Whether the value is stored through its `Codable` representation (`.codable`).
        public var isCodable: Bool { options.contains(.codable) }

        public var debugDescription: String {
            "Attribute(name: \(name), originalName: \(originalName), options: \(options), valueType: \(valueTypeName), isOptional: \(isOptional))"
        }

        // MARK: Codable (the store's snapshot)

        private enum CodingKeys: String, CodingKey {
            case name, originalName, options, storageType, valueTypeName, isOptional, hashModifier
        }

        /// Decodes an attribute from a store's schema snapshot: it has no Swift type (`valueType`
        /// is `Any`) and no default value.
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when the JSON is not an attribute's.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            originalName = try container.decode(String.self, forKey: .originalName)
            options = try container.decode([Option].self, forKey: .options)
            storageType = try container.decodeIfPresent(StorageType.self, forKey: .storageType)
            valueTypeName = try container.decode(String.self, forKey: .valueTypeName)
            isOptional = try container.decode(Bool.self, forKey: .isOptional)
            hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            valueType = Any.self
            defaultValue = nil
        }

        /// Encodes what a store's schema snapshot records of the attribute: its name, original
        /// name, options, storage type, the name of its value type, its optionality and its hash
        /// modifier.
        ///
        /// - Parameter encoder: The encoder to write to.
        /// - Throws: The encoder's errors.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(originalName, forKey: .originalName)
            try container.encode(options, forKey: .options)
            try container.encodeIfPresent(storageType, forKey: .storageType)
            try container.encode(valueTypeName, forKey: .valueTypeName)
            try container.encode(isOptional, forKey: .isOptional)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        }

        // MARK: Hashable: what the attribute is, not its Swift type's identity

        /// Attributes are equal when they store alike under the same names: the same name, original
        /// name, options, storage type, optionality and hash modifier.
        ///
        /// - Parameters:
        ///   - lhs: An attribute.
        ///   - rhs: Another attribute.
        /// - Returns: Whether the six are equal.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.originalName == rhs.originalName && lhs.options == rhs.options
                && lhs.storageType == rhs.storageType && lhs.isOptional == rhs.isOptional
                && lhs.hashModifier == rhs.hashModifier
        }

        /// Hashes the name, the storage type and the optionality.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(storageType)
            hasher.combine(isOptional)
        }
    }
}

extension Schema.Attribute {
    /// An option of `@Attribute`.
    public struct Option: Codable, Hashable, Sendable, CustomDebugStringConvertible {
        let kind: String
        let transformerName: String?

        private init(_ kind: String, transformerName: String? = nil) {
            self.kind = kind
            self.transformerName = transformerName
        }

        /// No two models of the entity may hold the same value. Inserting a model whose value
        /// matches a stored one updates the stored row instead ("upsert"), as in SwiftData.
        public static var unique: Option { Option("unique") }
        /// Keep the value out of the entity's table, in a table of its own that is read only
        /// when the property is first accessed. Meant for large `Data`.
        public static var externalStorage: Option { Option("externalStorage") }
        /// Encrypt the value when syncing with CloudKit. Accepted; no effect without CloudKit.
        public static var allowsCloudEncryption: Option { Option("allowsCloudEncryption") }
        /// Keep the value in history after the model is deleted.
        public static var preserveValueOnDeletion: Option { Option("preserveValueOnDeletion") }
        /// Track changes to the property but do not persist it.
        public static var ephemeral: Option { Option("ephemeral") }
        /// Index the value for Spotlight. Accepted; no effect off Apple platforms.
        public static var spotlight: Option { Option("spotlight") }
        /// Store the value through its `Codable` representation (JSON text), whatever its type:
        /// the store does not look inside it, so predicates and sorts cannot use it (except to
        /// test `nil`), and the type's own decoding decides what older values read as: adding a
        /// property to the type is no migration. For types the store cannot otherwise hold.
        public static var codable: Option { Option("codable") }

        /// Persist the value through a `ValueTransformer` subclass.
        ///
        /// - Parameter transformerType: The transformer's class.
        /// - Returns: The option. A schema with such an attribute cannot be stored yet: creating a
        ///   container with it throws.
        public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
            Option("transformable", transformerName: String(reflecting: transformerType))
        }

        /// Persist the value through the `ValueTransformer` registered under `transformerName`.
        ///
        /// - Parameter transformerName: The name the transformer is registered under.
        /// - Returns: The option. A schema with such an attribute cannot be stored yet: creating a
        ///   container with it throws.
        public static func transformable(by transformerName: String) -> Option {
            Option("transformable", transformerName: transformerName)
        }

        public var debugDescription: String {
            transformerName.map { "transformable(by: \($0))" } ?? kind
        }
    }
}
