import Foundation

extension ModelContext {
    /// Marks deleted every model of a type that matches the predicate — every one of them
    /// when the predicate is `nil`. The next save removes them.
    ///
    /// When no relationship involves the entity and it has no unsaved changes, the models are
    /// not loaded: the next save removes the matching rows with one `DELETE`, and until then
    /// fetches that include pending changes leave them out. Models of those rows this context
    /// already holds are marked deleted at once, as ``delete(_:)`` marks them; ones it loads
    /// before the save are let go at the save. The predicate is evaluated by that `DELETE`, so
    /// it also removes matching rows other contexts saved in between, and `didSave` lists only
    /// the deleted rows this context held models for. Otherwise each matching model is fetched
    /// and deleted, so delete rules run as they do for ``delete(_:)``.
    public func delete<T>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws
    where T: PersistentModel {
        let descriptor = FetchDescriptor<T>(predicate: predicate)
        let query = try Query(descriptor, in: self)
        guard canDeleteInOneStatement(query) else {
            for model in try fetch(descriptor) {
                delete(model)
            }
            return
        }
        if let held = registered[query.table.entity.name], !held.isEmpty {
            let matching = try query.store.fetchRowIDs(query.table, where: query.condition, orderBy: nil, limit: nil, offset: nil)
            for rowID in matching {
                if let model = held[rowID]?.model { delete(model) }
            }
        }
        batchDeletes.append(query)
        scheduleAutosave()
    }

    /// Whether the rows a query matches can be deleted with one statement at the next save: no
    /// relationship of any entity involves its entity (so no delete rule, inverse or key column
    /// needs its models), and none of its models has unsaved changes that could change what the
    /// query matches.
    private func canDeleteInOneStatement(_ query: Query) -> Bool {
        let entity = query.table.entity.name
        let involved = !query.table.entity.relationshipsInOrder.isEmpty || !query.relatedEntities.isEmpty
            || container.schema.entities.contains { other in
                other.relationshipsInOrder.contains { $0.destination == entity }
            }
        let hasUnsavedChanges = (inserted + changed.values + deleted.values).contains { $0.layout.entityName == entity }
        return !involved && !hasUnsavedChanges
    }
}
