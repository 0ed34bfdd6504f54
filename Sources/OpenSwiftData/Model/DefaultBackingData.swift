/// OpenSwiftData's backing data for models of type `M`: typed access to a ``ModelState``.
///
/// `@usableFromInline` (and so every member its `BackingData` conformance uses) because
/// `PersistentModel.createBackingData()` is inlined into each model's generated code.
@usableFromInline
final class DefaultBackingData<M: PersistentModel>: ModelState, BackingData, LoadableModelState {
    @usableFromInline
    typealias Model = M

    @usableFromInline
    init(for modelType: M.Type) {
        super.init(layout: ModelLayout.of(modelType))
    }

    override init(layout: ModelLayout, values: ModelValues) {
        super.init(layout: layout, values: values)
    }

    /// The backing data for a model whose `_$backingData` is being initialized: the loaded
    /// row's when a context is creating the model over it, new and empty otherwise.
    @usableFromInline
    static func forNewModel() -> DefaultBackingData<M> {
        // `Self` is the metatype the caller passed in: naming `DefaultBackingData<M>` here would
        // look the generic class's metadata up again for every model.
        BackingDataHandoff.take(Self.self) ?? Self(for: M.self)
    }

    func makeModel() -> any PersistentModel {
        isBeingLoaded = true
        defer { isBeingLoaded = false }
        // A row of a subclass is loaded as its root class's backing data with the subclass's
        // layout; `init(backingData:)` is required, so the subclass's runs.
        let modelType = layout.modelType == M.self ? M.self : layout.modelType as! M.Type
        return BackingDataHandoff.loading(self) { modelType.init(backingData: self) }
    }

    @usableFromInline
    var persistentModelID: PersistentIdentifier? {
        get { modelID }
        set {
            guard let newValue, let rowID = newValue.rowID else { return }
            self.rowID = rowID
            storeIdentifier = newValue.storeIdentifier
        }
    }

    @usableFromInline
    var metadata: Any { layout }

    @usableFromInline
    var _$ignoresInitialValues: Bool { isBeingLoaded }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<M, Value>) -> Value where Value: Decodable {
        value(at: index(of: key))
    }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<M, Value>) -> Value where Value: PersistentModel {
        value(at: index(of: key))
    }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<M, Value?>) -> Value? where Value: PersistentModel {
        value(at: index(of: key))
    }

    @usableFromInline
    func getValue<Value, OtherModel>(forKey key: KeyPath<M, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        value(at: index(of: key))
    }

    @usableFromInline
    func getValue<Value, OtherModel>(forKey key: KeyPath<M, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        value(at: index(of: key))
    }

    @usableFromInline
    func getTransformableValue<Value>(forKey key: KeyPath<M, Value>) -> Value {
        value(at: index(of: key))
    }

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) where Value: Encodable {
        setValue(typed: newValue, at: index(of: key))
    }

    // The relationships' setters below are what a model's `init` assigns through (its setters
    // go through `PersistentModel.setValue`, which keeps the inverse side in step). A value
    // holding no model there (a declaration's `= []`, an optional's `nil`, a `nil` passed to
    // `init`) is not set: an upsert keeps the stored links for it (``ModelState/setsOnUpsert(_:)``).

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) where Value: PersistentModel {
        assignRelationship(newValue, at: index(of: key), holdsModels: true)
    }

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<M, Value?>, to newValue: Value?) where Value: PersistentModel {
        assignRelationship(newValue as Any, at: index(of: key), holdsModels: newValue != nil)
    }

    @usableFromInline
    func setValue<Value, OtherModel>(forKey key: KeyPath<M, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        assignRelationship(newValue, at: index(of: key))
    }

    @usableFromInline
    func setValue<Value, OtherModel>(forKey key: KeyPath<M, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        assignRelationship(newValue, at: index(of: key))
    }

    /// `holdsModels`: whether `newValue` holds a related model; `nil` to look.
    private func assignRelationship(_ newValue: Any, at index: Int, holdsModels: Bool? = nil) {
        setValue(newValue, at: index)
        if !isBeingLoaded, holdsModels ?? !relatedModels(in: newValue, at: index).isEmpty { noteAssigned(index, empty: false) }
    }

    @usableFromInline
    func setTransformableValue<Value>(forKey key: KeyPath<M, Value>, to newValue: Value) {
        setValue(newValue, at: index(of: key))
    }
}
