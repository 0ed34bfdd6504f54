extension ModelContext {
    /// The model with the identifier: the one this context holds, or one read from its store;
    /// `nil` when no row has the identifier. Unlike ``model(for:)``, never returns an object
    /// for a row that does not exist.
    package func existingModel<T: PersistentModel>(for id: PersistentIdentifier, as type: T.Type) -> T? {
        let id = container.permanentIdentifier(for: id) ?? id
        guard let storeIdentifier = id.storeIdentifier else {
            // A temporary identifier: only the unsaved model this context inserted has it.
            return registeredModel(for: id)
        }
        // Check the store before the registered objects: a row of another container's store
        // can have the same entity and key as one this context holds.
        guard let rowID = id.rowID,
              case let (store, table)? = container.table(forEntity: id.entityName),
              storeIdentifier == store.identifier,
              table.layout.modelType == T.self
        else { return nil }
        if let model: T = registeredModel(for: id) { return model }
        let query = FetchPlan(store: store, table: table, condition: nil, orderBy: nil)
        return try? models(T.self, rowIDs: [rowID], query).first
    }
}
