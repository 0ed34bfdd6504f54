import Foundation
import SwiftData

// A merge that a process left between its save of the app's store and the ledger's.
extension SyncReplica {
    /// Takes over the models an interrupted merge (``SyncMergeIntent``) made: each goes to the
    /// record it was made for, so that no capture takes one for a new local model. Called
    /// before every capture and merge; saves the ledger when there was one.
    func adoptModelsOfInterruptedMerge() throws {
        guard let interrupted = try interruptedMerge(), !interrupted.tags.isEmpty else { return }
        try adoptModels(madeBy: interrupted)
        let adopted = SyncMergeIntent(tags: [], incoming: interrupted.incoming, made: [])
        try ledger.set(SettingKey.mergeIntent, to: String(decoding: try JSONEncoder().encode(adopted), as: UTF8.self))
        try ledger.save()
    }

    /// Merges again what an interrupted merge was merging, once its models are adopted and the
    /// local changes made since are captured (so that they win over it where they are later).
    /// Called before every merge, which follows a capture; saves the ledger when there was one.
    func finishInterruptedMerge() throws {
        try adoptModelsOfInterruptedMerge()
        guard let interrupted = try interruptedMerge() else { return }
        _ = try mergeNotingIntent(interrupted.incoming)
        try ledger.save()
    }

    private func interruptedMerge() throws -> SyncMergeIntent? {
        try ledger.setting(SettingKey.mergeIntent).map { try JSONDecoder().decode(SyncMergeIntent.self, from: Data($0.utf8)) }
    }

    /// Gives each model the interrupted merge's saves made to the record of the model it was
    /// made for: of the models of one entity, the one whose attributes hold the values sent for
    /// it, else the next in the order they were made (merging again writes every value and
    /// link, so models alike may be given either way). A model left over was made twice, by
    /// two saves of the merge (its replay too): it goes.
    ///
    /// The records of the models those saves deleted let go of their rows first: a store may
    /// give a deleted model's row to the next model saved (the app's, before the sync runs
    /// again), which must never be taken for the deleted one.
    private func adoptModels(madeBy interrupted: SyncMergeIntent) throws {
        let context = ModelContext(container)
        context.author = Self.author
        let (inserted, deleted) = try changes(byAuthors: Set(interrupted.tags.map { "\(Self.author) \($0)" }), in: context)
        for identifier in deleted {
            if let record = try ledger.record(localID: try localID(of: identifier)) { ledger.release(record) }
        }
        guard !inserted.isEmpty else { return }
        var sent: [String: SyncedModelState<String>] = [:]
        for model in interrupted.incoming { sent[model.id] = sent[model.id]?.merging(model.state) ?? model.state }
        var records = try ledger.records(globalIDs: interrupted.made.map(\.id))
        for (entityName, identifiers) in inserted {
            guard let entity = entities[entityName] else { continue }
            let found = try existingModels(identifiers, of: entity, in: context)
            let byID = Dictionary(found.map { ($0.persistentModelID, $0) }, uniquingKeysWith: { first, _ in first })
            let models = identifiers.compactMap { byID[$0] }
            let holders = try ledger.records(localIDs: try models.map { try localID(of: $0.persistentModelID) })
            var unclaimed = interrupted.made.filter { $0.entity == entityName && records[$0.id]?.localID == nil }.map(\.id)
            for model in models {
                let localID = try localID(of: model.persistentModelID)
                guard holders[localID] == nil else { continue }
                guard !unclaimed.isEmpty else {
                    context.delete(model)
                    continue
                }
                let values = try attributeTexts(of: model, entity: entity)
                let index = unclaimed.firstIndex { id in
                    guard let state = sent[id] else { return false }
                    return values.allSatisfy { name, text in state.value(of: name).map { $0 == text } ?? true }
                } ?? 0
                let id = unclaimed.remove(at: index)
                if let record = records[id] {
                    record.localID = localID
                } else {
                    let record = SyncRecord(globalID: id, entity: entityName, localID: localID, state: try ledger.encoded(SyncedModelState(entity: entityName)))
                    ledger.context.insert(record)
                    records[id] = record
                }
            }
        }
        try context.save()
    }

    /// The models inserted by saves with one of `authors`, by entity, in the order saved, and
    /// those they deleted: looked for after the last history the ledger has taken in.
    private func changes(
        byAuthors authors: Set<String>, in context: ModelContext
    ) throws -> (inserted: [String: [PersistentIdentifier]], deleted: [PersistentIdentifier]) {
        var token = try ledger.setting(SettingKey.historyToken).flatMap { text in
            text.isEmpty ? nil : try JSONDecoder().decode(DefaultHistoryToken.self, from: Data(text.utf8))
        }
        var inserted: [String: [PersistentIdentifier]] = [:]
        var deleted: [PersistentIdentifier] = []
        let page = 500
        while true {
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: token.map { token in #Predicate { $0.token > token } },
                sortBy: [SortDescriptor(\.transactionIdentifier)])
            descriptor.fetchLimit = UInt64(page)
            let transactions = try context.fetchHistory(descriptor)
            for transaction in transactions where authors.contains(transaction.author ?? "") {
                for change in transaction.changes {
                    switch change {
                    case .insert(let insert):
                        inserted[insert.changedPersistentIdentifier.entityName, default: []].append(insert.changedPersistentIdentifier)
                    case .delete(let delete):
                        deleted.append(delete.changedPersistentIdentifier)
                    default:
                        break
                    }
                }
            }
            guard transactions.count == page, let last = transactions.last else { return (inserted, deleted) }
            token = last.token
        }
    }

    /// Each attribute's value in `model`, as the sync's JSON text.
    private func attributeTexts(of model: any PersistentModel, entity: SyncedEntity) throws -> [String: String] {
        var texts: [String: String] = [:]
        for property in entity.registers where property.kind == .attribute {
            texts[property.name] = try entity.registerText(of: property, in: model, coder: coder) { _ in "" }
        }
        return texts
    }
}
