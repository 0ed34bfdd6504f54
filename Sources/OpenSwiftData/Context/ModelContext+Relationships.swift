/// The object graph: loading relationships, inserting what inserted models refer to, applying
/// delete rules, and checking relationships before a save.
extension ModelContext {
    /// Loads the models a relationship fault stands for: the registered object of a row when the
    /// context holds one, a new object otherwise. A to-one relationship to a row that no longer
    /// exists reads as empty.
    ///
    /// The models are of the class the property declares, which may be another version's class
    /// of the destination's entity than the container's (read through a layout of its own).
    func resolve(_ fault: RelationshipFault, of state: ModelState, at index: Int) -> Any? {
        let property = state.layout.properties[index]
        guard let destination = property.destination,
              let relationship = ownTable(of: state)?.relationships.first(where: { $0.propertyIndex == index })
        else { return property.emptyValue }
        do {
            guard case let (store, destinationTable)? = try container.table(forEntity: relationship.destination, readingRowsAs: destination)
            else { return property.emptyValue }
            let query = FetchPlan(store: store, table: destinationTable, condition: nil, orderBy: nil)
            switch fault {
            case .toOne(let rowID):
                if let model = registered[destinationTable.registryKey]?[rowID]?.model { return model }
                let loaded: [any PersistentModel] = try models(destination, rowIDs: [rowID], query)
                return loaded.first ?? property.emptyValue
            case .toMany:
                guard let rowID = state.rowID else { return property.emptyValue }
                let rows = try store.fetchRelatedRows(relationship, ofRows: [rowID], in: destinationTable)
                let models = rows.map { row -> any PersistentModel in materialize(row.row.rowID, row.row.values, query, as: destination) }
                    .filter { $0.modelState?.isDeleted != true }
                return RelatedModels.toManyValue(models, of: destination)
            }
        } catch {
            fatalError("\(state.layout.entityName).\(property.name) could not be loaded from its store: \(error)")
        }
    }

    /// The layout `state`'s rows are read with: its entity's table, or, for a model of another
    /// class of the entity than the container's, that class's layout of the table.
    func ownTable(of state: ModelState) -> TableLayout? {
        try? container.table(forEntity: state.layout.entityName, readingRowsAs: state.layout.modelType)?.table
    }

    /// Inserts the unsaved models that inserted and changed models refer to, makes inverse
    /// relationships agree with values set in initializers, and applies the delete rules of
    /// deleted models. With `checkingDenyRules`, a `.deny` relationship that still holds models
    /// throws before anything changes.
    func applyPendingChanges(checkingDenyRules: Bool) throws {
        // Only models with relationships can reach others; a bulk insert of plain models skips
        // this walk entirely.
        var pending = (inserted + changed.states).filter { !$0.layout.relationshipIndices.isEmpty }
        var seen = Set(pending.map { ObjectIdentifier($0) })
        // Inverse to-many sides are linked at the end, each in one pass: a model that many new
        // models refer to (a shelf of a thousand new books) would otherwise be searched for
        // each of them.
        var toManyLinks: [PropertySlot: (state: ModelState, owners: [any PersistentModel])] = [:]
        while let state = pending.popLast() {
            guard let owner = state.model else { continue }
            for index in state.layout.relationshipIndices {
                guard let value = state.storedValue(at: index), !RelationshipFault.isFault(value) else { continue }
                let inverse = state.layout.inverse(of: index)
                for related in state.relatedModels(in: value, at: index) {
                    guard let relatedState = related.modelState, !relatedState.isDeleted else { continue }
                    if relatedState.context == nil {
                        insert(related)
                    }
                    if state.isInserted, let inverse {
                        if relatedState.layout.properties[inverse.index].isToMany {
                            toManyLinks[PropertySlot(relatedState, inverse.index), default: (relatedState, [])].owners.append(owner)
                        } else {
                            relatedState.link(owner, at: inverse.index, self: related)
                        }
                    }
                    if seen.insert(ObjectIdentifier(relatedState)).inserted, relatedState.isInserted {
                        pending.append(relatedState)
                    }
                }
            }
        }
        for (slot, link) in toManyLinks {
            link.state.linkAll(link.owners, at: slot.index)
        }
        try applyDeleteRules(checkingDenyRules: checkingDenyRules)
    }

