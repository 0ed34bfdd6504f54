import Foundation

/// A model's persisted values and its standing with a context: OpenSwiftData's backing data,
/// seen without the model's generic type.
///
/// Values sit in declaration order (``ModelLayout/properties``). A slot is `nil` until the
/// property gets a value; an optional property holding `nil` has a boxed `Optional.none`.
class ModelState {
    let layout: ModelLayout
    var values: ContiguousArray<Any?>

    /// The row holding the model, once it has been saved or fetched.
    var rowID: Int64?
    /// The store the row is in.
    var storeIdentifier: String?
    private var temporaryID: PersistentIdentifier?

    /// The context the model is registered with.
    weak var context: ModelContext?
    /// The model itself, kept alive by its context while it is registered there.
    var model: (any PersistentModel)?

    /// Inserted into its context and not saved yet.
    var isInserted = false
    /// Deleted from its context.
    var isDeleted = false
    /// Properties changed since the last save, by index.
    var changedProperties = IndexSet()
    /// The values as last saved, kept from the first unsaved change so rollback can restore them.
    var committedValues: ContiguousArray<Any?>?

    init(layout: ModelLayout) {
        self.layout = layout
        values = ContiguousArray(repeating: nil, count: layout.properties.count)
    }

    /// The model's identifier: its row's once saved, a temporary one before.
    var modelID: PersistentIdentifier {
        if let rowID {
            return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: layout.entityName, key: .row(rowID))
        }
        if let temporaryID { return temporaryID }
        let id = PersistentIdentifier.temporary(entityName: layout.entityName)
        temporaryID = id
        return id
    }

    var hasChanges: Bool {
        isInserted || isDeleted || !changedProperties.isEmpty
    }

    /// The value of the property at `index`, as the property's declared type.
    func value<Value>(at index: Int) -> Value {
        if let value = values[index] {
            if layout.properties[index].isExternallyStored, let fault = value as? ExternalValueFault {
                return loadExternalValue(fault, at: index)
            }
            return value as! Value
        }
        if let optional = Value.self as? any OptionalProtocol.Type {
            return optional.noneValue as! Value
        }
        let property = layout.properties[index]
        fatalError("\(layout.entityName).\(property.name) was read before it was given a value; assign it in the initializer or give it a default value")
    }

    private func loadExternalValue<Value>(_ fault: ExternalValueFault, at index: Int) -> Value {
        do {
            values[index] = try fault.load()
        } catch {
            fatalError("\(layout.entityName).\(layout.properties[index].name) could not be read from its store: \(error)")
        }
        return value(at: index)
    }

    /// Sets the property at `index` and records the change with the model's context.
    func setValue(_ newValue: Any, at index: Int) {
        if rowID != nil, !isInserted {
            if committedValues == nil { committedValues = values }
            changedProperties.insert(index)
            values[index] = newValue
            context?.modelDidChange(self)
        } else {
            values[index] = newValue
            if isInserted { context?.modelDidChange(self) }
        }
    }

    /// Replaces the values with a freshly read row's, unless the model has unsaved changes.
    func refresh(with newValues: ContiguousArray<Any?>) {
        guard changedProperties.isEmpty, !isDeleted else { return }
        values = newValues
    }

    /// Forgets unsaved changes to values.
    func discardChanges() {
        if let committedValues { values = committedValues }
        committedValues = nil
        changedProperties = IndexSet()
        isDeleted = false
    }

    /// Records that the values are now saved.
    func markSaved() {
        committedValues = nil
        changedProperties = IndexSet()
        isInserted = false
    }

    func index(of keyPath: AnyKeyPath) -> Int {
        guard let index = layout.index(of: keyPath) else {
            fatalError("\(keyPath) is not a persisted property of \(layout.entityName)")
        }
        return index
    }
}
