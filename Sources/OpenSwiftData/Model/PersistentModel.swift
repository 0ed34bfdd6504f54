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
    init(backingData: any BackingData<Self>)

    /// The storage of the model's persisted values.
    var persistentBackingData: any BackingData<Self> { get set }

    /// The model's persisted properties in declaration order, with their key paths, declared
    /// default values and options; `@Model` generates it.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
}

extension PersistentModel {
    /// New, empty backing data for a model that is being created by its own initializer; for
    /// a model a context is loading, the loaded values.
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
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs === rhs
    }

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

    // Disfavored, as in ``BackingData``: a related model that is also `Codable` is a relationship.
    @_disfavoredOverload
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: Decodable {
        persistentBackingData.getValue(forKey: key)
    }

    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    public func getValue<Value>(forKey key: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        persistentBackingData.getValue(forKey: key)
    }

    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        persistentBackingData.getValue(forKey: key)
    }

    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    @_disfavoredOverload
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: PersistentModel {
        guard setRelationship(key, newValue) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    public func setValue<Value>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) where Value: PersistentModel {
        guard setRelationship(key, newValue as Any) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        guard setRelationship(key, newValue) else {
            return persistentBackingData.setValue(forKey: key, to: newValue)
        }
    }

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

    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setTransformableValue(forKey: key, to: newValue)
    }
}
