import Foundation

// The identity map: one object per stored row, made from fetched values or refreshed with
// them, and let go of when nothing in the context needs it any more.
extension ModelContext {
    /// The models of the given rows, in the given order; keys with no row are skipped.
    func models<T: PersistentModel>(_ type: T.Type, rowIDs: [Int64], _ query: FetchPlan) throws -> [T] {
        guard !rowIDs.isEmpty else { return [] }
        let inKeyOrder: [T] = try materializeRows(query) { try query.store.forEachRow(query.table, rowIDs: rowIDs, $0) }
        if zip(rowIDs, rowIDs.dropFirst()).allSatisfy({ $0 < $1 }) { return inKeyOrder }
        let byRowID = Dictionary(inKeyOrder.map { (Self.state(of: $0).rowID!, $0) }, uniquingKeysWith: { first, _ in first })
        return rowIDs.compactMap { byRowID[$0] }
    }

    /// The models of the rows whose keys are in `range`, in key order, and their keys.
    ///
    /// Two arrays, not one of pairs: a migration runs this unspecialized for its model types,
    /// where each step through an array of tuples looks the runtime metadata of an optional
    /// tuple up again.
    func keyedModels<T: PersistentModel>(
        _ type: T.Type, rowIDsIn range: ClosedRange<Int64>, _ query: FetchPlan, reusing spares: inout SpareModels
    ) throws -> (rowIDs: [Int64], models: [T]) {
        var rowIDs: [Int64] = []
        let models: [T] = try materializeRows(query, reusing: &spares) { row in
            try query.store.forEachRow(query.table, rowIDsIn: range) { rowID, values in
                rowIDs.append(rowID)
                try row(rowID, values)
            }
        }
        return (rowIDs, models)
    }

    /// The context's objects for the rows the query matches, in its order, read as they come
    /// from the store.
    func materializeRows<T: PersistentModel>(_ query: FetchPlan, limit: Int? = nil, offset: Int? = nil) throws -> [T] {
        try materializeRows(query) {
            try query.store.forEachRow(query.selection(limit: limit, offset: offset), $0)
        }
    }

