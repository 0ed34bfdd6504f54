import Foundation

// The stores' persistent history, read through the context.
extension ModelContext {
    /// The history transactions the descriptor selects, from every store of the container,
    /// oldest first unless it sorts them otherwise.
    ///
    /// - Parameter descriptor: Which transactions (a predicate on their token, author,
    ///   timestamp, identifiers), in what order, how many.
    /// - Returns: The transactions with their changes.
    /// - Throws: ``SwiftDataError/invalidTransactionFetchRequest`` when the predicate or a sort
    ///   names something the history cannot answer, or the transaction type is not
    ///   ``DefaultHistoryTransaction``.
    public func fetchHistory<T>(_ descriptor: HistoryDescriptor<T>) throws -> [T] where T: HistoryTransaction {
        guard let predicateDescriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> else {
            throw SwiftDataError.invalidTransactionFetchRequest.explaining(
                "\(T.self) is not a history this container keeps; fetch HistoryDescriptor<DefaultHistoryTransaction>")
        }
        var transactions: [DefaultHistoryTransaction] = []
        let limit = descriptor.fetchLimit == 0 ? nil : Int(clamping: descriptor.fetchLimit)
        for store in container.stores {
            let columns = HistoryColumns(storeIdentifier: store.identifier)
            let (condition, orderBy) = try Self.sql(of: predicateDescriptor, columns: columns, sorted: true)
            // A token from before the transactions deleteHistory removed would miss them.
            let read = try store.readHistory(where: condition, orderBy: orderBy, limit: limit) { pruned in
                if pruned > 0, let oldest = columns.tokensCompared.numbers.min(), oldest < pruned {
                    throw SwiftDataError.historyTokenExpired.explaining(
                        "the history of the store \(store.identifier) no longer holds transactions up to \(pruned) (deleteHistory removed them), and the token compared with stands at \(oldest < 0 ? "its start" : "transaction \(oldest)"); start over from the store's current state, then keep the newest token")
                }
            }
            transactions += read.map { transaction(from: $0, in: store) }
        }
        if container.stores.count > 1 {
            transactions.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
            if !predicateDescriptor.sortBy.isEmpty { transactions.sort(using: predicateDescriptor.sortBy) }
            if let limit { transactions = Array(transactions.prefix(limit)) }
        }
        return transactions as! [T]
    }

    /// Deletes the history transactions the descriptor selects, with their changes, from every
    /// store of the container: keep a store's history from growing without bound once every
    /// reader has caught up. A later fetch comparing with a token from before them throws
    /// ``SwiftDataError/historyTokenExpired``.
    ///
    /// - Parameter descriptor: Which transactions (usually `#Predicate { $0.token <= caughtUp }`).
    /// - Throws: ``SwiftDataError/invalidTransactionFetchRequest`` as ``fetchHistory(_:)`` does.
    public func deleteHistory<T>(_ descriptor: HistoryDescriptor<T>) throws where T: HistoryTransaction {
        guard let predicateDescriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> else {
            throw SwiftDataError.invalidTransactionFetchRequest.explaining(
                "\(T.self) is not a history this container keeps; delete with HistoryDescriptor<DefaultHistoryTransaction>")
        }
        for store in container.stores where !store.isReadOnly {
            let (condition, _) = try Self.sql(of: predicateDescriptor, columns: HistoryColumns(storeIdentifier: store.identifier), sorted: false)
            try store.deleteHistory(where: condition)
        }
    }

    /// The descriptor's predicate, and with `sorted` its sort, in SQL over one store's history;
    /// what SQL cannot answer is an invalid request.
    private static func sql(
        of descriptor: HistoryDescriptor<DefaultHistoryTransaction>, columns: HistoryColumns, sorted: Bool
    ) throws -> (condition: SQLFragment?, orderBy: SQLFragment?) {
        do {
            let condition = try descriptor.predicate.map { try PredicateTranslator.translation(of: $0, columns: columns).condition }
            let orderBy = !sorted || descriptor.sortBy.isEmpty ? nil : try SortTranslator.translation(of: descriptor.sortBy, columns: columns).orderBy
            return (condition, orderBy)
        } catch let error as SwiftDataError {
            throw SwiftDataError.invalidTransactionFetchRequest.explaining(
                "the history cannot answer the descriptor: \(error.explanation ?? "\(error)")")
        }
    }

    /// A recorded transaction as the public type, its changes typed with their models' classes.
    private func transaction(from recorded: StoreHistory.Transaction, in store: any ModelStore) -> DefaultHistoryTransaction {
        DefaultHistoryTransaction(
            id: recorded.id, timestamp: recorded.timestamp,
            changes: recorded.changes.compactMap { change(from: $0.change, id: $0.id, transaction: recorded.id, in: store) },
            token: DefaultHistoryToken(storeIdentifier: store.identifier, transaction: recorded.id),
            storeIdentifier: store.identifier, bundleIdentifier: recorded.bundle, processIdentifier: recorded.process,
            author: recorded.author)
    }

    /// The change typed with its model's class; `nil` for an entity the container's models no
    /// longer have.
    private func change(from recorded: StoreHistory.Change, id: Int64, transaction: Int64, in store: any ModelStore) -> HistoryChange? {
        guard let layout = container.schema.layouts[recorded.entity] else { return nil }
        let identifier = PersistentIdentifier(storeIdentifier: store.identifier, entityName: recorded.entity, key: .row(recorded.row))
        func make<M: PersistentModel>(_: M.Type) -> HistoryChange {
            switch recorded.kind {
            case .insert:
                return .insert(DefaultHistoryInsert<M>(changeIdentifier: id, transactionIdentifier: transaction, changedPersistentIdentifier: identifier))
            case .update:
                let keyPaths = recorded.updated.compactMap { name -> (any PartialKeyPath<M> & Sendable)? in
                    guard let keyPath = layout.properties.first(where: { $0.name == name })?.keyPath as? PartialKeyPath<M> else { return nil }
                    // A model's key paths capture nothing; the key path is laid out as its class.
                    return unsafeBitCast(keyPath, to: (any PartialKeyPath<M> & Sendable).self)
                }
                return .update(DefaultHistoryUpdate<M>(
                    changeIdentifier: id, transactionIdentifier: transaction, changedPersistentIdentifier: identifier, updatedAttributes: keyPaths))
            case .delete:
                let table = store.tables[recorded.entity]
                let values = recorded.tombstone.compactMap { attribute, stored -> (AnyKeyPath, Any)? in
                    guard let column = table?.columns.first(where: { $0.name == attribute }),
                          let value = try? column.codec.decode(stored)
                    else { return nil }
                    return (layout.properties[column.propertyIndex].keyPath, value)
                }
                return .delete(DefaultHistoryDelete<M>(
                    changeIdentifier: id, transactionIdentifier: transaction, changedPersistentIdentifier: identifier,
                    tombstone: HistoryTombstone(values: values)))
            }
        }
        return make(layout.modelType)
    }
}
