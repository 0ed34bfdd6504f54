/// Where a model's values live.
///
/// The code `@Model` generates keeps every persisted property's value in the model's backing
/// data instead of in stored properties, so the context can read and write them without
/// reflection. You never implement or call this protocol yourself: it exists, as in SwiftData,
/// so that macro-generated code type-checks. OpenSwiftData's own backing data also tracks which
/// values changed since the last save and which context the model belongs to.
public protocol BackingData<Model> {
    associatedtype Model: PersistentModel

    /// New, empty backing data for a model of class `modelType`.
    ///
    /// - Parameter modelType: The model class.
    init(for modelType: Model.Type)

    /// The identifier of the model these values belong to.
    var persistentModelID: PersistentIdentifier? { get set }

    /// Information the backing data keeps about the model.
    var metadata: Any { get }

    // The `Decodable` and `Encodable` accessors are disfavored: a model that is itself `Codable`
    // matches them and the model accessors alike, and as a related model it is a relationship.

    /// The value of the attribute at a key path.
    ///
    /// - Parameter forKey: The key path of the attribute.
    /// - Returns: The attribute's value.
    @_disfavoredOverload
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: Decodable

    /// The model a non-optional to-one relationship holds.
    ///
    /// - Parameter forKey: The key path of the relationship.
    /// - Returns: The related model.
    func getValue<Value>(forKey: KeyPath<Model, Value>) -> Value where Value: PersistentModel

    /// The model an optional to-one relationship holds.
    ///
    /// - Parameter forKey: The key path of the relationship.
    /// - Returns: The related model, or `nil`.
    func getValue<Value>(forKey: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel

    /// The models a to-many relationship holds.
    ///
    /// - Parameter forKey: The key path of the relationship.
    /// - Returns: The related models.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement

    /// The models a to-many relationship holds, in a collection that is also `Decodable`.
    ///
    /// - Parameter forKey: The key path of the relationship.
    /// - Returns: The related models.
    func getValue<Value, OtherModel>(forKey: KeyPath<Model, Value>) -> Value
    where Value: Decodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement

    /// The value of a transformable attribute.
    ///
    /// - Parameter forKey: The key path of the attribute.
    /// - Returns: The attribute's value.
    func getTransformableValue<Value>(forKey: KeyPath<Model, Value>) -> Value

    /// Sets the attribute at a key path.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the attribute.
    ///   - newValue: The new value.
    @_disfavoredOverload
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable

    /// Sets a non-optional to-one relationship.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the relationship.
    ///   - newValue: The related model.
    func setValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel

    /// Sets an optional to-one relationship.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the relationship.
    ///   - newValue: The related model, or `nil` for none.
    func setValue<Value>(forKey: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel

    /// Sets a to-many relationship.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the relationship.
    ///   - newValue: The related models.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement

    /// Sets a to-many relationship held in a collection that is also `Encodable`.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the relationship.
    ///   - newValue: The related models.
    func setValue<Value, OtherModel>(forKey: KeyPath<Model, Value>, to newValue: Value)
    where Value: Encodable, Value: RelationshipCollection, OtherModel == Value.PersistentElement

    /// Sets a transformable attribute.
    ///
    /// - Parameters:
    ///   - forKey: The key path of the attribute.
    ///   - newValue: The new value.
    func setTransformableValue<Value>(forKey: KeyPath<Model, Value>, to newValue: Value)

    /// Whether the initial values the model's declarations give are to be ignored: `true`
    /// while a context creates the model over a row it loaded, whose values they must not
    /// replace. The init accessor `@Model` generates for a property with an initial value asks
    /// before it looks the key path up, so a fetch does not pay for the initial value of every
    /// optional or defaulted property of every model it makes.
    var _$ignoresInitialValues: Bool { get }
}

extension BackingData {
    public var _$ignoresInitialValues: Bool { false }
}
