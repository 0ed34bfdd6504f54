import Observation

/// A class whose instances OpenSwiftData persists.
///
/// Don't adopt this protocol by hand: mark the class `@Model` and the macro generates the
/// conformance, the backing storage and the schema metadata.
///
/// ```swift
/// @Model
/// final class Film {
///     var title: String
///     var releaseYear: Int
///     init(title: String, releaseYear: Int) {
///         self.title = title
///         self.releaseYear = releaseYear
///     }
/// }
/// ```
///
/// A model can be created and used before it is inserted into a context; it is saved once a
/// context inserts it and saves. Models are not `Sendable`: pass their ``persistentModelID``
/// between actors instead.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, SendableMetatype {
    /// Creates a model over existing values; the context uses it for rows it loads.
    ///
    /// - Parameter backingData: The model's values, which it keeps as its
    ///   ``persistentBackingData``.
    init(backingData: any BackingData<Self>)

    /// The storage of the model's persisted values.
    var persistentBackingData: any BackingData<Self> { get set }

    /// The model's persisted properties in declaration order, with their key paths, declared
    /// default values and options; `@Model` generates it.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }

    /// The class at the root of the model's class hierarchy: the model itself, or the `@Model`
    /// class every class of its hierarchy descends from. A subclass's backing data and
    /// `init(backingData:)` are typed with it.
    associatedtype Root: PersistentModel = Self

    /// The key paths of the persisted properties the class inherits from `@Model`
    /// superclasses, rooted at the class itself, in the order of its superclasses' metadata;
    /// `@Model` generates it for classes that can have subclasses. (`\Sub.name` is not equal to
    /// `\Base.name`, and predicates on a subclass write the first.)
    static var _$inheritedKeyPaths: [AnyKeyPath] { get }
}

extension PersistentModel {
    /// None: the class subclasses no `@Model` class.
    public static var _$inheritedKeyPaths: [AnyKeyPath] { [] }

    /// New, empty backing data for a model that is being created by its own initializer; for
    /// a model a context is loading, the loaded values.
    ///
    /// - Returns: OpenSwiftData's backing data for models of class `P`.
    // Inlinable so the caller knows the concrete type: otherwise every model created, fetched
    // ones included, pays a runtime lookup of the opaque result's conformance.
    @inlinable
    public static func createBackingData<P>() -> some BackingData<P> where P: PersistentModel {
        DefaultBackingData<P>.forNewModel()
    }

    /// The context the model is registered with, or `nil` before it is inserted.
    public var modelContext: ModelContext? {
        modelState?.context
    }

    /// The model's identity: temporary until its first save, permanent after.
    public var persistentModelID: PersistentIdentifier {
        if let state = modelState { return state.modelID }
        if let id = persistentBackingData.persistentModelID { return id }
        return .temporary(entityName: Schema.entityName(for: Self.self))
    }

    /// The model's identity, so models work with `ForEach` and other `Identifiable` APIs.
    public var id: PersistentIdentifier { persistentModelID }

    /// Whether the model has changes its context has not saved: it was inserted, edited or
    /// deleted since the last save.
    public var hasChanges: Bool {
        modelState?.hasChanges ?? false
    }

    /// Whether the model was deleted from its context.
    public var isDeleted: Bool {
        modelState?.isDeleted ?? false
    }