    /// Deletes what `.cascade` relationships of deleted models hold, takes deleted models out of
    /// the inverse relationships of `.nullify` ones, and refuses while `.deny` ones hold models.
    ///
    /// The walk goes a level at a time: the relationships the rules read are loaded for the whole
    /// level first, a query per relationship and 500 models, not one per model.
    private func applyDeleteRules(checkingDenyRules: Bool) throws {
        var level = Array(deleted.values)
        var cascaded: [ModelState] = []
        while !level.isEmpty {
            try loadRuledRelationships(of: level)
            var next: [ModelState] = []
            for state in level {
                try applyDeleteRules(of: state, checkingDenyRules: checkingDenyRules, cascaded: &cascaded, next: &next)
            }
            level = next
        }
        for state in cascaded where state.context === self {
            state.isDeleted = false
            if let model = state.model { delete(model) }
        }
        for state in deleted.values {
            guard let owner = state.model else { continue }
            for stored in relationships(of: state) where stored.relationship.deleteRule == .nullify {
                guard let inverse = state.layout.inverse(of: stored.propertyIndex) else { continue }
                for related in state.relatedModels(at: stored.propertyIndex) where related.modelState?.isDeleted != true {
                    related.modelState?.unlink(owner, at: inverse.index)
                }
            }
        }
    }

    /// Loads, for every model of `states` by entity, the relationships whose `.cascade` or
    /// `.deny` rule the walk reads.
    private func loadRuledRelationships(of states: [ModelState]) throws {
        let byEntity = Dictionary(grouping: states) { $0.layout.entityName }
        for (entity, states) in byEntity {
            guard let table = container.table(forEntity: entity)?.table else { continue }
            for relationship in table.relationships
            where relationship.relationship.deleteRule == .cascade || relationship.relationship.deleteRule == .deny {
                try load(relationship, of: states.filter { $0.layout === table.layout })
            }
        }
    }

    /// Marks deleted what a `.cascade` relationship of `state` holds (adding it to `cascaded` and
    /// to the `next` level), and refuses while a `.deny` relationship holds models.
    private func applyDeleteRules(
        of state: ModelState, checkingDenyRules: Bool, cascaded: inout [ModelState], next: inout [ModelState]
    ) throws {
        for stored in relationships(of: state) {
            let index = stored.propertyIndex
            switch stored.relationship.deleteRule {
            case .cascade:
                for related in state.relatedModels(at: index) {
                    guard let relatedState = related.modelState, !relatedState.isDeleted else { continue }
                    relatedState.isDeleted = true
                    cascaded.append(relatedState)
                    next.append(relatedState)
                }
            case .deny:
                let held = state.relatedModels(at: index).filter { $0.modelState?.isDeleted != true }
                if checkingDenyRules, !held.isEmpty {
                    for state in cascaded { state.isDeleted = false }
                    throw SwiftDataError.modelValidationFailure.explaining(
                        "\(state.layout.entityName) \(state.modelID) cannot be deleted: its relationship \(stored.relationship.name) has the .deny delete rule and still holds \(held.count) model\(held.count == 1 ? "" : "s"); delete or reassign them first. Nothing was saved")
                }
            case .nullify, .noAction:
                break
            }
        }
    }

    /// The stored relationships of a model's entity, with their delete rules.
    private func relationships(of state: ModelState) -> [StoredRelationship] {
        ownTable(of: state)?.relationships ?? []
    }

    /// Checks what the schema requires of relationships before anything is written: every
    /// non-optional to-one relationship holds a model, and every to-many one holds between its
    /// minimum and maximum number of models.
    func validatePendingChanges() throws {
        for state in inserted + changed.states where !state.layout.relationshipIndices.isEmpty {
            guard let table = ownTable(of: state) else { continue }
            for stored in table.relationships {
                let property = state.layout.properties[stored.propertyIndex]
                let relationship = stored.relationship
                if stored.isToOne {
                    if !property.isOptional, state.storedValue(at: stored.propertyIndex) == nil {
                        throw SwiftDataError.modelValidationFailure.explaining(
                            "\(state.layout.entityName).\(property.name) is not optional but holds no \(relationship.destination); give it one before saving, or make the property optional. Nothing was saved")
                    }
                    continue
                }
                let minimum = relationship.minimumModelCount ?? 0
                let maximum = relationship.maximumModelCount ?? 0
                guard minimum > 0 || maximum > 0 else { continue }
                let count = state.relatedModels(at: stored.propertyIndex).count
                if (minimum > 0 && count < minimum) || (maximum > 0 && count > maximum) {
                    throw SwiftDataError.modelValidationFailure.explaining(
                        "\(state.layout.entityName).\(property.name) holds \(count) models, but its minimumModelCount is \(minimum) and its maximumModelCount is \(maximum) (0 means no bound). Nothing was saved")
                }
            }
        }
    }
}

/// One property of one model's backing data, as a dictionary key.
private struct PropertySlot: Hashable {
    let state: ObjectIdentifier
    let index: Int

    init(_ state: ModelState, _ index: Int) {
        self.state = ObjectIdentifier(state)
        self.index = index
    }
}
