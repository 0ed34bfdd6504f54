import Foundation

/// A workspace over a container's stores: it fetches models, tracks the ones you insert,
/// change and delete, and saves those changes in one transaction.
///
/// ```swift
/// let context = ModelContext(container)
/// let film = Film(title: "Up", releaseYear: 2009)
/// context.insert(film)
/// try context.save()
///
/// let recent = try context.fetch(FetchDescriptor<Film>(predicate: #Predicate { $0.releaseYear > 2000 }))
/// ```
///
/// A context holds one object per stored row: fetching the same row twice returns the same
/// object. Objects with no unsaved changes take the stored values each time a fetch reads their
/// row, so a fetch sees what other contexts saved; objects with unsaved changes keep them.
///
/// Contexts are not `Sendable`: use each from one actor or thread, and pass
/// ``PersistentIdentifier``s between them. A context you create does not autosave; the
/// container's ``ModelContainer/mainContext`` does.
public class ModelContext: Equatable {
    /// The container whose stores the context reads and writes.
    public let container: ModelContainer

    /// Whether the context saves by itself shortly after its models change. `true` for the
    /// main context, where saves are scheduled on the main actor; a context you create saves
    /// when you call ``save()``.
    public var autosaveEnabled: Bool

    /// A name recorded with this context's saves.
    public var author: String?

    let isMainContext: Bool
    var registered: [String: RowRegistry] = [:]
    var inserted: [ModelState] = []
    // Every change to a saved model reaches these two; the context is used from one thread at
    // a time and no access to either nests inside another, so they skip the runtime's
    // exclusivity check, a call before and after each access.
    @exclusivity(unchecked) var changed = ChangedModels()
    @exclusivity(unchecked) var savedValues = SavedValues()
    var deleted: [ObjectIdentifier: ModelState] = [:]
    /// Deletes of every stored row a query matches, which the next save runs as one statement
    /// each (see `delete(model:where:includeSubclasses:)`).
    var batchDeletes: [Query] = []
    private var autosaveScheduled = false

    /// Creates an independent context over the container's stores.
    public init(_ container: ModelContainer) {
        self.container = container
        autosaveEnabled = false
        isMainContext = false
    }

    init(_ container: ModelContainer, isMainContext: Bool) {
        self.container = container
        autosaveEnabled = isMainContext
        self.isMainContext = isMainContext
    }

    deinit {
        // Each state holds its model while registered. Let go of them in the order they were
        // registered, which is about the order they sit in memory (see `RowRegistry`).
        var states: [ModelState] = []
        states.reserveCapacity(registered.values.reduce(inserted.count) { $0 + $1.count })
        for entity in registered.values.indices { registered.values[entity].moveStates(to: &states) }
        states.append(contentsOf: inserted)
        registered = [:]
        inserted = []
        for state in states {
            state.faultRelationships()
            state.model = nil
        }
    }

    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool {
        lhs === rhs
    }

    // MARK: Pending changes

