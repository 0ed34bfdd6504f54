import Foundation

// Saving: the pending changes of each store written in one transaction, and the context's
// registry brought up to date with what the save wrote.
extension ModelContext {
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
        /// The history token just after the transactions the save recorded (a
        /// ``DefaultHistoryToken`` covering each store it changed): where a reader of the history
        /// stands once it has seen them. Only in ``ModelContext/didSave``, and only when the
        /// save changed a store.
        case historyTokens
    }

    /// Writes every pending insert, change and delete to the stores, one transaction per
    /// store. If a store's write fails, nothing is written to it and its changes stay pending;
    /// with one store (the usual case) that is the whole save. Stores written before the failure
    /// keep what they committed, and those changes are no longer pending.
    ///
    /// Inserting a model whose unique attributes match a stored model's updates the stored
    /// row, and the inserted object takes its identifier. A save with no changes does nothing.
    ///
    /// - Throws: ``SwiftDataError/modelValidationFailure`` when a model breaks the schema's rules
    ///   (a non-optional property or to-one relationship with no value, a relationship holding
    ///   fewer or more models than its bounds allow, a `.deny` relationship that still holds
    ///   models, a NaN), when the store is read-only, when another connection keeps the store
    ///   locked past the busy timeout, or when SQLite refuses the write;
    ///   ``SwiftDataError/unknownSchema`` when a model is not one of the container's models.
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
        var historyTransactions: [String: Int64] = [:]
        for (store, changes) in changesByStore {
            let saved = try store.save(changes)
            if let transaction = saved.historyTransaction {
                historyTransactions[store.identifier] = transaction
            }
            // Committed: done with, even if another store's write fails after this one.
            let upserted = saved.upserts.keys.sorted().map { changes.inserted[$0] }
            let keptProperties = upserted.map { state in state.layout.properties.indices.filter { !state.setsOnUpsert($0) } }
            insertedIDs += finishInserts(changes.inserted, rowIDs: saved.insertedRowIDs, in: store)
            try takeStoredValues(of: upserted, properties: keptProperties, from: store)
            inserted.removeAll { !$0.isInserted }
            for state in changes.deleted {
                deletedIDs.append(state.modelID)
                registered[state.layout.registryName]?[state.rowID ?? -1] = nil
                forget(deleted: state)
            }
            batchDeletes.removeAll { $0.store === store }
            deletedIDs += deletedAsRowKeys.filter { $0.store === store }.flatMap(\.identifiers)
            deletedAsRowKeys.removeAll { $0.store === store }
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

        var userInfo: [String: Any] = [
            NotificationKey.insertedIdentifiers.rawValue: insertedIDs,
            NotificationKey.updatedIdentifiers.rawValue: updatedIDs,
            NotificationKey.deletedIdentifiers.rawValue: deletedIDs,
        ]
        if !historyTransactions.isEmpty {
            userInfo[NotificationKey.historyTokens.rawValue] = DefaultHistoryToken(transactions: historyTransactions)
        }
        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: userInfo)
    }

    /// The pending changes, inserts, deletes and batch deletes, grouped by the store each
    /// model's entity is in.
    private func pendingChangesByStore() throws -> [(store: any ModelStore, changes: StoreChanges)] {
        // A container has a store or two: finding one's group by comparing references costs
        // less than hashing for each of a million models, and models come in runs of one
        // entity, whose store the last one found answers.
        var groups: [(store: any ModelStore, changes: StoreChanges)] = []
        var last: (layout: ModelLayout, group: Int)?
        func group(of store: any ModelStore) -> Int {
            if let index = groups.firstIndex(where: { $0.store === store }) { return index }
            groups.append((store, StoreChanges()))
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
        for index in groups.indices { groups[index].changes.author = author }
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

    /// Gives models that took over stored rows through a unique constraint the values their rows
    /// hold for `properties` (by model), those they did not set: the stored values and links the
    /// upsert kept, so that each model reads its row as merged.
    private func takeStoredValues(of states: [ModelState], properties: [[Int]], from store: any ModelStore) throws {
        // One read per entity. (Of two models inserted with the same unique values, the one
        // that stands for the row is the one still in this context.)
        var byEntity: [String: [Int64: (ModelState, [Int])]] = [:]
        for (state, indices) in zip(states, properties) where !indices.isEmpty && state.context === self {
            guard let rowID = state.rowID else { continue }
            byEntity[state.layout.entityName, default: [:]][rowID] = (state, indices)
        }
        for (entity, byRowID) in byEntity {
            guard let table = store.tables[entity] else { continue }
            // 500 keys a query, as a statement's parameters are limited.
            for rowIDs in byRowID.keys.sorted().chunked(by: 500) {
                try store.forEachRow(table, rowIDs: rowIDs) { rowID, stored in
                    guard let (state, indices) = byRowID[rowID] else { return }
                    if state.values.isEmpty { state.allocateValues() }
                    guard stored.valueSlots === state.values.valueSlots else { return }
                    for index in indices { state.values[index] = stored[index] }
                }
            }
        }
    }

    /// Gives each saved insert of one store its row and registers it; returns the new identifiers.
    private func finishInserts(_ states: [ModelState], rowIDs: [Int64], in store: any ModelStore) -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(states.count)
        var start = states.startIndex
        while start < states.endIndex {
            // Inserts come mostly in runs of one entity: each run's registry is taken out once,
            // and grown once to hold the whole run.
            let layout = states[start].layout
            let end = states[start...].firstIndex { $0.layout !== layout } ?? states.endIndex
            withRegistry(of: layout.registryName) { byRowID in
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

    /// What every change of the context's models leads to: its observers look again, and the
    /// main context saves soon.
    func didChangeModels() {
        if !changeListeners.isEmpty { callChangeListeners() }
        scheduleAutosave()
    }

    func callChangeListeners() {
        for listener in changeListeners.values { listener() }
    }

    private func scheduleAutosave() {
        guard autosaveEnabled, isMainContext, !autosaveScheduled else { return }
        autosaveScheduled = true
        let context = UncheckedSendable(self)
        Task { @MainActor in
            context.value.autosaveScheduled = false
            try? context.value.save()
        }
    }
}
