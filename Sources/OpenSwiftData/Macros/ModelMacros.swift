// The model-definition macros. Their spelling, labels and defaults match SwiftData's exactly, so
// model code written for SwiftData compiles unchanged after `import OpenSwiftData`.
// The implementations live in the `OpenSwiftDataMacros` compiler plugin.

// The expansion of `@Model` names `Observation.Observable`.
// Users import only this module (as they import only SwiftData), so it re-exports Observation.
@_exported import Observation

/// Turns a class into a persistent model.
///
/// `@Model` gives every stored `var` of the class accessors that read and write the model's
/// ``BackingData`` instead of ordinary storage, makes the class `Observable` (each property is
/// observed separately, like `@Observable`), and records what it found in
/// ``PersistentModel/schemaMetadata``, from which the ``Schema`` is built.
///
/// ```swift
/// import OpenSwiftData
///
/// @Model
/// final class Trip {
///     #Unique<Trip>([\.name, \.start])
///
///     var name: String
///     var start: Date = .now                      // default value, recorded in the schema
///     var notes: String?                          // optional: starts as nil
///     @Attribute(.unique) var code: String
///     @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
///     var stops: [Stop] = []
///     @Transient var isExpanded = false           // ordinary storage, never saved
///
///     init(name: String, code: String) {
///         self.name = name                        // goes straight into the backing data
///         self.code = code
///     }
/// }
/// ```
///
/// What counts:
/// - Every stored `var` that is not `static` and not marked ``Transient()`` is persisted,
///   in declaration order. Computed properties are left alone.
/// - A persisted property needs a type, written or inferred from its initial value
///   (`var count = 0` is an `Int`).
/// - `let`, `lazy`, `weak`/`unowned` and property observers (`didSet`) are rejected on persisted
///   properties: mark such a property ``Transient()`` to keep it as plain storage.
/// - A `@Transient` property needs an initial value unless it is optional, because models loaded
///   from a store are created through `init(backingData:)`, which does not run your `init`.
///
/// The macro also adds `init(backingData:)` (`required` on non-final classes), so the class needs
/// an `init` of its own to be created in code. Generated members are `public` when the class is
/// `public` or `open`.
///
/// Conformances added: ``PersistentModel`` and `Observable`. Models are deliberately not
/// `Sendable`: pass a model's `persistentModelID` between tasks and fetch it again there.
@attached(member, conformances: Observable, PersistentModel, Sendable, names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init), named(_$observationRegistrar), named(_SwiftDataNoType), named(access), named(withMutation), named(_$initialValuesMoved), named(_$keyPaths), named(_$inheritedKeyPaths), named(_$aModelClassCanOnlySubclassAModelClass))
@attached(memberAttribute)
@attached(extension, conformances: Observable, PersistentModel, Sendable)
public macro Model() = #externalMacro(module: "OpenSwiftDataMacros", type: "PersistentModelMacro")

/// Implementation detail of ``Model()``: you never write this yourself.
///
/// `@Model` attaches it to each persisted property. It replaces the property's storage with an
/// init accessor (so `self.name = name` in an `init` stores into the backing data before `self`
/// is fully initialised), a getter that reports the read to Observation and returns
/// `getValue(forKey:)`, and a setter that wraps `setValue(forKey:to:)` in `withMutation`. Its peer
/// `_name` is an empty placeholder that lets the compiler track initialisation of the property.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "OpenSwiftDataMacros", type: "PersistedPropertyMacro")

/// Customises how a persisted property is stored.
///
/// `@Attribute` generates no code itself: ``Model()`` reads its arguments and records them in
/// the schema as a ``Schema/Attribute``.
///
/// ```swift
/// @Model final class Track {
///     @Attribute(.unique) var isrc: String                  // one row per value (upsert on save)
///     @Attribute(originalName: "name") var title: String    // renamed since the previous version
///     @Attribute(.externalStorage) var artwork: Data?
///     @Attribute(hashModifier: "v2-cents") var price: Int   // same shape, new meaning: new version
///     …
/// }
/// ```
///
/// - Parameters:
///   - options: Storage options such as `.unique`, `.externalStorage`, `.ephemeral`.
///   - originalName: The property's name in the previous schema version, so a migration renames
///     the column instead of dropping it.
///   - hashModifier: Any string; changing it changes the schema's version hash without changing
///     its shape.
@attached(peer)
public macro Attribute(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) = #externalMacro(module: "OpenSwiftDataMacros", type: "AttributePropertyMacro")

