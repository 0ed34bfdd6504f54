import Synchronization

/// What OpenSwiftData knows about one model class, read once from its `schemaMetadata`: the
/// entity name, the persisted properties in declaration order, and where each property's value
/// sits in the model's backing data.
package final class ModelLayout: @unchecked Sendable {
    /// One persisted property of the model.
    struct Property {
        enum Kind {
            /// A value stored in a column, converted by the codec; `nil` when the type cannot be
            /// stored, which the schema reports as an error.
            case attribute(ValueCodec?)
            /// A reference to another model, or an array of them.
            case relationship(destination: any PersistentModel.Type, isToMany: Bool)
        }

        let name: String
        let keyPath: AnyKeyPath
        let valueType: Any.Type
        let isOptional: Bool
        /// The declared initial value, when the declaration has one.
        let defaultValue: Any?
        /// The `@Attribute` or `@Relationship` marker's options.
        let marker: (any SchemaProperty)?
        let kind: Kind
        /// Whether the value is kept outside the entity's table (`.externalStorage`).
        let isExternallyStored: Bool
        /// For a relationship, the types its value is held as.
        let relatedValueTypes: RelatedValueTypes?
        /// Whether the property is a `let`: kept in the object itself, its key path read-only.
        let isConstant: Bool

        var isRelationship: Bool {
            if case .relationship = kind { return true }
            return false
        }

        var isToMany: Bool {
            if case .relationship(_, let isToMany) = kind { return isToMany }
            return false
        }

        var destination: (any PersistentModel.Type)? {
            if case .relationship(let destination, _) = kind { return destination }
            return nil
        }

        /// The value of a relationship that holds nothing: `nil` for an optional property, an
        /// empty array for a to-many one; `nil` (no value yet) for a non-optional to-one.
        var emptyValue: Any? {
            if let destination, isToMany {
                let empty = RelatedModels.toManyValue([], of: destination)
                return empty
            }
            if let optional = valueType as? any OptionalProtocol.Type { return optional.noneValue }
            return nil
        }

        var codec: ValueCodec? {
            if case .attribute(let codec) = kind { return codec }
            return nil
        }
    }

    let modelType: any PersistentModel.Type
    /// The layout of the model's superclass, when that is a `@Model` class too: its properties
    /// (and constraints) come first in this one's, in the same order.
    let superclassLayout: ModelLayout?
    /// `DefaultBackingData` of the model type's root class (itself, unless it subclasses
    /// another `@Model` class), which loaded rows are created as.
    let loadedStateType: any LoadableModelState.Type
    package let entityName: String
    /// The entity name of the hierarchy's root class, which a context registers the models of
    /// every class of the hierarchy under (one table holds their rows); the entity's own name
    /// for a class that subclasses no `@Model` class.
    let registryName: String
    let properties: [Property]
    /// The indices of the relationship properties; saving visits only these.
    package let relationshipIndices: [Int]
    /// The indices of the `let` properties, copied into a new model's values when it is inserted.
    let constantIndices: [Int]
    /// The `#Unique` and `#Index` declarations of the model.
    let constraints: [any KeyPathConstraint]
    /// Where each property's value sits in the model's ``ModelValues``.
    let valueSlots: ValueSlots
    private let indexByKeyPath: [AnyKeyPath: Int]
    /// `\Model.persistentModelID`, made once: predicates compare models through it.
    let identifierKeyPath: AnyKeyPath
    /// `\Model.id` when it is `PersistentModel`'s own (the model declares no `id` of its own).
    let idKeyPath: AnyKeyPath?

    private init(_ modelType: any PersistentModel.Type) {
        self.modelType = modelType
        identifierKeyPath = Self.identifierKeyPath(modelType)
        idKeyPath = Self.idKeyPath(modelType)
        loadedStateType = Self.defaultBackingDataType(of: modelType)
        entityName = Schema.entityName(for: modelType)
        let superclass = _getSuperclass(modelType as AnyClass) as? any PersistentModel.Type
        superclassLayout = superclass.map { ModelLayout.of($0) }
        registryName = superclassLayout?.registryName ?? entityName
        // A subclass's `schemaMetadata` lists the properties it declares.
        var properties = superclassLayout?.properties ?? []
        var constraints = superclassLayout?.constraints ?? []
        for metadata in modelType.schemaMetadata {
            if let constraint = metadata.metadata as? any KeyPathConstraint {
                constraints.append(constraint)
                continue
            }
            properties.append(Property(metadata))
        }
        self.properties = properties
        relationshipIndices = properties.indices.filter { properties[$0].isRelationship }
        constantIndices = properties.indices.filter { properties[$0].isConstant }
        valueSlots = ValueSlots(properties)
        self.constraints = constraints
        // A subclass's predicates name inherited properties by key paths rooted at it.
        let inheritedKeyPaths = superclassLayout == nil ? [] : modelType._$inheritedKeyPaths
        indexByKeyPath = Dictionary(
            properties.enumerated().map { ($0.element.keyPath, $0.offset) } + inheritedKeyPaths.enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first })
        keyPathsSeen = KeyPathIndexCache(capacity: 4 * properties.count + 8)
    }

    private static func defaultBackingDataType<M: PersistentModel>(of _: M.Type) -> any LoadableModelState.Type {
        DefaultBackingData<M.Root>.self
    }

    /// The position of the property at `keyPath` in the backing data, or `nil` when the key
    /// path names no persisted property.
    func index(of keyPath: AnyKeyPath) -> Int? {
        if let index = keyPathsSeen.index(of: keyPath) { return index }
        guard let index = indexByKeyPath[keyPath] else { return nil }
        keyPathsSeen.remember(keyPath, index: index)
        return index
    }

    /// The key path objects the accessors have passed; room for a few literals per property.
    private let keyPathsSeen: KeyPathIndexCache

    /// The name of the property at `keyPath`, for error messages and constraints.
    func propertyName(for keyPath: AnyKeyPath) -> String? {
        index(of: keyPath).map { properties[$0].name }
    }

    /// The inverse of a relationship property: the destination's layout and the index of the
    /// property there.
    struct Inverse {
        let layout: ModelLayout
        let index: Int
    }

    private let inverses = Mutex<[Int: Inverse]?>(nil)

    /// The inverse of the relationship at `index`, as the schema pairs them (explicit `inverse:`,
    /// or inferred when unambiguous); `nil` for a one-way relationship.
    func inverse(of index: Int) -> Inverse? {
        if let known = inverses.withLock({ $0 }) { return known[index] }
        let built = SchemaBuilder([modelType])
        var found: [Int: Inverse] = [:]
        let entity = built.entities.first { $0.name == entityName }
        for (propertyIndex, property) in properties.enumerated() where property.isRelationship {
            guard let relationship = entity?.relationshipsByName[property.name],
                  let inverseName = relationship.inverseName,
                  let destination = built.layouts[relationship.destination],
                  let inverseIndex = destination.properties.firstIndex(where: { $0.name == inverseName }),
                  // An inverse declared with another version's class of this entity (a helper
                  // model shared by a plan's versions) cannot hold this class's models.
                  case .relationship(let back, _) = destination.properties[inverseIndex].kind, back == modelType
            else { continue }
            found[propertyIndex] = Inverse(layout: destination, index: inverseIndex)
        }
        inverses.withLock { $0 = found }
        return found[index]
    }

    private static let cache = Mutex<[ObjectIdentifier: ModelLayout]>([:])

    /// A layout made so far in the process for a class of entity `name`, if any.
    static func any(ofEntity name: String) -> ModelLayout? {
        cache.withLock { cache in cache.values.first { $0.entityName == name } }
    }

    /// The layout of `modelType`, built on first use.
    static func of(_ modelType: any PersistentModel.Type) -> ModelLayout {
        let key = ObjectIdentifier(modelType)
        if let layout = cache.withLock({ $0[key] }) { return layout }
        let layout = ModelLayout(modelType)
        return cache.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = layout
            return layout
        }
    }
}

