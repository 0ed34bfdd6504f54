import Foundation

// A model's relationships: faults resolved through the context, and changes that keep the
// inverse side in step.
extension ModelState {
    /// The value of the property at `index` with any relationship fault resolved through the
    /// context; `nil` when unset.
    func resolvedValue(at index: Int) -> Any? {
        if values.isEmpty { allocateValues() }
        let current = Self.optional(values[index])
        guard let fault = RelationshipFault.held(in: current) else { return current }
        let property = layout.properties[index]
        guard let resolved = resolveThroughContext(fault, at: index) else {
            guard isDeleted else {
                fatalError("\(layout.entityName).\(property.name) cannot be loaded: the ModelContext that fetched the model no longer exists. Keep the context alive while you use its models")
            }
            return property.emptyValue
        }
        values[index] = Self.slot(resolved)
        return resolved
    }

    /// The models the relationship at `index` holds.
    func relatedModels(at index: Int) -> [any PersistentModel] {
        relatedModels(in: resolvedValue(at: index), at: index)
    }

    /// The models `value`, a value of the relationship at `index`, holds.
    func relatedModels(in value: Any?, at index: Int) -> [any PersistentModel] {
        guard let types = layout.properties[index].relatedValueTypes else { return [] }
        return RelatedModels.models(in: value, heldAs: types)
    }

    /// Sets a relationship of `owner` (the model these values belong to) and updates the
    /// inverse relationship of every model that joins or leaves it, so both sides agree at once.
    func setRelationship(_ newValue: Any, at index: Int, owner: any PersistentModel) {
        let old = relatedModels(at: index)
        setValue(newValue, at: index)
        let new = relatedModels(in: newValue, at: index)
        noteAssigned(index, empty: new.isEmpty)
        guard let inverse = layout.inverse(of: index) else { return }
        let oldIDs = Set(old.map { ObjectIdentifier($0) })
        let newIDs = Set(new.map { ObjectIdentifier($0) })
        for removed in old where !newIDs.contains(ObjectIdentifier(removed)) {
            removed.modelState?.unlink(owner, at: inverse.index)
        }
        for added in new where !oldIDs.contains(ObjectIdentifier(added)) {
            added.modelState?.link(owner, at: inverse.index, self: added)
        }
    }

    /// Makes the relationship at `index` hold `other` (the inverse side of a change `other` made),
    /// taking `me` out of the relationship of whichever model held it before when that side is
    /// to-one.
    func link(_ other: any PersistentModel, at index: Int, self me: any PersistentModel) {
        let property = layout.properties[index]
        if property.isToMany {
            // The value is only read here, not kept: kept, it would share the array `append`
            // grows, which would then be copied.
            guard let types = property.relatedValueTypes, !RelatedModels.holds(other, in: resolvedValue(at: index), heldAs: types)
            else { return }
            modifyValue(at: index) { RelatedModels.append([other], to: &$0, heldAs: types) }
        } else {
            let current = relatedModels(at: index)
            guard !current.contains(where: { $0 === other }) else { return }
            if let previous = current.first, let inverse = layout.inverse(of: index) {
                previous.modelState?.unlink(me, at: inverse.index)
            }
            setValue(other, at: index)
            noteAssigned(index, empty: false)
        }
    }

    /// Makes the to-many relationship at `index` hold each of `others` it does not hold yet,
    /// in one pass over its members: the inverse side of many new models that refer to this one.
    func linkAll(_ others: [any PersistentModel], at index: Int) {
        guard let types = layout.properties[index].relatedValueTypes else { return }
        var held = Set(relatedModels(at: index).map { ObjectIdentifier($0) })
        let missing = others.filter { held.insert(ObjectIdentifier($0)).inserted }
        guard !missing.isEmpty else { return }
        modifyValue(at: index) { RelatedModels.append(missing, to: &$0, heldAs: types) }
    }

    /// Takes `other` out of the relationship at `index`.
    func unlink(_ other: any PersistentModel, at index: Int) {
        let property = layout.properties[index]
        guard let types = property.relatedValueTypes, RelatedModels.holds(other, in: resolvedValue(at: index), heldAs: types)
        else { return }
        if property.isToMany {
            modifyValue(at: index) { RelatedModels.remove(other, from: &$0, heldAs: types) }
        } else {
            // No value at all for a non-optional to-one: saving then fails unless it gets a new one.
            setValue(Self.slot(property.emptyValue), at: index)
            noteAssigned(index, empty: true)
        }
    }

    /// Turns the relationships that point at saved models back into faults, as the model's
    /// context lets go of it. Related models hold each other strongly (a book its shelf, the
    /// shelf its books), so without this a graph read or saved through a context outlives it.
    /// Reading such a relationship afterwards stops as any fault without a context does; values
    /// that point at unsaved models are kept, since no fault could load them again.
    func faultRelationships() {
        guard !values.isEmpty else { return }
        for index in layout.relationshipIndices {
            guard let value = storedValue(at: index), !RelationshipFault.isFault(value) else { continue }
            if layout.properties[index].isToMany {
                if rowID != nil { values[index] = RelationshipFault.toMany }
            } else if let related = relatedModels(in: value, at: index).first, let relatedRowID = related.modelState?.rowID {
                values[index] = RelationshipFault.toOne(relatedRowID)
            }
        }
    }

    /// Replaces the values with a freshly read row's, unless the model has unsaved changes.
    func refresh(with newValues: ModelValues) {
        guard changedProperties.isEmpty, !isDeleted else { return }
        for index in newValues.indices {
            // Keep relationships already loaded: the related objects may have unsaved changes.
            if RelationshipFault.isFault(newValues[index]), let current = storedValue(at: index), !RelationshipFault.isFault(current),
               layout.properties[index].isToMany
            {
                continue
            }
            values[index] = newValues[index]
        }
    }

    /// Forgets that values changed and that the model was deleted, once the context has put
    /// the saved values back.
    func discardChanges() {
        changedProperties = []
        isDeleted = false
    }

    /// Records that the values are now saved.
    func markSaved() {
        changedProperties = []
        assignedProperties = []
        isInserted = false
    }

    func index(of keyPath: AnyKeyPath) -> Int {
        guard let index = layout.index(of: keyPath) else {
            fatalError("\(keyPath) is not a persisted property of \(layout.entityName)")
        }
        return index
    }
}