/// Customises a relationship between models.
///
/// A property whose type is a model, an optional model or an array of models is a relationship
/// even without this macro (delete rule `.nullify`, inverse inferred when unambiguous). Use
/// `@Relationship` to choose the delete rule, name the inverse, or bound the number of related
/// models. It generates no code itself: ``Model()`` records its arguments in the schema as a
/// ``Schema/Relationship``.
///
/// ```swift
/// @Model final class Trip {
///     @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
///     var stops: [Stop] = []                  // deleting a trip deletes its stops
///     @Relationship(inverse: nil)
///     var cover: Photo?                       // one-way: no inverse is inferred
///     …
/// }
/// ```
///
/// Name the inverse on one side only; naming it on both sides is a circular reference.
///
/// - Parameters:
///   - options: `.unique` makes a to-one relationship unique.
///   - deleteRule: What happens to the related models when this one is deleted.
///   - minimumModelCount: The fewest related models allowed at save (`0`: no bound).
///   - maximumModelCount: The most related models allowed at save (`0`: no bound).
///   - originalName: The property's name in the previous schema version.
///   - inverse: The key path of the property on the other model that points back here;
///     `nil` written explicitly makes the relationship one-way.
///   - hashModifier: Any string; changing it changes the schema's version hash.
@attached(peer)
public macro Relationship(_ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify, minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil, hashModifier: String? = nil) = #externalMacro(module: "OpenSwiftDataMacros", type: "RelationshipPropertyMacro")

/// Keeps a stored property out of the store.
///
/// The property stays ordinary Swift storage: it is not saved, not fetched, not observed through
/// the model, and cannot be used in predicates or sorts. It needs an initial value unless it is
/// optional, because models loaded from a store are created without running your `init`.
///
/// ```swift
/// @Model final class Document {
///     var text: String
///     @Transient var isSelected = false
///     @Transient var cachedPreview: Image?
///     …
/// }
/// ```
@attached(peer)
public macro Transient() = #externalMacro(module: "OpenSwiftDataMacros", type: "TransientPropertyMacro")

/// Declares uniqueness constraints for a model; write it inside the `@Model` class body.
///
/// Each array is one constraint; an array of several key paths is a compound constraint (the
/// combination must be unique). Inserting a model whose constrained values match an existing one
/// updates that one instead (an upsert). Only attributes and to-one relationships can take part.
///
/// ```swift
/// @Model final class Person {
///     #Unique<Person>([\.id], [\.givenName, \.familyName])
///     var id: UUID
///     var givenName: String
///     var familyName: String
///     …
/// }
/// ```
///
/// The macro expands to nothing where it is written: ``Model()`` reads it and records a
/// ``Schema/Unique`` in the model's schema metadata. Use one `#Unique` per model.
@freestanding(declaration)
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "OpenSwiftDataMacros", type: "UniqueConstraintsMacro") where T: PersistentModel

/// Declares indexes for a model, choosing the kind of each; write it inside the `@Model` class body.
///
/// ```swift
/// @Model final class Place {
///     #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
///     var name: String
///     var latitude: Double
///     var longitude: Double
///     …
/// }
/// ```
///
/// `.binary` is an ordinary (B-tree) index, single or compound; `.rtree` is a spatial index for
/// numeric ranges. The macro expands to nothing where it is written: ``Model()`` reads it and
/// records a ``Schema/Index`` in the model's schema metadata.
@freestanding(declaration)
public macro Index<T>(_ indices: Schema.Index<T>.Types<T>...) = #externalMacro(module: "OpenSwiftDataMacros", type: "IndexMacro") where T: PersistentModel

/// Declares ordinary (binary) indexes for a model; write it inside the `@Model` class body.
///
/// Each array is one index; an array of several key paths is a compound index.
///
/// ```swift
/// @Model final class Trip {
///     #Index<Trip>([\.name], [\.start], [\.name, \.start])
///     var name: String
///     var start: Date
///     …
/// }
/// ```
///
/// The macro expands to nothing where it is written: ``Model()`` reads it and records a
/// ``Schema/Index`` in the model's schema metadata.
@freestanding(declaration)
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "OpenSwiftDataMacros", type: "IndexMacro") where T: PersistentModel
