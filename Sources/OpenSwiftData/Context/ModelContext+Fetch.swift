import Foundation

// Fetching: descriptors run as SQL, with pending changes merged in memory when they matter,
// and identifiers resolved to models.
extension ModelContext {
    /// The models matching the descriptor, in its order.
    ///
    /// - Parameter descriptor: Which models, in what order, and how many.
    /// - Returns: The matching models, after the descriptor's offset and limit: for each row, the
    ///   object this context holds for it, or a new one it holds from now on.
    /// - Throws: ``SwiftDataError/unknownSchema`` when `T` is not one of the container's models;
    ///   ``SwiftDataError/unsupportedPredicate`` or ``SwiftDataError/unsupportedSortDescriptor``
    ///   when the predicate or a sort descriptor cannot run in SQL;
    ///   ``SwiftDataError/unsupportedKeyPath`` when a key path to prefetch is not a relationship;
    ///   ``SwiftDataError/loadIssueModelContainer`` when a stored value cannot be read as its
    ///   property's type; SQLite's error when the query fails for a row (a force-unwrapped `nil`);
    ///   what the predicate throws when unsaved changes make it run in memory.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        let results = try fetchModels(descriptor)
        if !descriptor.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(descriptor.relationshipKeyPathsForPrefetching, of: results)
        }
        return results
    }

    private func fetchModels<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        let query = try FetchPlan(descriptor, in: self)
        if let narrowing = readsCandidates(query, descriptor) {
            return try fetchCandidates(descriptor, query, narrowing)
        }
        if query.answersInMemory || descriptor.includePendingChanges && hasPendingChanges(affecting: query) {
            return try fetchInMemory(descriptor, query)
        }
        guard let pending = pendingStates(of: query.table, if: descriptor.includePendingChanges) else {
            return try materializeRows(query, limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        }
        // Unsaved changes take part: fetch every stored match, then merge, sort and page here.
        let stored = (try materializeRows(query) as [T]).filter { model in
                let state = Self.state(of: model)
                return !state.isDeleted && !changed.contains(state)
            }
        var unsaved: [T] = []
        for state in pending {
            guard let model = state.model as? T else { continue }
            if let predicate = descriptor.predicate, try !predicate.evaluate(model) { continue }
            unsaved.append(model)
        }
        var results = stored + unsaved
        if !unsaved.isEmpty, !descriptor.sortBy.isEmpty {
            results.sort(using: descriptor.sortBy)
        }
        let start = min(descriptor.fetchOffset ?? 0, results.count)
        let end = descriptor.fetchLimit.map { min(start + $0, results.count) } ?? results.count
        return Array(results[start..<end])
    }

    /// The models matching the descriptor, loaded `batchSize` at a time as you go through them.
    ///
    /// - Parameters:
    ///   - descriptor: Which models, in what order, and how many.
    ///   - batchSize: How many models to load at a time; at least 1.
    /// - Returns: The matching models, as a collection that loads them a batch at a time when you
    ///   first reach them.
    /// - Throws: ``SwiftDataError/includePendingChangesWithBatchSize`` when the descriptor includes
    ///   pending changes and the context has unsaved changes to an entity the fetch reads; the
    ///   errors of ``fetch(_:)``.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T>
    where T: PersistentModel {
        let query = try FetchPlan(descriptor, in: self)
        if unsavedChangesMatter(to: query, descriptor) {
            let pending = entitiesWithPendingChanges(readBy: query)
            throw SwiftDataError.includePendingChangesWithBatchSize.explaining(
                "the context has unsaved changes to \(pending.joined(separator: ", ")), which a batched fetch of \(query.table.entity.name) cannot include; save first, or set includePendingChanges to false")
        }
        let rowIDs = try storedRowIDs(query, descriptor)
        return FetchResultsCollection(rowIDs: rowIDs, batchSize: max(batchSize, 1)) { [unowned self] batch in
            try self.models(T.self, rowIDs: batch, query)
        }
    }

    /// The number of models matching the descriptor.
    ///
    /// - Parameter descriptor: Which models to count; its offset and limit apply.
    /// - Returns: How many models match.
    /// - Throws: The errors of ``fetch(_:)``.
    public func fetchCount<T>(_ descriptor: FetchDescriptor<T>) throws -> Int where T: PersistentModel {
        let query = try FetchPlan(descriptor, in: self)
        if let narrowing = readsCandidates(query, descriptor) {
            return try countCandidates(descriptor, query, narrowing)
        }
        if query.answersInMemory || unsavedChangesMatter(to: query, descriptor) {
            return try fetchModels(descriptor).count
        }
        let count = try query.store.count(query.table, where: query.condition)
        let skipped = min(descriptor.fetchOffset ?? 0, count)
        return min(count - skipped, descriptor.fetchLimit ?? Int.max)
    }

    /// The identifiers of the models matching the descriptor, without loading the models.
    ///
    /// - Parameter descriptor: Which models, in what order, and how many.
    /// - Returns: The identifiers of the matching models, in the descriptor's order.
    /// - Throws: The errors of ``fetch(_:)``.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        let query = try FetchPlan(descriptor, in: self)
        if query.answersInMemory || unsavedChangesMatter(to: query, descriptor) {
            return try fetchModels(descriptor).map(\.persistentModelID)
        }
        let selection = query.selection(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        if query.table.hierarchyEntities != nil {
            // A row of a hierarchy's table is identified as its own class's.
            return try query.store.fetchRowClasses(selection).map {
                PersistentIdentifier(storeIdentifier: query.store.identifier, entityName: $0.entity, key: .row($0.rowID))
            }
        }
        let rowIDs = try query.store.fetchRowIDs(selection)
        return rowIDs.map {
            PersistentIdentifier(storeIdentifier: query.store.identifier, entityName: query.table.entity.name, key: .row($0))
        }
    }

    /// The identifiers of the models matching the descriptor, `batchSize` at a time.
    ///
    /// - Parameters:
    ///   - descriptor: Which models, in what order, and how many.
    ///   - batchSize: The size of the collection's batches; at least 1.
    /// - Returns: The identifiers, in the descriptor's order. They are all read at once, without
    ///   loading any model.
    /// - Throws: The errors of ``fetch(_:)``.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier> where T: PersistentModel {
        let identifiers = try fetchIdentifiers(descriptor)
        return FetchResultsCollection(rowIDs: identifiers.indices.map(Int64.init), batchSize: max(batchSize, 1)) { batch in
            batch.map { identifiers[Int($0)] }
        }
    }

    /// Calls `block` with each model matching the descriptor, loading `batchSize` models at a
    /// time and letting each batch go before loading the next, so memory stays bounded by the
    /// batch, not the number of models.
    ///
    /// Unless `allowEscapingMutations` is `true`, the block must leave no inserted or changed
    /// models at the end of a batch (save inside it), or the enumeration stops with an error.
    /// Deleting models is no such change: the deletes stay pending for the next save (a
    /// surrounding ``transaction(block:)``'s, say), and the deleted models of each batch are let
    /// go with it, kept as the keys of their rows, so memory stays bounded by the batch even when
    /// the block deletes every model. (Models of an entity whose delete history keeps values,
    /// `.preserveValueOnDeletion`, or reaches one by `.cascade`, are kept whole for it.)
    ///
    /// - Parameters:
    ///   - fetch: Which models, in what order, and how many.
    ///   - batchSize: How many models to load at a time; at least 1.
    ///   - allowEscapingMutations: Whether a batch may end with unsaved changes.
    ///   - block: Called with each model in turn.
    /// - Throws: What `block` throws; ``SwiftDataError/modelValidationFailure`` when a batch ends
    ///   with inserted or changed models and `allowEscapingMutations` is `false` (every change
    ///   made so far stays pending); the errors of ``fetch(_:)``.
    public func enumerate<T>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (_ model: T) throws -> Void
    ) throws where T: PersistentModel {
        let query = try FetchPlan(fetch, in: self)
        let rowIDs = try storedRowIDs(query, fetch)
        let batchSize = max(batchSize, 1)
        var start = 0
        while start < rowIDs.count {
            let batch = Array(rowIDs[start..<min(start + batchSize, rowIDs.count)])
            start += batch.count
            // Objects the caller held before are left alone; only the batch's new ones go.
            let loaded = batch.filter { registered[query.table.registryKey]?[$0] == nil }
            for model in try models(T.self, rowIDs: batch, query) {
                try block(model)
            }
            if !allowEscapingMutations {
                if !inserted.isEmpty || !changed.isEmpty {
                    throw SwiftDataError.modelValidationFailure.explaining(
                        "enumerate(_:batchSize:allowEscapingMutations:block:) left \(inserted.count) inserted and \(changed.count) changed models unsaved after a batch of \(query.table.entity.name), which keeps the batch's models in memory; every change stays pending. Save inside the block, or pass allowEscapingMutations: true (deletes need neither)")
                }
                keepDeletesAsRowKeys(query, rowIDs: loaded)
            }
            forgetUnchanged(entity: query.table.entity.name, rowIDs: loaded)
        }
    }

    /// The model with the identifier: the one this context holds, or one loaded from its store.
    ///
    /// A temporary identifier, taken before its model's first save, resolves to the saved model
    /// once the context that inserted it has saved, in every context of the container. An
    /// identifier that resolves to no row gives a model with no values and no context, whose
    /// properties trap when read, as in SwiftData; one whose entity no model class has gives a model
    /// of no entity, which no cast to a model class accepts. The lookup itself never traps.
    ///
    /// - Parameter persistentModelID: The identifier, permanent or temporary, from any context of
    ///   the container.
    /// - Returns: The model; cast it to its class.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        let id = container.permanentIdentifier(for: persistentModelID) ?? persistentModelID
        if let model = registeredState(for: id)?.model { return model }
        if case let (store, table)? = container.table(forEntity: id.entityName) {
            let query = FetchPlan(store: store, table: table, condition: nil, orderBy: nil)
            if let rowID = id.rowID, id.storeIdentifier == store.identifier {
                return Self.openModel(table.layout.modelType, rowID: rowID, query: query, context: self)
            }
            return Self.unattachedModel(table.layout.modelType, layout: table.layout)
        }
        if let layout = ModelLayout.any(ofEntity: id.entityName) {
            return Self.unattachedModel(layout.modelType, layout: layout)
        }
        return UnresolvedModel()
    }

    private static func openModel<M: PersistentModel>(_ type: M.Type, rowID: Int64, query: FetchPlan, context: ModelContext) -> M {
        if let model = try? context.models(M.self, rowIDs: [rowID], query).first { return model }
        let state = DefaultBackingData<M>(layout: query.table.layout, values: ModelValues())
        state.rowID = rowID
        state.storeIdentifier = query.store.identifier
        return M(backingData: state)
    }

    /// A model of `type` that stands for no row and belongs to no context.
    private static func unattachedModel<M: PersistentModel>(_ type: M.Type, layout: ModelLayout) -> M {
        M(backingData: DefaultBackingData<M>(layout: layout, values: ModelValues()))
    }

    /// The model with the identifier if this context holds it already; never reads a store.
    ///
    /// - Parameter persistentModelID: The identifier, permanent or temporary.
    /// - Returns: The model this context holds for the identifier; `nil` when it holds none, or
    ///   holds one that is not a `T`.
    public func registeredModel<T>(for persistentModelID: PersistentIdentifier) -> T? where T: PersistentModel {
        registeredState(for: container.permanentIdentifier(for: persistentModelID) ?? persistentModelID)?.model as? T
    }

    private func registeredState(for id: PersistentIdentifier) -> ModelState? {
        if let rowID = id.rowID {
            // Row keys are per store: another store's identifier names a different model.
            let registry = container.table(forEntity: id.entityName)?.table.registryKey ?? id.entityName
            guard let state = registered[registry]?[rowID], state.storeIdentifier == id.storeIdentifier else { return nil }
            return state
        }
        guard let key = id.temporaryKey else { return nil }
        return inserted.first { $0.temporaryKey == key }
    }



    /// The unsaved states of the table's entity when pending changes take part, or `nil` when
    /// the stored rows alone answer the fetch.
    private func pendingStates(of table: TableLayout, if includePendingChanges: Bool) -> [ModelState]? {
        guard includePendingChanges else { return nil }
        let entity = table.entity.name
        let pending = inserted.filter { $0.layout.entityName == entity }
            + changed.states.filter { $0.layout.entityName == entity }
        let hasDeletes = deleted.values.contains { $0.layout.entityName == entity }
        return pending.isEmpty && !hasDeletes ? nil : pending
    }

    /// Whether a fetch, count or identifier fetch must take unsaved changes into account: it asks
    /// for them, and models of an entity it reads have some.
    private func unsavedChangesMatter<T>(to query: FetchPlan, _ descriptor: FetchDescriptor<T>) -> Bool {
        descriptor.includePendingChanges && !entitiesWithPendingChanges(readBy: query).isEmpty
    }

    /// Whether unsaved changes can change what a query reading other entities' tables through
    /// relationships selects or how it orders: an inserted, changed or deleted model of the
    /// fetched entity or of one of those. (A changed shelf name moves stored, unchanged books
    /// in and out of `$0.shelf?.name == "Fiction"`.)
    private func hasPendingChanges(affecting query: FetchPlan) -> Bool {
        !query.relatedEntities.isEmpty && !entitiesWithPendingChanges(readBy: query).isEmpty
    }

    /// The entities a query reads (the fetched one and those its relationships reach) that have
    /// inserted, changed or deleted models, by name.
    func entitiesWithPendingChanges(readBy query: FetchPlan) -> [String] {
        let read = query.relatedEntities.union([query.table.entity.name])
        let pending = (inserted + changed.states + deleted.values).map(\.layout.entityName)
        return read.intersection(pending).sorted()
    }

    /// A fetch answered in memory: every stored model of the entity and, with pending changes,
    /// every inserted one, filtered with `predicate.evaluate` and sorted with `sorted(using:)`
    /// over the objects as the context holds them. What runs when unsaved changes decide the
    /// answer, and when the store's SQL cannot (``FetchPlan/answersInMemory``).
    private func fetchInMemory<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ query: FetchPlan) throws -> [T] {
        // Every row of the entity's classes (a subentity's table holds its siblings' rows too).
        let everything = FetchPlan(store: query.store, table: query.table, condition: query.entityCondition, orderBy: nil)
        let pending = descriptor.includePendingChanges
        let stored: [T] = try materializeRows(everything)
            .filter { !pending || !Self.state(of: $0).isDeleted }
        let unsaved = !pending ? [] : inserted.filter { $0.layout.entityName == query.table.entity.name }.compactMap { $0.model as? T }
        var results = stored + unsaved
        if let predicate = descriptor.predicate {
            results = try results.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty {
            results.sort(using: descriptor.sortBy)
        }
        let start = min(descriptor.fetchOffset ?? 0, results.count)
        let end = descriptor.fetchLimit.map { min(start + $0, results.count) } ?? results.count
        return Array(results[start..<end])
    }

    /// The keys of the stored rows the descriptor selects, after its offset and limit: from the
    /// store, or, when the store's SQL cannot answer the query (``FetchPlan/answersInMemory``),
    /// from the stored models matched in memory.
    private func storedRowIDs<T: PersistentModel>(_ query: FetchPlan, _ descriptor: FetchDescriptor<T>) throws -> [Int64] {
        guard query.answersInMemory else {
            return try query.store.fetchRowIDs(query.selection(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset))
        }
        var stored = descriptor
        stored.includePendingChanges = false
        if let narrowing = readsCandidates(query, stored) {
            return try fetchCandidates(stored, query, narrowing).compactMap { Self.state(of: $0).rowID }
        }
        return try fetchInMemory(stored, query).compactMap { Self.state(of: $0).rowID }
    }

    /// The store holding `layout`'s entity, when it is this container's model class of it.
    func store(for layout: ModelLayout) throws -> any ModelStore {
        guard case let (store, table)? = container.table(forEntity: layout.entityName) else {
            throw SwiftDataError.unknownSchema.explaining(
                "\(String(reflecting: layout.modelType)) is not one of this container's models; create the container with it (or with the VersionedSchema it belongs to)")
        }
        guard table.layout.modelType == layout.modelType else {
            // A model of another version's class of the entity: one inserted by the app, or one
            // read through a relationship declared with that class, which is read, never written.
            throw SwiftDataError.unknownSchema.explaining(
                "\(String(reflecting: layout.modelType)) is not one of this container's models: its \(layout.entityName) is \(String(reflecting: table.layout.modelType)). Models of another class of the entity (such as those a relationship declared with that class reads) can be read, not saved; make the change through a \(String(reflecting: table.layout.modelType)) (fetch it by the model's persistentModelID), or create the container with the VersionedSchema \(String(reflecting: layout.modelType)) belongs to")
        }
        return store
    }
}
