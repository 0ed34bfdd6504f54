import Foundation

/// A model's persisted values and its standing with a context: OpenSwiftData's backing data,
/// seen without the model's generic type.
///
/// Values sit in declaration order (``ModelLayout/properties``), each as its property's type
/// (``ModelValues``). Read by index, a slot is ``noValue`` until the property gets a value; an
/// optional property holding `nil` has `Optional.none`.
@usableFromInline
package class ModelState {
    /// The layout of the model's class. The backing data a subclass's instance is made with is
    /// its root class's until ``moveSubclassValues(of:from:)`` gives it the subclass's.
    @exclusivity(unchecked) package private(set) var layout: ModelLayout
    // Every property read and write goes through here. ModelState is confined to its model's
    // context (models are not Sendable) and no access to `values` nests inside another, so the
    // runtime's exclusivity check, a call before and after each access, is skipped.
    @exclusivity(unchecked) var values: ModelValues

    // Stored properties are laid out in declaration order. The flags sit after `rowID`, in the
    // padding its optional's tag leaves, and the temporary identifier is kept as its UUID, so
    // the backing data fits a smaller allocation size: mind the order when adding a property.

    /// The row holding the model, once it has been saved or fetched.
    package var rowID: Int64?
    /// Inserted into its context and not saved yet.
    var isInserted = false
    /// Deleted from its context.
    package var isDeleted = false
    /// The model is being created over these values: the initial values its declarations give
    /// are applied as it is initialized, and must not replace the loaded ones.
    var isBeingLoaded = false
    /// Where the model is in its context's ``ChangedModels``; -1 when it is not there. Kept
    /// in the padding after the flags, so it costs the backing data no room.
    var changedPosition: Int32 = -1
    /// The store the row is in.
    var storeIdentifier: String?
    /// The key of the model's temporary identifier, made the first time it is asked for: a
    /// model with one after its first save had its temporary identifier handed out.
    private(set) var temporaryKey: UUID?

    /// The context the model is registered with.
    var context: ModelContext? {
        get { contextReference?.context }
        set { contextReference = newValue?.reference }
    }
    /// The context's shared weak reference to itself (``ContextReference``).
    private var contextReference: ContextReference?
    /// The model itself, kept alive by its context while it is registered there.
    var model: (any PersistentModel)?

    /// Properties changed since the last save, by index. Every property set reads and writes
    /// it; like `values`, unchecked for exclusivity. Their values as last saved are kept by the
    /// context (``SavedValues``).
    @exclusivity(unchecked) package var changedProperties: PropertyIndexSet = []

    /// The properties the app gave a value before the model's first save (``setsOnUpsert(_:)``):
    /// a relationship given a related model (in `init`, by a setter, or, a to-one, as the
    /// inverse side of another model's change), and any property emptied (`nil`, `[]`) once
    /// the model is inserted. A to-many gaining or losing members as another model's inverse
    /// is not recorded.
    @exclusivity(unchecked) package var assignedProperties: PropertyIndexSet = []

    /// Backing data over `values`; with none, room for them is made on the first value set, so
    /// backing data that never holds a value (one a custom `BackingData` replaces at once)
    /// costs no storage.
    init(layout: ModelLayout, values: ModelValues = ModelValues()) {
        self.layout = layout
        self.values = values
    }

    /// What a slot holds while its property has no value.
    private struct NoValue {}

    /// The content of a slot whose property has no value. (Made where it is used: an empty
    /// struct in an `Any` is its type pointer alone, and a stored `static let` would be a
    /// once-guarded global read every time.)
    static var noValue: Any { NoValue() }

    /// Whether `slot` holds a value (not ``noValue``).
    static func holdsValue(_ slot: Any) -> Bool {
        // The slot is opened, and the type it holds compared: `type(of:)` asks the runtime,
        // which looks inside classes and nested existentials, and costs more.
        func isNoValue<Held>(_: Held) -> Bool { Held.self == NoValue.self }
        return !isNoValue(slot)
    }

    /// A slot's value; `nil` for ``noValue``.
    static func optional(_ slot: consuming Any) -> Any? {
        holdsValue(slot) ? slot : nil
    }

    /// The slot holding `value`; ``noValue`` for `nil`.
    static func slot(_ value: consuming Any?) -> Any {
        value ?? noValue
    }

    /// Whether the property at `index` holds a value (a fault counts), read without copying it.
    func hasValue(at index: Int) -> Bool {
        !values.isEmpty && values.holdsValue(at: index)
    }

    /// The value held for the property at `index`, faults included; `nil` when it has none.
    func storedValue(at index: Int) -> Any? {
        hasValue(at: index) ? values[index] : nil
    }

    /// Makes room for every property's value.
    func allocateValues() {
        values = ModelValues(layout.valueSlots)
    }

    /// Takes the layout of `modelType`, a subclass of the class this backing data was made for,
    /// and the values `other` holds: the backing data of one of the model's subclasses, which
    /// its properties' initial values went to before the inherited backing data existed. The
    /// layouts of a hierarchy begin with their superclass's properties, in order, so indices
    /// are kept.
    func moveSubclassValues(of modelType: any PersistentModel.Type, from other: ModelState) {
        let target = ModelLayout.of(modelType)
        if target !== layout {
            var moved = ModelValues(target.valueSlots)
            if !values.isEmpty {
                for index in layout.properties.indices where values.holdsValue(at: index) { moved[index] = values[index] }
            }
            layout = target
            values = moved
        } else if values.isEmpty {
            allocateValues()
        }
        guard !other.values.isEmpty else { return }
        for index in other.layout.properties.indices where other.assignedProperties.contains(index) {
            assignedProperties.insert(index)
        }
        for index in other.layout.properties.indices where other.values.holdsValue(at: index) && !values.holdsValue(at: index) {
            values[index] = other.values[index]
        }
    }

    /// Copies the model's `let` properties, which live in the object itself, into its values so
    /// that a save writes them: a new model's, once, as it is inserted.
    func captureConstants<M: PersistentModel>(of model: M) {
        guard !layout.constantIndices.isEmpty else { return }
        if values.isEmpty { allocateValues() }
        // Through `AnyKeyPath`: a subclass's key paths are not rooted in the type it is
        // inserted as.
        for index in layout.constantIndices {
            if let value = model[keyPath: layout.properties[index].keyPath] { values[index] = value }
        }
    }

    /// The model's identifier: its row's once saved, a temporary one before.
    var modelID: PersistentIdentifier {
        if let rowID {
            return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: layout.entityName, key: .row(rowID))
        }
        if temporaryKey == nil { temporaryKey = UUID() }
        return .temporary(entityName: layout.entityName, key: temporaryKey!)
    }

    /// Records in ``assignedProperties`` that the app gave the property at `index` a value,
    /// `empty` when it holds no model or is `nil`, while the model has not been saved.
    func noteAssigned(_ index: Int, empty: Bool) {
        if rowID == nil, !empty || isInserted { assignedProperties.insert(index) }
    }

    /// Whether an insert of the model that takes over the stored row holding its unique values
    /// writes the property at `index`; what it does not write keeps the stored value. It
    /// writes what the app set: an attribute holding a value other than `nil` (from `init`, a
    /// default value or a setter; a non-optional one always), a relationship given a related
    /// model, and a property emptied by a setter once the model was inserted. An empty value
    /// given before (an optional never assigned, a `nil` passed to `init`, a declaration's
    /// `= []`) is not set: it is what a model starts with, not a change the app asked for.
    package func setsOnUpsert(_ index: Int) -> Bool {
        if assignedProperties.contains(index) { return true }
        guard !layout.properties[index].isRelationship, hasValue(at: index) else { return false }
        guard layout.properties[index].isOptional, let optional = values[index] as? any OptionalProtocol else { return true }
        return optional.wrappedValue != nil
    }

    var hasChanges: Bool {
        isInserted || isDeleted || !changedProperties.isEmpty
    }

    /// The value of the property at `index`, as the property's declared type.
    func value<Value>(at index: Int) -> Value {
        if values.isEmpty { allocateValues() }
        // An attribute's slot holds its declared type, which is what its getter asks for.
        if let slot = values.slot(at: index, holding: Value.self) { return slot.assumingMemoryBound(to: Value.self).pointee }
        let value = values[index]
        if Self.holdsValue(value) {
            if layout.properties[index].isRelationship, RelationshipFault.isFault(value) {
                return resolvedValue(at: index) as! Value
            }
            if layout.properties[index].isExternallyStored, let fault = value as? ExternalValueFault {
                return loadExternalValue(fault, at: index)
            }
            return unbox(value, as: Value.self)
        }
        if let optional = Value.self as? any OptionalProtocol.Type {
            return optional.noneValue as! Value
        }
        let property = layout.properties[index]
        fatalError("\(layout.entityName).\(property.name) was read before it was given a value; assign it in the initializer or give it a default value")
    }

    private func loadExternalValue<Value>(_ fault: ExternalValueFault, at index: Int) -> Value {
        do {
            values[index] = Self.slot(try fault.load())
        } catch {
            fatalError("\(layout.entityName).\(layout.properties[index].name) could not be read from its store: \(error)")
        }
        return value(at: index)
    }

    /// Sets the property at `index` (``noValue``: none) and records the change with the model's context.
    func setValue(_ newValue: consuming Any, at index: Int) {
        guard willChangeValue(at: index) else { return }
        values[index] = newValue
        didChangeValue()
    }

    /// Sets the attribute at `index` to `newValue`, kept as it is when its slot holds a `Value`,
    /// and records the change with the model's context.
    func setValue<Value>(typed newValue: consuming Value, at index: Int) {
        guard willChangeValue(at: index) else { return }
        values.set(newValue, at: index)
        didChangeValue()
    }

    /// Changes the property at `index` in place and records the change with the model's
    /// context. `change` gets the slot itself, so an array only the slot holds can grow
    /// without being copied.
    func modifyValue(at index: Int, _ change: (inout Any?) -> Void) {
        guard willChangeValue(at: index) else { return }
        // Taken out of the slot and put back after, so while `change` runs it holds the only
        // reference to a to-many relationship's array, which then grows in place.
        var slot = Self.noValue
        swap(&slot, &values[index])
        var value = Self.optional(consume slot)
        change(&value)
        values[index] = Self.slot(consume value)
        didChangeValue()
    }

    /// Readies the values for a change to the property at `index`: makes room for them, and
    /// has the context keep the property's saved value for rollback. `false` while the model is
    /// being created over a loaded row, whose values its declarations' initial values must not
    /// replace.
    private func willChangeValue(at index: Int) -> Bool {
        if isBeingLoaded { return false }
        if values.isEmpty { allocateValues() }
        if rowID != nil, !isInserted, !changedProperties.contains(index) {
            recordSavedValueInContext(at: index)
            changedProperties.insert(index)
        }
        return true
    }

    /// Tells the context of a saved or inserted model that one of its values changed.
    private func didChangeValue() {
        if rowID != nil || isInserted { reportChangeToContext() }
    }
}