    /// Whether the context has inserts, changes or deletes it has not saved.
    public var hasChanges: Bool {
        !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty || !batchDeletes.isEmpty
    }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted.compactMap(\.model) }
    /// The stored models changed since the last save.
    public var changedModelsArray: [any PersistentModel] { changed.states.compactMap(\.model) }
    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { deleted.values.compactMap(\.model) }

    /// Registers a new model with the context; the next save stores it. Inserting a model the
    /// context already holds does nothing.
    public func insert<T>(_ model: T) where T: PersistentModel {
        let state = Self.state(of: model)
        if state.context === self {
            if state.isDeleted { undelete(state) }
            return
        }
        precondition(
            state.context == nil,
            "\(state.layout.entityName) belongs to another ModelContext; fetch it in this context with model(for: \\.persistentModelID) instead of inserting it")
        state.context = self
        state.model = model
        // A model deleted before (or cascaded away without a context) is taken back in whole.
        state.isDeleted = false
        if state.rowID == nil {
            state.isInserted = true
            inserted.append(state)
        } else {
            registered[state.layout.entityName, default: RowRegistry()][state.rowID!] = state
        }
        scheduleAutosave()
    }

    /// Marks a model deleted; the next save removes it from its store. Deleting a model that
    /// was inserted and never saved just forgets it.
    public func delete<T>(_ model: T) where T: PersistentModel {
        let state = Self.state(of: model)
        guard state.context === self, !state.isDeleted else { return }
        if state.isInserted {
            inserted.removeAll { $0 === state }
            state.isInserted = false
            state.isDeleted = true
            state.context = nil
            state.model = nil
            return
        }
        state.isDeleted = true
        deleted[ObjectIdentifier(state)] = state
        changed.remove(state)
        scheduleAutosave()
    }

    /// Called by a model's backing data when one of its values changes.
    func modelDidChange(_ state: ModelState) {
        if !state.isInserted, !state.isDeleted {
            changed.insert(state)
        }
        scheduleAutosave()
    }

    /// Discards unsaved changes: inserted models are forgotten, changed models take back their
    /// saved values, and deleted models are kept.
    public func rollback() {
        for state in inserted {
            state.isInserted = false
            state.context = nil
            state.model = nil
        }
        inserted.removeAll()
        savedValues.restoreAll()
        for state in changed.states { state.discardChanges() }
        changed.removeAll()
        for state in deleted.values { state.discardChanges() }
        deleted.removeAll()
        batchDeletes.removeAll()
    }

    /// Applies pending changes to the object graph: inserts the new models that inserted or
    /// changed models refer to, and applies the delete rules of deleted models. Saving does this
    /// first by itself.
    public func processPendingChanges() {
        try? applyPendingChanges(checkingDenyRules: false)
    }

    /// Runs `block`, then saves. If `block` throws, nothing is saved and the changes it made
    /// stay pending.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    private func undelete(_ state: ModelState) {
        state.isDeleted = false
        deleted[ObjectIdentifier(state)] = nil
        if !state.changedProperties.isEmpty { changed.insert(state) }
    }

    // MARK: Saving

    /// Posted before a context saves; the notification's object is the context.
    public static let willSave = Notification.Name("ModelContextWillSave")
    /// Posted after a context saved; `userInfo` holds the identifiers of the inserted, updated
    /// and deleted models under ``NotificationKey`` raw values.
    public static let didSave = Notification.Name("ModelContextDidSave")

    /// The keys of a save notification's `userInfo`.
    public enum NotificationKey: String {
        case queryGeneration
        case invalidatedAllIdentifiers
        case insertedIdentifiers
        case updatedIdentifiers
        case deletedIdentifiers
    }

    /// Writes every pending insert, change and delete to the stores, one transaction per
    /// store. If a store's write fails, nothing is written to it and its changes stay pending;
    /// with one store (the usual case) that is the whole save. Stores written before the failure
    /// keep what they committed, and those changes are no longer pending.
    ///
    /// Inserting a model whose unique attributes match a stored model's updates the stored
    /// row, and the inserted object takes its identifier. A save with no changes does nothing.
    public func save() throws {
        guard hasChanges else { return }
        try loadModelsOfBatchDeletes()
        try applyPendingChanges(checkingDenyRules: true)
        try validatePendingChanges()
        NotificationCenter.default.post(name: Self.willSave, object: self)

        let changesByStore = try pendingChangesByStore()

        var insertedIDs: [PersistentIdentifier] = []
        var updatedIDs: [PersistentIdentifier] = []
        var deletedIDs: [PersistentIdentifier] = []
        for (store, changes) in changesByStore {
            let saved = try store.save(changes)
            // Committed: done with, even if another store's write fails after this one.
            insertedIDs += finishInserts(changes.inserted, rowIDs: saved.insertedRowIDs, in: store)
            inserted.removeAll { !$0.isInserted }
            for state in changes.deleted {
                deletedIDs.append(state.modelID)
                registered[state.layout.entityName]?[state.rowID ?? -1] = nil
                forget(deleted: state)
            }
            batchDeletes.removeAll { $0.store === store }
            deletedIDs += forgetRows(deletedInBatches: saved.deletedRowIDs)
            for state in changes.updated where !state.isDeleted {
                state.markSaved()
                updatedIDs.append(state.modelID)
            }
            // Each changed model's save is done with. When this store had them all (one store,
            // the usual case), they go at once rather than by a hash lookup each.
            if changes.updated.count == changed.count {
                changed.removeAll()
            } else {
                for state in changes.updated { changed.remove(state) }
            }
            if changed.isEmpty, deleted.isEmpty { savedValues.removeAll() } else { savedValues.forgetSaved() }
        }

        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: [
            NotificationKey.insertedIdentifiers.rawValue: insertedIDs,
            NotificationKey.updatedIdentifiers.rawValue: updatedIDs,
            NotificationKey.deletedIdentifiers.rawValue: deletedIDs,
        ])
    }

    /// The pending changes, inserts, deletes and batch deletes, grouped by the store each
    /// model's entity is in.
    private func pendingChangesByStore() throws -> [(store: SQLiteStore, changes: SQLiteStore.Changes)] {
        // A container has a store or two: finding one's group by comparing references costs
        // less than hashing for each of a million models, and models come in runs of one
        // entity, whose store the last one found answers.
        var groups: [(store: SQLiteStore, changes: SQLiteStore.Changes)] = []
        var last: (layout: ModelLayout, group: Int)?
        func group(of store: SQLiteStore) -> Int {
            if let index = groups.firstIndex(where: { $0.store === store }) { return index }
            groups.append((store, SQLiteStore.Changes()))
            return groups.count - 1
        }
        func group(of state: ModelState) throws -> Int {
            if let last, last.layout === state.layout { return last.group }
            let index = group(of: try store(for: state.layout))
            last = (state.layout, index)
            return index
        }
        for state in inserted { groups[try group(of: state)].changes.inserted.append(state) }
        for state in changed.states { groups[try group(of: state)].changes.updated.append(state) }
        for state in deleted.values { groups[try group(of: state)].changes.deleted.append(state) }
        for batch in batchDeletes {
            groups[group(of: batch.store)].changes.batchDeletes.append((batch.table, batch.condition, storeDeleteKind(of: batch)))
        }
        return groups
    }

    /// Lets go of a model whose row a save deleted.
    private func forget(deleted state: ModelState) {
        state.isDeleted = true
        state.faultRelationships()
        state.context = nil
        state.model = nil
        state.markSaved()
        deleted[ObjectIdentifier(state)] = nil
        changed.remove(state)
    }

    /// Lets go of the models this context holds for rows batch deletes removed (ones loaded
    /// after `delete(model:where:)` was called); returns their identifiers.
    private func forgetRows(deletedInBatches rowIDsByEntity: [String: [Int64]]) -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        for (entity, rowIDs) in rowIDsByEntity {
            withRegistry(of: entity) { byRowID in
                for rowID in rowIDs {
                    guard let state = byRowID.removeValue(forKey: rowID) else { continue }
                    identifiers.append(state.modelID)
                    forget(deleted: state)
                }
            }
        }
        return identifiers
    }

    /// Gives each saved insert of one store its row and registers it; returns the new identifiers.
    private func finishInserts(_ states: [ModelState], rowIDs: [Int64], in store: SQLiteStore) -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(states.count)
        var start = states.startIndex
        while start < states.endIndex {
            // Inserts come mostly in runs of one entity: each run's registry is taken out once,
            // and grown once to hold the whole run.
            let layout = states[start].layout
            let end = states[start...].firstIndex { $0.layout !== layout } ?? states.endIndex
            withRegistry(of: layout.entityName) { byRowID in
                byRowID.reserveCapacity(byRowID.count + (end - start))
                for index in start..<end {
                    let state = states[index], rowID = rowIDs[index]
                    state.rowID = rowID
                    state.storeIdentifier = store.identifier
                    state.markSaved()
                    if let previous = byRowID.updateValue(state, forKey: rowID), previous !== state {
                        // A unique constraint made the insert update a stored row this context
                        // held: the inserted object now stands for that row.
                        previous.context = nil
                        previous.model = nil
                    }
                    if let temporaryKey = state.temporaryKey {
                        container.recordSaved(temporaryKey: temporaryKey, as: state.modelID)
                    }
                    identifiers.append(state.modelID)
                }
            }
            start = end
        }
        return identifiers
    }

    func scheduleAutosave() {
        guard autosaveEnabled, isMainContext, !autosaveScheduled else { return }
        autosaveScheduled = true
        let context = UncheckedSendable(self)
        Task { @MainActor in
            context.value.autosaveScheduled = false
            try? context.value.save()
        }
    }

    // MARK: Fetching

    /// The models matching the descriptor, in its order.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        let results = try fetchModels(descriptor)
        if !descriptor.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(descriptor.relationshipKeyPathsForPrefetching, of: results)
        }
        return results
    }

    private func fetchModels<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        let query = try Query(descriptor, in: self)
        if descriptor.includePendingChanges, hasPendingChanges(affecting: query) {
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
    public func fetch<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T>
    where T: PersistentModel {
        let query = try Query(descriptor, in: self)
        if unsavedChangesMatter(to: query, descriptor) {
            let pending = entitiesWithPendingChanges(readBy: query)
            throw SwiftDataError.includePendingChangesWithBatchSize.explaining(
                "the context has unsaved changes to \(pending.joined(separator: ", ")), which a batched fetch of \(query.table.entity.name) cannot include; save first, or set includePendingChanges to false")
        }
        let rowIDs = try query.store.fetchRowIDs(
            query.table, where: query.condition, orderBy: query.orderBy,
            limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return FetchResultsCollection(rowIDs: rowIDs, batchSize: max(batchSize, 1)) { [unowned self] batch in
            try self.models(T.self, rowIDs: batch, query)
        }
    }

    /// The number of models matching the descriptor.
    public func fetchCount<T>(_ descriptor: FetchDescriptor<T>) throws -> Int where T: PersistentModel {
        let query = try Query(descriptor, in: self)
        if unsavedChangesMatter(to: query, descriptor) {
            return try fetchModels(descriptor).count
        }
        let count = try query.store.count(query.table, where: query.condition)
        let skipped = min(descriptor.fetchOffset ?? 0, count)
        return min(count - skipped, descriptor.fetchLimit ?? Int.max)
    }

    /// The identifiers of the models matching the descriptor, without loading the models.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        let query = try Query(descriptor, in: self)
        if unsavedChangesMatter(to: query, descriptor) {
            return try fetchModels(descriptor).map(\.persistentModelID)
        }
        let rowIDs = try query.store.fetchRowIDs(
            query.table, where: query.condition, orderBy: query.orderBy,
            limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return rowIDs.map {
            PersistentIdentifier(storeIdentifier: query.store.identifier, entityName: query.table.entity.name, key: .row($0))
        }
    }

    /// The identifiers of the models matching the descriptor, `batchSize` at a time.
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
    /// Unless `allowEscapingMutations` is `true`, the block must leave no unsaved changes at the
    /// end of a batch (save inside it), or the enumeration stops with an error.
    public func enumerate<T>(
        _ fetch: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (_ model: T) throws -> Void
    ) throws where T: PersistentModel {
        let query = try Query(fetch, in: self)
        let rowIDs = try query.store.fetchRowIDs(
            query.table, where: query.condition, orderBy: query.orderBy,
            limit: fetch.fetchLimit, offset: fetch.fetchOffset)
        let batchSize = max(batchSize, 1)
        var start = 0
        while start < rowIDs.count {
            let batch = Array(rowIDs[start..<min(start + batchSize, rowIDs.count)])
            start += batch.count
            // Objects the caller held before are left alone; only the batch's new ones go.
            let loaded = batch.filter { registered[query.table.entity.name]?[$0] == nil }
            for model in try models(T.self, rowIDs: batch, query) {
                try block(model)
            }
            if !allowEscapingMutations, hasChanges {
                throw SwiftDataError.modelValidationFailure.explaining(
                    "enumerate(_:batchSize:) left unsaved changes after a batch of \(query.table.entity.name); save inside the block, or pass allowEscapingMutations: true")
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
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        let id = container.permanentIdentifier(for: persistentModelID) ?? persistentModelID
        if let model = registeredState(for: id)?.model { return model }
        if case let (store, table)? = container.table(forEntity: id.entityName) {
            let query = Query(store: store, table: table, condition: nil, orderBy: nil)
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

    private static func openModel<M: PersistentModel>(_ type: M.Type, rowID: Int64, query: Query, context: ModelContext) -> M {
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
    public func registeredModel<T>(for persistentModelID: PersistentIdentifier) -> T? where T: PersistentModel {
        registeredState(for: container.permanentIdentifier(for: persistentModelID) ?? persistentModelID)?.model as? T
    }

    private func registeredState(for id: PersistentIdentifier) -> ModelState? {
        if let rowID = id.rowID {
            // Row keys are per store: another store's identifier names a different model.
            guard let state = registered[id.entityName]?[rowID], state.storeIdentifier == id.storeIdentifier else { return nil }
            return state
        }
        guard let key = id.temporaryKey else { return nil }
        return inserted.first { $0.temporaryKey == key }
    }

    // MARK: Helpers

    /// The entity table and store a fetch reads, and the fetch's SQL clauses.
    struct Query {
        let store: SQLiteStore
        let table: TableLayout
        let condition: SQLFragment?
        let orderBy: String?
        /// The other entities the condition and the order read through relationships.
        let relatedEntities: Set<String>

        init(store: SQLiteStore, table: TableLayout, condition: SQLFragment?, orderBy: String?) {
            self.store = store
            self.table = table
            self.condition = condition
            self.orderBy = orderBy
            relatedEntities = []
        }

        init<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in context: ModelContext) throws {
            let layout = ModelLayout.of(T.self)
            let store = try context.store(for: layout)
            let table = store.tables[layout.entityName]!
            self.store = store
            self.table = table
            let columns = StoreTableColumns(table, in: store)
            let predicate = try descriptor.predicate.map { try PredicateTranslator.translation(of: $0, columns: columns) }
            let sort = try SortTranslator.translation(of: descriptor.sortBy, columns: columns)
            // Rows a pending `delete(model:where:)` removes at the next save are gone already
            // for a fetch that sees unsaved changes, as models deleted one by one are.
            let pendingDeletes = descriptor.includePendingChanges
                ? context.batchDeletes.filter { $0.table.entity.name == table.entity.name } : []
            condition = SQLFragment.allOf([predicate?.condition] + pendingDeletes.map { SQLFragment.excluding($0.condition) })
            orderBy = descriptor.sortBy.isEmpty ? nil : sort.orderBy
            relatedEntities = (predicate?.relatedEntities ?? []).union(sort.relatedEntities)
        }
    }

    func store(for layout: ModelLayout) throws -> SQLiteStore {
        guard case let (store, table)? = container.table(forEntity: layout.entityName),
              table.layout.modelType == layout.modelType
        else {
            throw SwiftDataError.unknownSchema.explaining(
                "\(String(reflecting: layout.modelType)) is not one of this container's models; create the container with it (or with the VersionedSchema it belongs to)")
        }
        return store
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
    private func unsavedChangesMatter<T>(to query: Query, _ descriptor: FetchDescriptor<T>) -> Bool {
        descriptor.includePendingChanges && !entitiesWithPendingChanges(readBy: query).isEmpty
    }

    /// Whether unsaved changes can change what a query reading other entities' tables through
    /// relationships selects or how it orders: an inserted, changed or deleted model of the
    /// fetched entity or of one of those. (A changed shelf name moves stored, unchanged books
    /// in and out of `$0.shelf?.name == "Fiction"`.)
    private func hasPendingChanges(affecting query: Query) -> Bool {
        !query.relatedEntities.isEmpty && !entitiesWithPendingChanges(readBy: query).isEmpty
    }

    /// The entities a query reads (the fetched one and those its relationships reach) that have
    /// inserted, changed or deleted models, by name.
    private func entitiesWithPendingChanges(readBy query: Query) -> [String] {
        let read = query.relatedEntities.union([query.table.entity.name])
        let pending = (inserted + changed.states + deleted.values).map(\.layout.entityName)
        return read.intersection(pending).sorted()
    }

    /// A fetch answered in memory: every stored model of the entity and every inserted one,
    /// filtered with `predicate.evaluate` and sorted with `sorted(using:)` over the objects as
    /// the context holds them, unsaved changes included.
    private func fetchInMemory<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ query: Query) throws -> [T] {
        let everything = Query(store: query.store, table: query.table, condition: nil, orderBy: nil)
        let stored: [T] = try materializeRows(everything)
            .filter { !Self.state(of: $0).isDeleted }
        let unsaved = inserted.filter { $0.layout.entityName == query.table.entity.name }.compactMap { $0.model as? T }
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

    /// The models of the given rows, in the given order; keys with no row are skipped.
    func models<T: PersistentModel>(_ type: T.Type, rowIDs: [Int64], _ query: Query) throws -> [T] {
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
        _ type: T.Type, rowIDsIn range: ClosedRange<Int64>, _ query: Query, reusing spares: inout SpareModels
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
    private func materializeRows<T: PersistentModel>(_ query: Query, limit: Int? = nil, offset: Int? = nil) throws -> [T] {
        try materializeRows(query) {
            try query.store.forEachRow(query.table, where: query.condition, orderBy: query.orderBy, limit: limit, offset: offset, $0)
        }
    }

    /// ``models(of:reusing:_:)`` as `T`, the table's model class.
    func materializeRows<T: PersistentModel>(
        _ query: Query, reusing spares: inout SpareModels,
        _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [T] {
        let models = try models(of: query, reusing: &spares, readRows)
        // Every model was created as the class of the table's layout, so one check covers all.
        guard ObjectIdentifier(query.table.layout.modelType) == ObjectIdentifier(T.self) else { Self.wrongClass(T.self, query) }
        return Array(unsafeUninitializedCapacity: models.count) { buffer, initialized in
            for (index, model) in models.enumerated() {
                (buffer.baseAddress! + index).initialize(to: unsafeDowncast(model, to: T.self))
            }
            initialized = models.count
        }
    }

    /// ``models(of:reusing:_:)`` as `T`, with no spare models.
    func materializeRows<T: PersistentModel>(
        _ query: Query, _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [T] {
        var noSpares = SpareModels()
        return try materializeRows(query, reusing: &noSpares, readRows)
    }

    /// The context's objects for the rows of the query's table that `readRows` reads, in the
    /// order it calls back with them. A row with no registered model gets one of `spares`
    /// while there are any, a new model otherwise.
    func models(
        of query: Query, reusing spares: inout SpareModels,
        _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [any PersistentModel] {
        // Gathered with a concrete element type: appending to an `[T]` here would look up the
        // generic array type's metadata for every row.
        var models: [any PersistentModel] = []
        try withRegistry(of: query.table.entity.name) { byRowID in
            try readRows { models.append(materialize($0, $1, query, registeredIn: &byRowID, reusing: &spares)) }
        }
        return models
    }

    /// ``models(of:reusing:_:)`` with no spare models.
    func models(
        of query: Query, _ readRows: ((Int64, ModelValues) throws -> Void) throws -> Void
    ) throws -> [any PersistentModel] {
        var noSpares = SpareModels()
        return try models(of: query, reusing: &noSpares, readRows)
    }

    /// The context's object for a fetched row: the registered one, refreshed, or a new one.
    func materialize<T: PersistentModel>(_ rowID: Int64, _ values: ModelValues, _ query: Query, as type: T.Type = T.self) -> T {
        var noSpares = SpareModels()
        let model = materialize(
            rowID, values, query, registeredIn: &registered[query.table.entity.name, default: RowRegistry()], reusing: &noSpares)
        guard let typed = model as? T else { Self.wrongClass(T.self, query) }
        return typed
    }

    private static func wrongClass(_ type: Any.Type, _ query: Query) -> Never {
        fatalError("\(type) is not the model class of entity \(query.table.entity.name) in this container (\(query.table.layout.modelType))")
    }

    private func materialize(
        _ rowID: Int64, _ values: ModelValues, _ query: Query, registeredIn byRowID: inout RowRegistry,
        reusing spares: inout SpareModels
    ) -> any PersistentModel {
        let layout = query.table.layout
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
            loaded.storeIdentifier = query.store.identifier
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
        withRegistry(of: Self.state(of: first).layout.entityName) { byRowID in
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
    private func withRegistry<Result>(
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
