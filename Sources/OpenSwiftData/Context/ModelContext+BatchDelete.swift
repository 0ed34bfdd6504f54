import Foundation

extension ModelContext {
    /// Marks deleted every model of a type that matches the predicate — every one of them
    /// when the predicate is `nil`. The next save removes them, and what their delete rules
    /// reach.
    ///
    /// The models are not loaded when the context holds no model, and no unsaved change, of an
    /// entity the delete can touch (the entity, what its `.cascade` relationships reach, and the
    /// entities related to those): the next save deletes the matching rows in SQL and applies
    /// the delete rules there — cascading, refusing for `.deny`, clearing the keys that pointed
    /// at deleted rows — with the same outcome as deleting each model. Until the save, fetches
    /// that include pending changes leave the matching rows out (what they cascade to shows
    /// until the save, as with ``delete(_:)``). The predicate is evaluated at the save, so it
    /// also removes matching rows other contexts saved in between. If the context comes to hold
    /// models of those entities before the save, the save loads the matching models and deletes
    /// them one by one instead.
    ///
    /// An entity no relationship involves is deleted by one `DELETE` whatever the context holds:
    /// models of matching rows it holds are marked deleted at once, as ``delete(_:)`` marks
    /// them; ones it loads before the save are let go at the save, and `didSave` lists only the
    /// deleted rows this context held models for.
    ///
    /// - Parameters:
    ///   - model: The model class whose models to delete.
    ///   - predicate: Which of them to delete; `nil` for every one.
    ///   - includeSubclasses: Whether models of `T`'s subclasses are deleted too (the default);
    ///     `false` deletes only models whose class is `T` itself.
    /// - Throws: ``SwiftDataError/unknownSchema`` when `T` is not one of the container's models,
    ///   ``SwiftDataError/unsupportedPredicate`` when the predicate cannot run in SQL, or an error
    ///   of the fetch that loads the models to delete them one by one.
    public func delete<T>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws
    where T: PersistentModel {
        let descriptor = FetchDescriptor<T>(predicate: predicate)
        let fullQuery = try FetchPlan(descriptor, in: self)
        let query = includeSubclasses ? fullQuery : fullQuery.excludingSubclasses()
        guard canDeleteInStore(query) else {
            for model in try fetch(descriptor) where includeSubclasses || type(of: model) == T.self {
                delete(model)
            }
            return
        }
        if let held = registered[query.table.registryKey], !held.isEmpty {
            let matching = try query.store.fetchRowIDs(query.matchingRows)
            for rowID in matching {
                if let model = held[rowID]?.model { delete(model) }
            }
        }
        batchDeletes.append(query)
        didChangeModels()
    }

    /// Hands the pending batch deletes that can no longer run in SQL (the context came to hold
    /// models, or unsaved changes, of entities they touch) over to the model-by-model delete.
    func loadModelsOfBatchDeletes() throws {
        // One at a time: the models one hands over are unsaved changes that may stop the next.
        while let index = batchDeletes.firstIndex(where: { !isolatedEntity($0) && !canDeleteInStore($0) }) {
            let batch = batchDeletes.remove(at: index)
            let models = try models(of: batch) {
                try batch.store.forEachRow(batch.matchingRows, $0)
            }
            for model in models { delete(model) }
        }
    }