extension ModelLayout.Property {
    init(_ metadata: Schema.PropertyMetadata) {
        name = metadata.name
        keyPath = metadata.keyPath
        valueType = type(of: metadata.keyPath).valueType
        isOptional = valueType is any OptionalProtocol.Type
        defaultValue = metadata.defaultValue
        marker = metadata.metadata
        isExternallyStored = (metadata.metadata as? Schema.Attribute)?.options.contains(.externalStorage) ?? false
        isConstant = !(metadata.keyPath is any WritableThroughKeyPath)
        if let collection = valueType as? any RelationshipCollection.Type {
            kind = .relationship(destination: collection.elementModelType, isToMany: true)
            relatedValueTypes = collection.elementModelType.relatedValueTypes
        } else if let model = Self.modelType(valueType) {
            kind = .relationship(destination: model, isToMany: false)
            relatedValueTypes = model.relatedValueTypes
        } else {
            let isCodable = (metadata.metadata as? Schema.Attribute)?.isCodable ?? false
            kind = .attribute(ValueCodec.forType(valueType, codable: isCodable))
            relatedValueTypes = nil
        }
    }

    private static func modelType(_ type: Any.Type) -> (any PersistentModel.Type)? {
        if let model = type as? any PersistentModel.Type { return model }
        if let optional = type as? any OptionalProtocol.Type {
            return optional.wrappedType as? any PersistentModel.Type
        }
        return nil
    }
}

/// The key paths a property's setter can write through; a `let`'s key path is read-only.
private protocol WritableThroughKeyPath {}
extension ReferenceWritableKeyPath: WritableThroughKeyPath {}

extension ModelLayout {
    fileprivate static func identifierKeyPath<M: PersistentModel>(_ type: M.Type) -> AnyKeyPath {
        \M.persistentModelID
    }

    fileprivate static func idKeyPath<M: PersistentModel>(_ type: M.Type) -> AnyKeyPath? {
        // Typed so that it names `PersistentModel`'s own `id`, the property `\Model.id` names in
        // code, not `Identifiable`'s requirement.
        let keyPath: KeyPath<M, PersistentIdentifier> = \M.id
        return M.ID.self == PersistentIdentifier.self ? keyPath : nil
    }
}