    /// Models are equal when they are the same object.
    ///
    /// - Parameters:
    ///   - lhs: A model.
    ///   - rhs: Another model of the same class.
    /// - Returns: Whether `lhs` and `rhs` are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs === rhs
    }

    /// Hashes the model's object identity, the part `==` compares.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// OpenSwiftData's backing data for the model, unless someone replaced it with their own.
    var modelState: ModelState? {
        // The opened backing data, when it is a class instance, is cast as a reference: a walk up
        // its class's superclasses. Casting the existential `any BackingData<Self>` looks its
        // metadata up in the runtime's hashed cache, and casting the opened generic value goes
        // through the runtime's general cast; this runs on every insert, link and change check.
        func state<Data: BackingData>(_ backingData: Data) -> ModelState? {
            guard Data.self is AnyClass else { return nil }
            return unsafeBitCast(backingData, to: AnyObject.self) as? ModelState
        }
        return state(persistentBackingData)
    }

    // MARK: Values, as the accessors `@Model` generates read and write them

    /// The value of the persisted attribute at `key`, read from the model's backing data;
    /// the getters `@Model` generates call this.
    ///
    /// - Parameter key: The key path of the attribute.
    /// - Returns: The attribute's value.
    // Disfavored, as in ``BackingData``: a related model that is also `Codable` is a relationship.
    @_disfavoredOverload
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: Decodable {
        persistentBackingData.getValue(forKey: key)
    }

    /// The model the non-optional to-one relationship at `key` holds, loaded from the store the
    /// first time it is read; the getters `@Model` generates call this.
    ///
    /// - Parameter key: The key path of the relationship.
    /// - Returns: The related model.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    /// The model the optional to-one relationship at `key` holds, loaded from the store the first
    /// time it is read; the getters `@Model` generates call this.
    ///
    /// - Parameter key: The key path of the relationship.
    /// - Returns: The related model, or `nil`.
    public func getValue<Value>(forKey key: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    /// The models the to-many relationship at `key` holds, loaded from the store the first time
    /// it is read; the getters `@Model` generates call this.
    ///
    /// - Parameter key: The key path of the relationship.
    /// - Returns: The related models.
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    /// The models the to-many relationship at `key` holds, in a collection that is also
    /// `Decodable`; the getters `@Model` generates call this.
    ///
    /// - Parameter key: The key path of the relationship.
    /// - Returns: The related models.
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    /// The value of the transformable attribute at `key`; the getters `@Model` generates call this.
    /// (A schema with a transformable attribute cannot be stored yet.)
    ///
    /// - Parameter key: The key path of the attribute.
    /// - Returns: The attribute's value.
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    /// Sets the persisted attribute at `key` and records the change with the model's context;
    /// the setters `@Model` generates call this.
    ///
    /// - Parameters:
    ///   - key: The key path of the attribute.
    ///   - newValue: The new value.
    @_disfavoredOverload
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        guard let state = modelState else { return persistentBackingData.setValue(forKey: key, to: newValue) }
        // A `nil` set once the model is inserted is a change the app asked for, unlike the one
        // an optional starts with (``ModelState/setsOnUpsert(_:)``).
        let index = state.index(of: key)
        state.setValue(typed: newValue, at: index)
        // (A value other than `nil` counts by itself.)
        state.noteAssigned(index, empty: true)
    }

    /// Sets the non-optional to-one relationship at `key` and updates the inverse relationship of
    /// each model that joins or leaves it, so both sides agree at once; the setters `@Model`
    /// generates call this.
    ///
    /// - Parameters:
    ///   - key: The key path of the relationship.
    ///   - newValue: The related model.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: PersistentModel {
        guard setRelationship(key, newValue) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    /// Sets the optional to-one relationship at `key` and updates the inverse relationship of each
    /// model that joins or leaves it, so both sides agree at once; the setters `@Model` generates
    /// call this.
    ///
    /// - Parameters:
    ///   - key: The key path of the relationship.
    ///   - newValue: The related model, or `nil` for none.
    public func setValue<Value>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) where Value: PersistentModel {
        guard setRelationship(key, newValue as Any) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    /// Sets the to-many relationship at `key` and updates the inverse relationship of each model
    /// that joins or leaves it, so both sides agree at once; the setters `@Model` generates call
    /// this.
    ///
    /// - Parameters:
    ///   - key: The key path of the relationship.
    ///   - newValue: The related models.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        guard setRelationship(key, newValue) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    /// Sets the to-many relationship at `key`, held in a collection that is also `Encodable`, and
    /// updates the inverse relationship of each model that joins or leaves it, so both sides agree
    /// at once; the setters `@Model` generates call this.
    ///
    /// - Parameters:
    ///   - key: The key path of the relationship.
    ///   - newValue: The related models.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        guard setRelationship(key, newValue) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    /// Sets a relationship through OpenSwiftData's backing data, keeping the inverse side in
    /// step; `false` when the backing data is someone else's.
    private func setRelationship(_ key: AnyKeyPath, _ newValue: Any) -> Bool {
        guard let state = modelState else { return false }
        state.setRelationship(newValue, at: state.index(of: key), owner: self)
        return true
    }

    /// Sets the transformable attribute at `key`; the setters `@Model` generates call this.
    ///
    /// - Parameters:
    ///   - key: The key path of the attribute.
    ///   - newValue: The new value.
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setTransformableValue(forKey: key, to: newValue)
    }
}
