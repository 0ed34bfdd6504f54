/// What one store writes of a save, inside the transaction its `save` opened: its database's
/// statements and bulk paths. The order of a save is ``StoreChanges/write(with:tables:recordingHistory:)``'s,
/// the same for every store.
package protocol SaveWriting {
    /// Deletes the rows `batch` selects (applying delete rules where its kind says so); returns
    /// the keys of the deleted rows by entity, when the store knows them.
    mutating func deleteRows(_ batch: BatchDelete) throws -> [(entity: String, rows: [Int64])]
    /// Deletes the rows of models deleted one by one, given in table and key order.
    mutating func delete(_ states: [ModelState]) throws
    /// Writes the changed columns of updated models, given in table and key order.
    mutating func update(_ states: [ModelState]) throws
    /// Inserts the models' rows (an insert meeting a stored row's unique values merges into
    /// it); returns each model's row key, in order.
    mutating func insert(_ states: [ModelState]) throws -> [Int64]
    /// The inserted models that merged into a stored row, by model state.
    var upserts: [ObjectIdentifier: UpsertMerge] { get }
    /// Replaces the stored links of the relationships merged models were given.
    mutating func clearLinks(ofUpserted states: [ModelState]) throws
    /// Writes relationship keys and join rows, once every new row has its key: all of an
    /// inserted model's, the changed ones of an updated model.
    mutating func writeRelationships(inserted: [ModelState], updated: [ModelState]) throws
    /// Records `changes` as one history transaction; returns its number.
    mutating func recordHistory(_ changes: [StoreHistory.Change], author: String?) throws -> Int64?
}

extension StoreChanges {
    /// Writes the changes through `writer`, in the order every store saves in: batch deletes,
    /// deletes, updates, then inserts (an insert that merges into a changed stored row has the
    /// last word, since the inserted object is the one that stands for it), the links of merged
    /// models, relationships once every new row has its key, and the history last.
    ///
    /// Deletes and updates go table by table in key order: the context hands them over in hash
    /// order, and a million of them in that order would jump around a table and its indices.
    package func write(with writer: inout some SaveWriting, tables: [String: TableLayout], recordingHistory: Bool) throws -> SavedChanges {
        var saved = SavedChanges()
        var history: [StoreHistory.Change] = []
        for batch in batchDeletes {
            for (entity, rows) in try writer.deleteRows(batch) {
                if case .oneStatement(reportingKeys: true) = batch.kind { saved.deletedRowIDs[entity, default: []] += rows }
                history += StoreHistory.changes(ofBatchDelete: rows, entity: entity, in: self)
            }
        }
        try writer.delete(deleted.sorted(by: Self.tableAndKeyOrder))
        try writer.update(updated.sorted(by: Self.tableAndKeyOrder))
        saved.insertedRowIDs = try writer.insert(inserted)
        if !writer.upserts.isEmpty {
            var merged: [ModelState] = []
            for (position, state) in inserted.enumerated() {
                guard let merge = writer.upserts[ObjectIdentifier(state)] else { continue }
                saved.upserts[position] = merge.updatedProperties
                merged.append(state)
            }
            try writer.clearLinks(ofUpserted: merged)
        }
        try writer.writeRelationships(inserted: inserted, updated: updated)
        if recordingHistory, StoreHistory.isRecording.load(ordering: .relaxed) {
            history += try StoreHistory.changes(of: self, insertedRowIDs: saved.insertedRowIDs, upserts: saved.upserts, tables: tables)
            if !history.isEmpty { saved.historyTransaction = try writer.recordHistory(history, author: author) }
        }
        return saved
    }

    private static func tableAndKeyOrder(_ first: ModelState, _ second: ModelState) -> Bool {
        (ObjectIdentifier(first.layout), first.rowID ?? 0) < (ObjectIdentifier(second.layout), second.rowID ?? 0)
    }
}
