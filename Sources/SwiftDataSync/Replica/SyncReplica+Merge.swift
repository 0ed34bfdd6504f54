import Foundation
import SwiftData

// Other nodes' states, merged into the records and written into the app's models.
extension SyncReplica {
    /// Merges `incoming` into what this node knows and writes the outcome into the app's
    /// models, in one save of the app's store (authored as the sync's). Returns each model's
    /// merged state. The caller saves the ledger, and captures local changes first (so that
    /// those later than what arrives stay).
    @discardableResult
    func merge(_ incoming: [SyncModel]) throws -> [SyncModel] {
        guard !incoming.isEmpty else { return [] }
        try finishInterruptedMerge()
        return try mergeNotingIntent(incoming)
    }

    /// How many merges a change is followed through to the model that stayed.
    static let mergeChainLimit = 8

    /// Merges `incoming`, its intent noted in the ledger before each save of the app's store
    /// (``SyncMergeIntent``) and removed with the caller's save of the ledger.
    func mergeNotingIntent(_ incoming: [SyncModel]) throws -> [SyncModel] {
        intent = (UUID().uuidString.lowercased(), SyncMergeIntent(tags: [], incoming: incoming, made: []))
        defer { intent = nil }
        let merged = try mergeIntoRecords(incoming)
        try ledger.set(SettingKey.mergeIntent, to: nil)
        return merged
    }

    private func mergeIntoRecords(_ incoming: [SyncModel]) throws -> [SyncModel] {
        var records = try ledger.records(globalIDs: Array(Set(incoming.map(\.id))))
        var merged: [String: SyncedModelState<String>] = [:]
        var changed: [String] = []
        // What arrives for a model the server merged into another goes to that one too (a
        // change a device made before it learnt of the merge), hop by hop along the chain.
        var queue = incoming.map { (model: $0, hops: 0) }
        var next = 0
        while next < queue.count {
            let (model, hops) = queue[next]
            next += 1
            guard let entity = entities[model.state.entity] else { throw SyncError.unknownEntity(model.state.entity, model: model.id) }
            for register in model.state.properties.values { try receive(register.timestamp) }
            for links in model.state.links.values {
                for link in links.values { for timestamp in link.additions.union(link.removals) { try receive(timestamp) } }
            }
            if let deletion = model.state.deletion { try receive(deletion) }
            let record: SyncRecord
            if let existing = try records[model.id] ?? (hops > 0 ? ledger.records(globalIDs: [model.id])[model.id] : nil) {
                record = existing
                records[model.id] = existing
            } else {
                record = SyncRecord(globalID: model.id, entity: entity.name, localID: nil, state: try ledger.encoded(SyncedModelState(entity: entity.name)))
                ledger.context.insert(record)
                records[model.id] = record
            }
            guard record.entity == entity.name else {
                throw SyncError.entityMismatch(model: model.id, sent: entity.name, known: record.entity)
            }
            let known = try merged[model.id] ?? ledger.state(of: record)
            let state = known.merging(model.state)
            if isAuthority, let survivor = known.mergedInto, hops < Self.mergeChainLimit,
               !model.state.properties.isEmpty || !model.state.links.isEmpty {
                queue.append((SyncModel(id: survivor, state: model.state.contents(as: entity.name)), hops + 1))
            }
            if merged[model.id] == nil { changed.append(model.id) }
            merged[model.id] = state
            if state != known { record.state = try ledger.encoded(state) }
        }
        if !isAuthority { try keepRowsOfMergedModels(changed.map { id in (records[id]!, merged[id]!) }) }
        let written = try write(changed.map { SyncModel(id: $0, state: merged[$0]!) }, records: records)
        var survivors: [String: SyncRecord] = [:]
        for (model, owner) in written.collisions {
            let record = records[model]!
            if isAuthority {
                // The model made later is the one merged away: its values join the earlier
                // one's, property by property, and devices keep the earlier.
                var modelState = try ledger.state(of: record)
                let ownerState = try ledger.state(of: owner).merging(modelState.contents(as: owner.entity))
                modelState.markMerged(into: owner.globalID, at: try now())
                record.state = try ledger.encoded(modelState)
                // The merged model's row is the survivor's: a pull sending a change of that
                // row sends the merged model's state too, so that devices holding links to it
                // learn where they lead.
                record.formerLocalID = owner.localID
                owner.state = try ledger.encoded(ownerState)
                merged[model] = modelState
                merged[owner.globalID] = ownerState
                survivors[owner.globalID] = owner
                if !changed.contains(owner.globalID) { changed.append(owner.globalID) }
            } else {
                // A model made here, not yet merged on the server, holds the row: the server's
                // model takes it over, and the server merges the local one into it.
                record.localID = owner.localID
                owner.localID = nil
            }
        }
        for id in changed where merged[id]!.isDeleted { ledger.release(records[id] ?? survivors[id]!) }
        if !survivors.isEmpty {
            _ = try write(survivors.keys.sorted().map { SyncModel(id: $0, state: merged[$0]!) }, records: survivors)
        }
        for id in changed { records[id]?.wait(for: written.unresolved[id] ?? []) }
        try relink(excluding: Set(changed))
        return changed.map { SyncModel(id: $0, state: merged[$0]!) }
    }