    /// The context's objects for the rows of the query's table that `readRows` reads, in the
    /// order it calls back with them, as `T`, the table's model class; a row with no registered
    /// model gets one of `spares` while there are any, a new model otherwise.
    func materializeRows<T: PersistentModel>(
        _ query: FetchPlan, reusing spares: inout SpareModels,
        _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [T] {
        // Every model is created as the class of the table's layout, so one check covers all.
        guard ObjectIdentifier(query.table.layout.modelType) == ObjectIdentifier(T.self) else { Self.wrongClass(T.self, query) }
        // Gathered unretained, a word each: the registry holds every model until the fetch
        // returns. (Appending to an `[T]` here would look the generic array type's metadata up
        // for every row.)
        var gathered = ContiguousArray<Unmanaged<AnyObject>>()
        try forEachModel(of: query, reusing: &spares, readRows) { gathered.append(.passUnretained($0)) }
        return Array(unsafeUninitializedCapacity: gathered.count) { buffer, initialized in
            for (index, model) in gathered.enumerated() {
                (buffer.baseAddress! + index).initialize(to: unsafeDowncast(model.takeUnretainedValue(), to: T.self))
            }
            initialized = gathered.count
        }
    }

    /// ``materializeRows(_:reusing:_:)`` with no spare models.
    func materializeRows<T: PersistentModel>(
        _ query: FetchPlan, _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [T] {
        var noSpares = SpareModels()
        return try materializeRows(query, reusing: &noSpares, readRows)
    }

    /// The context's objects for the rows of the query's table that `readRows` reads, in the
    /// order it calls back with them. A row with no registered model gets one of `spares`
    /// while there are any, a new model otherwise.
    func models(
        of query: FetchPlan, reusing spares: inout SpareModels,
        _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [any PersistentModel] {
        var models: [any PersistentModel] = []
        try forEachModel(of: query, reusing: &spares, readRows) { models.append($0) }
        return models
    }

    /// Calls `body` with the context's object for each row `readRows` reads, registered there
    /// before the call.
    private func forEachModel(
        of query: FetchPlan, reusing spares: inout SpareModels,
        _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void, _ body: (any PersistentModel) -> Void
    ) throws {
        let rows = FetchedRows(query)
        try withoutActuallyEscaping(body) { body in
            try withRegistry(of: query.table.registryKey) { byRowID in
                try readRows { body(materialize($0, $1, rows, registeredIn: &byRowID, reusing: &spares)) }
            }
        }
    }

    /// ``models(of:reusing:_:)`` with no spare models.
    func models(
        of query: FetchPlan, _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [any PersistentModel] {
        var noSpares = SpareModels()
        return try models(of: query, reusing: &noSpares, readRows)
    }

    /// The context's object for a fetched row: the registered one, refreshed, or a new one.
    func materialize<T: PersistentModel>(_ rowID: Int64, _ values: ModelValues, _ query: FetchPlan, as type: T.Type = T.self) -> T {
        var noSpares = SpareModels()
        let model = materialize(
            rowID, values, FetchedRows(query), registeredIn: &registered[query.table.registryKey, default: RowRegistry()],
            reusing: &noSpares)
        guard let typed = model as? T else { Self.wrongClass(T.self, query) }
        return typed
    }

    private static func wrongClass(_ type: Any.Type, _ query: FetchPlan) -> Never {
        fatalError("\(type) is not the model class of entity \(query.table.entity.name) in this container (\(query.table.layout.modelType))")
    }

    /// What every row of one fetch shares, worked out once for the fetch rather than for each
    /// of its rows.
    private struct FetchedRows {
        let store: any ModelStore
        let storeIdentifier: String
        let table: TableLayout
        /// The layout of every row's model, unless the table holds a class hierarchy.
        let layout: ModelLayout?

        init(_ query: FetchPlan) {
            store = query.store
            storeIdentifier = query.store.identifier
            table = query.table
            layout = (query.table.hierarchyEntities?.count ?? 0) > 1 ? nil : query.table.layout
        }

        /// The layout of the model of the row these values were read from.
        func layout(of values: ModelValues) -> ModelLayout {
            layout ?? store.rowTable(table, values: values).layout
        }
    }

    private func materialize(
        _ rowID: Int64, _ values: ModelValues, _ rows: FetchedRows, registeredIn byRowID: inout RowRegistry,
        reusing spares: inout SpareModels
    ) -> any PersistentModel {
        let layout = rows.layout(of: values)
        // A registered model of another class (one inserted from another container's schema
        // version) does not stand for this row: a model of the table's class replaces it.
        if let state = byRowID[rowID], state.layout === layout, let model = state.model {
            state.refresh(with: values)
            return model
        }
        let state: ModelState
        let model: any PersistentModel
        if let spare = spares.take(for: layout) {
            // Its context is this one, and its table this one: only the row is new.
            (state, model) = spare
            state.values = values
            state.rowID = rowID
        } else {
            let loaded = layout.loadedStateType.init(layout: layout, values: values)
            loaded.rowID = rowID
            loaded.storeIdentifier = rows.storeIdentifier
            loaded.context = self
            (state, model) = (loaded, loaded.makeModel())
        }
        state.model = model
        byRowID[rowID] = state
        return model
    }

    /// Lets go of the given rows' objects that have no unsaved changes.
    func forgetUnchanged(entity: String, rowIDs: [Int64]) {
        withRegistry(of: entity) { byRowID in
            for rowID in rowIDs {
                guard let state = byRowID[rowID], Self.unregisterIfUnchanged(state, rowID: rowID, from: &byRowID) else { continue }
                state.context = nil
            }
        }
    }

    /// Lets go of a transform's batch of models once it is saved, as
    /// ``forgetUnchanged(entity:rowIDs:)`` does, keeping in `spares` each one that can stand for
    /// a later row. `models` must be the only array holding them: pass it with `consume`.
    func forgetUnchanged<T: PersistentModel>(_ models: consuming [T], keepingSparesIn spares: inout SpareModels) {
        guard let first = models.first else { return }
        withRegistry(of: Self.state(of: first).layout.registryName) { byRowID in
            for index in models.indices {
                let state = Self.state(of: models[index])
                guard let rowID = state.rowID, byRowID[rowID] === state,
                      Self.unregisterIfUnchanged(state, rowID: rowID, from: &byRowID)
                else { continue }
                if !spares.keep(&models[index], state: state) { state.context = nil }
            }
        }
    }

    /// Takes `state`, registered for `rowID`, out of the registry and lets go of its model,
    /// unless it has unsaved changes; `false` when it stays. Its context is the caller's to
    /// clear: a model kept to stand for another row keeps it.
    private static func unregisterIfUnchanged(_ state: ModelState, rowID: Int64, from byRowID: inout RowRegistry) -> Bool {
        guard !state.hasChanges else { return false }
        byRowID[rowID] = nil
        state.faultRelationships()
        state.model = nil
        return true
    }

    /// Runs `body` on one entity's registered states, taken out of `registered` for the run:
    /// a batch of rows then costs one lookup by key each, not a hash of the entity's name too.
    func withRegistry<Result>(
        of entity: String, _ body: (inout RowRegistry) throws -> Result
    ) rethrows -> Result {
        var byRowID = registered.removeValue(forKey: entity) ?? RowRegistry()
        defer { registered[entity] = byRowID }
        return try body(&byRowID)
    }

    static func state(of model: some PersistentModel) -> ModelState {
        guard let state = model.modelState else {
            fatalError("\(type(of: model)) has backing data OpenSwiftData did not create; models must be created by their initializer or fetched")
        }
        return state
    }
}
