import Foundation
import SwiftData

// Other nodes' states, merged into the records and written into the app's models.
extension SyncReplica {
    /// Merges `incoming` into what this node knows and writes the outcome into the app's
    /// models, in one save of the app's store (authored as the sync's). Returns each model's
    /// merged state. The caller saves the ledger.
    @discardableResult
    func merge(_ incoming: [SyncModel]) throws -> [SyncModel] {
        guard !incoming.isEmpty else { return [] }
        var records = try ledger.records(globalIDs: Array(Set(incoming.map(\.id))))
        var merged: [String: SyncedModelState<String>] = [:]
        var changed: [String] = []
        for model in incoming {
            guard let entity = entities[model.state.entity] else { throw SyncError.unknownEntity(model.state.entity, model: model.id) }
            for register in model.state.properties.values { try receive(register.timestamp) }
            for links in model.state.links.values { for link in links.values { try receive(link.timestamp) } }
            if let deletion = model.state.deletion { try receive(deletion) }
            let record: SyncRecord
            if let existing = records[model.id] {
                record = existing
            } else {
                record = SyncRecord(globalID: model.id, entity: entity.name, localID: nil, state: try ledger.encoded(SyncedModelState(entity: entity.name)))
                ledger.context.insert(record)
                records[model.id] = record
            }
            let known = try merged[model.id] ?? ledger.state(of: record)
            let state = known.merging(model.state)
            if merged[model.id] == nil { changed.append(model.id) }
            merged[model.id] = state
            if state != known { record.state = try ledger.encoded(state) }
        }
        try write(changed.map { SyncModel(id: $0, state: merged[$0]!) }, records: records)
        return changed.map { SyncModel(id: $0, state: merged[$0]!) }
    }

    /// Writes merged states into the app's models: new models first, so that links between
    /// them resolve, then every value and link, then deletions. A delete rule is applied once,
    /// where the deletion was made: the models it took arrive as deletions of their own.
    private func write(_ states: [SyncModel], records: [String: SyncRecord]) throws {
        let context = ModelContext(container)
        context.autosaveEnabled = false
        context.author = Self.author
        var resolved: [String: any PersistentModel] = [:]
        var globalIDs: [ObjectIdentifier: String] = [:]
        var created: [String: any PersistentModel] = [:]
        var knownRecords = records

        func recordOf(_ globalID: String) throws -> SyncRecord? {
            if let record = knownRecords[globalID] { return record }
            let record = try ledger.records(globalIDs: [globalID])[globalID]
            knownRecords[globalID] = record
            return record
        }
        func model(_ globalID: String) throws -> (any PersistentModel)? {
            if let model = resolved[globalID] { return model }
            guard let record = try recordOf(globalID), let localID = record.localID,
                  let entity = entities[record.entity] else { return nil }
            let model = try existingModel(try identifier(from: localID), of: entity, in: context)
            resolved[globalID] = model
            if let model { globalIDs[ObjectIdentifier(model)] = globalID }
            return model
        }

        // A record with a local identifier whose model is gone was deleted here: that deletion
        // is the next capture's, and the model is not made again.
        for state in states where !state.state.isDeleted && knownRecords[state.id]?.localID == nil {
            guard let entity = entities[state.state.entity] else { continue }
            let new = Self.makeModel(of: entity.modelType)
            for property in entity.inverseMemberships {
                _ = (property.keyPath as? any SyncInitialMembersKeyPath)?.setInitialMembers([], on: new)
            }
            Self.insert(new, into: context)
            resolved[state.id] = new
            globalIDs[ObjectIdentifier(new)] = state.id
            created[state.id] = new
        }
        let globalID: (any PersistentModel) throws -> String = { related in
            if let id = globalIDs[ObjectIdentifier(related)] { return id }
            guard let record = try self.ledger.record(localID: try self.localID(of: related.persistentModelID)) else {
                throw SyncError.unknownModel(entity: related.persistentModelID.entityName)
            }
            return record.globalID
        }
        for state in states where !state.state.isDeleted {
            guard let entity = entities[state.state.entity], let target = try model(state.id) else { continue }
            let isNew = created[state.id] != nil
            for property in entity.registers {
                guard let text = state.state.value(of: property.name) else { continue }
                let current = isNew ? nil : try entity.registerText(of: property, in: target, coder: coder, globalID: globalID)
                try entity.write(property, text: text, to: target, modelID: state.id, coder: coder, currentText: current) { try model($0) }
            }
            for property in entity.memberships {
                var members: [String: any PersistentModel] = [:]
                for member in state.state.members(of: property.name) { members[member] = try model(member) }
                try entity.writeMembers(property, members, to: target, isNew: isNew, globalID: globalID)
            }
        }
        for state in states where state.state.isDeleted {
            guard let entity = entities[state.state.entity], let target = try model(state.id), !target.isDeleted else { continue }
            entity.unlinkBeforeRemoteDeletion(target)
            Self.delete(target, from: context)
        }
        try context.save()
        for (id, model) in created {
            knownRecords[id]?.localID = try localID(of: model.persistentModelID)
        }
    }

    private static func makeModel(of type: any PersistentModel.Type) -> any PersistentModel {
        func make<T: PersistentModel>(_ type: T.Type) -> any PersistentModel { T(backingData: T.createBackingData()) }
        return make(type)
    }

    private static func insert(_ model: any PersistentModel, into context: ModelContext) {
        func insert<T: PersistentModel>(_ model: T) { context.insert(model) }
        insert(model)
    }

    private static func delete(_ model: any PersistentModel, from context: ModelContext) {
        func delete<T: PersistentModel>(_ model: T) { context.delete(model) }
        delete(model)
    }
}