    /// Turns the pending deletes of the models of `query`'s rows `rowIDs` (a batch that
    /// `enumerate` loaded) into pending batch deletes of those rows by key, and lets the models
    /// go: the save deletes the rows as ``delete(model:where:includeSubclasses:)`` does, applying
    /// the delete rules. Not for an entity whose delete history keeps values
    /// (`.preserveValueOnDeletion`), or that reaches one by `.cascade`: a batch delete records
    /// its rows without them.
    func keepDeletesAsRowKeys(_ query: FetchPlan, rowIDs: [Int64]) {
        guard !deleted.isEmpty else { return }
        let entities = container.schema.entitiesByName
        let keepsValues = cascadeReach(of: query.table.entity.name).contains { name in
            entities[name].map { $0.selfAndDescendants.contains { $0.attributesInOrder.contains { $0.options.contains(.preserveValueOnDeletion) } } } ?? true
        }
        guard !keepsValues else { return }
        var keys: [Int64] = []
        var identifiers: [PersistentIdentifier] = []
        withRegistry(of: query.table.registryKey) { byRowID in
            for rowID in rowIDs {
                guard let state = byRowID[rowID], state.isDeleted, deleted.removeValue(forKey: ObjectIdentifier(state)) != nil else { continue }
                keys.append(rowID)
                identifiers.append(state.modelID)
                byRowID[rowID] = nil
                state.faultRelationships()
                state.context = nil
                state.model = nil
            }
        }
        if !identifiers.isEmpty { deletedAsRowKeys.append((query.store, identifiers)) }
        // A statement's parameters are limited; 500 keys each, as deletes of models go.
        for chunk in keys.chunked(by: 500) {
            batchDeletes.append(FetchPlan(store: query.store, table: query.table, condition: query.table.keyIsOne(of: chunk), orderBy: nil))
        }
    }

    /// How the store deletes a pending batch at the save (after ``loadModelsOfBatchDeletes()``).
    func storeDeleteKind(of batch: FetchPlan) -> BatchDeleteKind {
        guard isolatedEntity(batch) else { return .applyingDeleteRules }
        // The keys are needed only to let go of models this context holds for those rows; a
        // batch with delete rules runs only while the context holds none.
        return .oneStatement(reportingKeys: !(registered[batch.table.registryKey]?.isEmpty ?? true))
    }

    /// Whether the rows a query matches can be deleted by SQL at the next save: see
    /// ``delete(model:where:includeSubclasses:)``.
    private func canDeleteInStore(_ query: FetchPlan) -> Bool {
        // A predicate only Swift answers selects the models in memory.
        if query.answersInMemory { return false }
        let pending = Set((inserted + changed.states + deleted.values).map(\.layout.entityName))
        if isolatedEntity(query) { return !pending.contains(query.table.entity.name) }
        if !query.store.appliesDeleteRules { return false }
        let entities = container.schema.entitiesByName
        let cascaded = cascadeReach(of: query.table.entity.name)
        var touched = cascaded.union(query.relatedEntities)
        for entity in cascaded {
            for relationship in entities[entity]?.relationshipsInOrder ?? [] { touched.insert(relationship.destination) }
        }
        for entity in container.schema.entities {
            let pointing = entity.relationshipsInOrder.filter { cascaded.contains($0.destination) }
            guard !pointing.isEmpty else { continue }
            touched.insert(entity.name)
            // Rules the models check that the store's delete does not: a minimum number of
            // related models, and a non-optional one-way reference (left dangling model by model).
            if pointing.contains(where: { ($0.minimumModelCount ?? 0) > 0 || ($0.isToOne && !$0.isOptional && $0.inverseName == nil) }) {
                return false
            }
        }
        return touched.allSatisfy { name in
            guard let entity = entities[name], entity.superentityName == nil, entity.subentities.isEmpty,
                  container.table(forEntity: name)?.store === query.store
            else { return false }
            return !pending.contains(name) && (registered[name]?.isEmpty ?? true)
        }
    }

    /// Whether no relationship involves the query's entity (its own, or another entity's that
    /// points at it), and its condition reads no other entity.
    private func isolatedEntity(_ query: FetchPlan) -> Bool {
        let entity = query.table.entity.name
        return query.table.relationships.isEmpty && query.relatedEntities.isEmpty
            && !container.schema.entities.contains { other in
                other.relationshipsInOrder.contains { $0.destination == entity }
            }
    }

    /// The entity and every entity its `.cascade` relationships reach, and theirs.
    private func cascadeReach(of entity: String) -> Set<String> {
        var reached: Set<String> = [entity]
        var pending = [entity]
        while let entity = pending.popLast() {
            for relationship in container.schema.entitiesByName[entity]?.relationshipsInOrder ?? []
            where relationship.deleteRule == .cascade && reached.insert(relationship.destination).inserted {
                pending.append(relationship.destination)
            }
        }
        return reached
    }
}
