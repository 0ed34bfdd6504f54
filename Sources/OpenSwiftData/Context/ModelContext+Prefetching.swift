extension ModelContext {
    /// Loads the models that the given relationships of `models` hold, with one query per
    /// relationship instead of one per model, so reading those relationships afterwards runs
    /// no query.
    func prefetch<T: PersistentModel>(_ keyPaths: [PartialKeyPath<T>], of models: [T]) throws {
        guard !models.isEmpty else { return }
        let layout = ModelLayout.of(T.self)
        let store = try store(for: layout)
        guard let table = store.tables[layout.entityName] else { return }
        let states = models.map { Self.state(of: $0) }
        for keyPath in keyPaths {
            guard let index = layout.index(of: keyPath),
                  let relationship = table.relationships.first(where: { $0.propertyIndex == index })
            else {
                throw SwiftDataError.unsupportedKeyPath.explaining(
                    "\(keyPath) in relationshipKeyPathsForPrefetching is not a relationship of \(layout.entityName)")
            }
            try load(relationship, of: states)
        }
    }

    /// Loads what `relationship` holds for each of `states` (all of the relationship's entity)
    /// that has not loaded it yet, with one query per 500 models.
    func load(_ relationship: StoredRelationship, of states: [ModelState]) throws {
        guard let declared = states.first?.layout.properties[relationship.propertyIndex].destination,
              case let (destinationStore, destination)? = try container.table(forEntity: relationship.destination, readingRowsAs: declared)
        else { return }
        let query = FetchPlan(store: destinationStore, table: destination, condition: nil, orderBy: nil)
        if relationship.isToOne {
            try prefetchToOne(states, relationship.propertyIndex, query)
        } else {
            try prefetchToMany(states, relationship, query)
        }
    }

    private func prefetchToOne(_ states: [ModelState], _ index: Int, _ query: FetchPlan) throws {
        let entity = query.table.registryKey
        var missing: [Int64] = []
        for state in states {
            if case .toOne(let rowID)? = RelationshipFault.held(in: state.storedValue(at: index)), registered[entity]?[rowID] == nil {
                missing.append(rowID)
            }
        }
        for batch in Set(missing).chunked(by: 500) {
            _ = try models(query.table.layout.modelType, rowIDs: batch, query)
        }
    }

    private func prefetchToMany(_ states: [ModelState], _ relationship: StoredRelationship, _ query: FetchPlan) throws {
        let owners = states.filter { $0.rowID != nil && RelationshipFault.isFault($0.storedValue(at: relationship.propertyIndex)) }
        guard !owners.isEmpty, let destinationType = owners[0].layout.properties[relationship.propertyIndex].destination else { return }
        var members: [Int64: [any PersistentModel]] = [:]
        for batch in owners.compactMap(\.rowID).chunked(by: 500) {
            for (owner, model) in try query.store.fetchRelatedRows(relationship, ofRows: batch, in: query.table) {
                let related: any PersistentModel = materialize(model.rowID, model.values, query, as: destinationType)
                if related.modelState?.isDeleted != true {
                    members[owner, default: []].append(related)
                }
            }
        }
        for owner in owners {
            owner.values[relationship.propertyIndex] = RelatedModels.toManyValue(members[owner.rowID!] ?? [], of: destinationType)
        }
    }
}