    /// Writes again the models whose links named models not made here yet, when one of those
    /// has arrived since; those still waiting stay marked.
    private func relink(excluding written: Set<String>) throws {
        let marked = try ledger.context.fetch(FetchDescriptor<SyncRecord>(predicate: #Predicate { $0.isWaiting }))
            .filter { $0.isWaiting && !written.contains($0.globalID) && $0.localID != nil }
        guard !marked.isEmpty else { return }
        let targets = marked.map { Set($0.waitingFor.split(separator: " ").map(String.init)) }
        // A target arrives when its model is made here, or when it turns out to be merged into
        // another (the link then leads to that one).
        let arrived = try ledger.records(globalIDs: Array(Set(targets.joined())))
            .filter { try $0.value.localID != nil || ledger.state(of: $0.value).mergedInto != nil }
        let waiting = zip(marked, targets).filter { !$0.1.isDisjoint(with: arrived.keys) }.map(\.0)
        guard !waiting.isEmpty else { return }
        let states = try waiting.map { SyncModel(id: $0.globalID, state: try ledger.state(of: $0)) }
        let result = try write(states, records: Dictionary(uniqueKeysWithValues: waiting.map { ($0.globalID, $0) }))
        for record in waiting { record.wait(for: result.unresolved[record.globalID] ?? []) }
    }

    /// A model merged on the server into another with the same unique values: when this node
    /// has the merged model's row and not the survivor's, the row becomes the survivor's.
    private func keepRowsOfMergedModels(_ states: [(SyncRecord, SyncedModelState<String>)]) throws {
        for (record, state) in states {
            guard let survivorID = state.mergedInto, let localID = record.localID else { continue }
            let survivor: SyncRecord
            if let existing = try ledger.records(globalIDs: [survivorID])[survivorID] {
                survivor = existing
            } else {
                survivor = SyncRecord(globalID: survivorID, entity: state.entity, localID: nil, state: try ledger.encoded(SyncedModelState(entity: state.entity)))
                ledger.context.insert(survivor)
            }
            guard survivor.localID == nil else { continue }
            survivor.localID = localID
            record.localID = nil
        }
    }

    /// Writes merged states into the app's models: new models first, so that links between
    /// them resolve, then every value and link, then deletions. A delete rule is applied once,
    /// where the deletion was made: the models it took arrive as deletions of their own.
    ///
    /// Returns the new models the store merged into an existing row (same unique values), with
    /// the record of the model that has the row.
    private func write(_ states: [SyncModel], records: [String: SyncRecord]) throws -> Written {
        let context = ModelContext(container)
        context.autosaveEnabled = false
        context.author = intent.map { "\(Self.author) \($0.tag)" } ?? Self.author
        var resolved: [String: any PersistentModel] = [:]
        var globalIDs: [ObjectIdentifier: String] = [:]
        var created: [String: any PersistentModel] = [:]
        var madeInOrder: [SyncMergeIntent.Made] = []
        var knownRecords = records

        var unknown: Set<String> = []
        func recordOf(_ globalID: String) throws -> SyncRecord? {
            if let record = knownRecords[globalID] { return record }
            if unknown.contains(globalID) { return nil }
            let record = try ledger.records(globalIDs: [globalID])[globalID]
            if record == nil { unknown.insert(globalID) }
            knownRecords[globalID] = record
            return record
        }
        let statesByID = Dictionary(states.map { ($0.id, $0.state) }, uniquingKeysWith: { $0.merging($1) })
        func survivor(_ globalID: String) throws -> String {
            try self.survivor(of: globalID, states: statesByID, record: recordOf)
        }
        // Models whose links name a model not made here yet (it comes in a later batch).
        var unresolved: [String: Set<String>] = [:]
        func linked(_ globalID: String, from source: String) throws -> (any PersistentModel)? {
            let target = try survivor(globalID)
            if let model = try model(target) { return model }
            let record = try recordOf(target)
            // A model deleted here is no link; one never made here yet is a link to make later.
            if record?.localID == nil && record?.formerLocalID == nil { unresolved[source, default: []].insert(target) }
            return nil
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

        // The models already here, a few queries for all.
        var here: [String: [(PersistentIdentifier, String)]] = [:]
        for state in states {
            guard let record = knownRecords[state.id], let localID = record.localID else { continue }
            here[record.entity, default: []].append((try identifier(from: localID), state.id))
        }
        for (entityName, identified) in here {
            guard let entity = entities[entityName], identified.count > 1 else { continue }
            let ids = Dictionary(identified, uniquingKeysWith: { first, _ in first })
            for model in try existingModels(Array(ids.keys), of: entity, in: context) {
                guard let id = ids[model.persistentModelID] else { continue }
                resolved[id] = model
                globalIDs[ObjectIdentifier(model)] = id
            }
        }

        // A record with a local identifier whose model is gone was deleted here: that deletion
        // is the next capture's, and the model is not made again.
        // A state without a value for each required attribute (an edit of a model whose making
        // never arrived, such as a crafted push's) makes no model until one arrives.
        for state in states where !state.state.isDeleted && knownRecords[state.id]?.localID == nil {
            guard let entity = entities[state.state.entity],
                  entity.requiredAttributes.allSatisfy({ state.state.value(of: $0) != nil }) else { continue }
            let new = Self.makeModel(of: entity.modelType)
            for (property, value) in entity.initialValues {
                _ = (property.keyPath as? any SyncInitialValueKeyPath)?.setInitialValue(value, on: new)
            }
            for property in entity.inverseMemberships {
                _ = (property.keyPath as? any SyncInitialMembersKeyPath)?.setInitialMembers([], on: new)
            }
            Self.insert(new, into: context)
            resolved[state.id] = new
            globalIDs[ObjectIdentifier(new)] = state.id
            created[state.id] = new
            madeInOrder.append(SyncMergeIntent.Made(id: state.id, entity: entity.name))
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
                guard var text = state.state.value(of: property.name) else { continue }
                if case .toOne = property.kind, let linkedID = try? coder.globalID(in: text) {
                    // A link to a merged model is written, and compared, as the survivor's.
                    text = coder.text(ofGlobalID: try survivor(linkedID))
                }
                let current = isNew ? nil : try entity.registerText(of: property, in: target, coder: coder, globalID: globalID)
                try entity.write(property, text: text, to: target, modelID: state.id, coder: coder, currentText: current) { try linked($0, from: state.id) }
            }
            for property in entity.memberships {
                var members: [String: any PersistentModel] = [:]
                for member in state.state.members(of: property.name) {
                    let target = try survivor(member)
                    if members[target] == nil { members[target] = try linked(target, from: state.id) }
                }
                try entity.writeMembers(property, members, to: target, isNew: isNew, globalID: globalID)
            }
        }
        for state in states where state.state.isDeleted {
            guard let entity = entities[state.state.entity], let target = try model(state.id), !target.isDeleted else { continue }
            entity.unlinkBeforeRemoteDeletion(target)
            Self.delete(target, from: context)
        }
        if context.hasChanges, var noted = intent {
            if !noted.intent.tags.contains(noted.tag) { noted.intent.tags.append(noted.tag) }
            noted.intent.made += madeInOrder
            try ledger.saveApart(SettingKey.mergeIntent, String(decoding: try JSONEncoder().encode(noted.intent), as: UTF8.self))
            intent = noted
        }
        try context.save()
        try interruption?(.afterSavingModels)
        var collisions: [(model: String, owner: SyncRecord)] = []
        var assigned: [String: SyncRecord] = [:]
        let createdLocalIDs = try created.mapValues { try localID(of: $0.persistentModelID) }
        let holders = try ledger.records(localIDs: Array(createdLocalIDs.values))
        for (id, localID) in createdLocalIDs.sorted(by: { $0.key < $1.key }) {
            let holder = assigned[localID] ?? holders[localID].flatMap { $0.localID == localID ? $0 : nil }
            if let owner = holder, owner.globalID != id {
                collisions.append((id, owner))
                continue
            }
            knownRecords[id]?.localID = localID
            assigned[localID] = knownRecords[id]
        }
        return Written(collisions: collisions, unresolved: unresolved)
    }

    /// The model a link naming `globalID` leads to (``SyncSurvivors``), by the states being
    /// merged, else by the records `record` finds: a record whose model has a row here is a
    /// model of its own (a merged model's row goes when the merge is written).
    func survivor(of globalID: String, states: [String: SyncedModelState<String>], record: (String) throws -> SyncRecord?) throws -> String {
        try SyncSurvivors.survivor(of: globalID) { id in
            if let state = states[id] { return state.mergedInto }
            guard let record = try record(id), record.localID == nil else { return nil }
            return try ledger.state(of: record).mergedInto
        }
    }

    /// What a write left to do: new models the store merged into an existing row (same unique
    /// values), with the record of the model that has the row; and the models whose links name
    /// models not made here yet.
    private struct Written {
        var collisions: [(model: String, owner: SyncRecord)]
        /// The global identifiers of the models not made here yet, by the model linking to them.
        var unresolved: [String: Set<String>]
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
