import Foundation
import SwiftData

// Local saves, read from the app store's history and stamped with the node's clock.
extension SyncReplica {
    /// The changes saved since the last capture, one partial state per model, stamped with
    /// the node's clock; the first capture takes every model there is. The ledger's records
    /// take the changes in (the caller saves the ledger).
    ///
    /// Saves the sync made itself (its history author) are not local changes.
    func captureLocalChanges(batchSize: Int = 500) throws -> [SyncModel] {
        try adoptModelsOfInterruptedMerge()
        let capture = Capture(replica: self, context: ModelContext(container))
        guard let saved = try ledger.setting(SettingKey.historyToken) else {
            // Everything after the newest transaction is read again by the next capture, so a
            // save racing with the walk below is taken in twice at worst, never missed.
            let newest = try newestHistoryToken(in: capture.context)
            try capture.takeEveryModel()
            try ledger.set(SettingKey.historyToken, to: newest.map(encodedToken) ?? "")
            return capture.changes
        }
        var token = saved.isEmpty ? nil : try JSONDecoder().decode(DefaultHistoryToken.self, from: Data(saved.utf8))
        while true {
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: token.map { token in #Predicate { $0.token > token } },
                sortBy: [SortDescriptor(\.transactionIdentifier)])
            descriptor.fetchLimit = UInt64(batchSize)
            let transactions = try capture.context.fetchHistory(descriptor)
            for transaction in transactions where !Self.isSyncAuthor(transaction.author) {
                try capture.take(transaction)
            }
            guard let last = transactions.last else { break }
            token = last.token
            try ledger.set(SettingKey.historyToken, to: encodedToken(last.token))
            if transactions.count < batchSize { break }
        }
        return capture.changes
    }

    private func newestHistoryToken(in context: ModelContext) throws -> DefaultHistoryToken? {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        descriptor.fetchLimit = 1
        return try context.fetchHistory(descriptor).first?.token
    }

    private func encodedToken(_ token: DefaultHistoryToken) throws -> String {
        String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
    }
}

/// One capture's work: the records it touched and the changes it made.
private final class Capture {
    let replica: SyncReplica
    let context: ModelContext
    private var recordsByLocalID: [String: SyncRecord] = [:]
    private var recordsByGlobalID: [String: SyncRecord] = [:]
    /// Local identifiers looked up in the ledger, found or not.
    private var lookedUp: Set<String> = []
    /// Models read ahead of their changes, a transaction's at a time.
    private var models: [PersistentIdentifier: any PersistentModel] = [:]
    private var partialStates: [String: SyncedModelState<String>] = [:]
    private var order: [String] = []
    /// Models a stamped model links to that had no record: taken in whole once it is stamped.
    private var unrecorded: [(any PersistentModel, SyncedEntity)] = []

    init(replica: SyncReplica, context: ModelContext) {
        self.replica = replica
        self.context = context
    }

    var changes: [SyncModel] {
        order.map { SyncModel(id: $0, state: partialStates[$0]!) }
    }

    func takeEveryModel() throws {
        let timestamp = try replica.now()
        for entity in replica.entities.values.sorted(by: { $0.name < $1.name }) {
            let models = try replica.allModels(of: entity, in: context)
            try lookUpRecords(of: models.map(\.persistentModelID))
            for model in models { _ = try record(for: model.persistentModelID, entity: entity) }
            for model in models { try stamp(model, entity: entity, properties: entity.properties, at: timestamp) }
        }
    }

    func take(_ transaction: DefaultHistoryTransaction) throws {
        // The save's own time, so that of two saves the later one wins, whichever device syncs
        // first; never before what the node has seen or made.
        let timestamp = try replica.now(physical: transaction.timestamp)
        try readAhead(transaction.changes.map(\.changedPersistentIdentifier))
        // Models inserted together may link to each other: each has its record first.
        for case .insert(let insert) in transaction.changes {
            if let entity = replica.entities[insert.changedPersistentIdentifier.entityName] {
                _ = try record(for: insert.changedPersistentIdentifier, entity: entity)
            }
        }
        for change in transaction.changes {
            let identifier = change.changedPersistentIdentifier
            guard let entity = replica.entities[identifier.entityName] else { continue }
            switch change {
            case .insert:
                guard let model = try model(identifier, of: entity) else { continue }
                try stamp(model, entity: entity, properties: entity.properties, at: timestamp)
            case .update(let update):
                let changed = Set(Self.keyPaths(of: update))
                let properties = entity.properties.filter { changed.contains($0.keyPath) }
                guard !properties.isEmpty, let model = try model(identifier, of: entity) else { continue }
                let isNew = try existingRecord(for: identifier) == nil
                try stamp(model, entity: entity, properties: isNew ? entity.properties : properties, at: timestamp)
            case .delete:
                guard let record = try existingRecord(for: identifier) else { continue }
                var partial = SyncedModelState<String>(entity: entity.name)
                partial.delete(at: timestamp)
                try take(partial, into: record)
                replica.ledger.release(record)
                recordsByLocalID[try replica.localID(of: identifier)] = nil
            }
        }
    }

    /// Reads the models of a transaction's changes, and their records, a few queries for all.
    private func readAhead(_ identifiers: [PersistentIdentifier]) throws {
        models = [:]
        try lookUpRecords(of: identifiers)
        for (entityName, ids) in Dictionary(grouping: identifiers, by: \.entityName) {
            guard let entity = replica.entities[entityName], ids.count > 1 else { continue }
            for model in try replica.existingModels(ids, of: entity, in: context) { models[model.persistentModelID] = model }
        }
    }

    /// The saved model with the identifier, if it is still in the store.
    private func model(_ identifier: PersistentIdentifier, of entity: SyncedEntity) throws -> (any PersistentModel)? {
        if let model = models[identifier] { return model }
        return try replica.existingModel(identifier, of: entity, in: context)
    }

    private func lookUpRecords(of identifiers: [PersistentIdentifier]) throws {
        let localIDs = try identifiers.map(replica.localID(of:)).filter { !lookedUp.contains($0) }
        for (localID, record) in try replica.ledger.records(localIDs: localIDs) where recordsByLocalID[localID] == nil {
            recordsByLocalID[localID] = record
            recordsByGlobalID[record.globalID] = record
        }
        lookedUp.formUnion(localIDs)
    }

    private static func keyPaths<U: HistoryUpdate>(of update: U) -> [AnyKeyPath] {
        update.updatedAttributes.map { $0 as AnyKeyPath }
    }

    /// Stamps the properties of `model` as they are now.
    private func stamp(_ model: any PersistentModel, entity: SyncedEntity, properties: [SyncedProperty], at timestamp: SyncTimestamp) throws {
        let record = try record(for: model.persistentModelID, entity: entity)
        let known = try replica.ledger.state(of: record)
        var partial = SyncedModelState<String>(entity: entity.name)
        let globalID: (any PersistentModel) throws -> String = { related in try self.globalID(of: related) }
        for property in properties {
            switch property.kind {
            case .attribute, .toOne:
                let text = try entity.registerText(of: property, in: model, coder: replica.coder, globalID: globalID)
                if known.value(of: property.name) != text { partial.set(property.name, to: text, at: timestamp) }
            case .toMany:
                try stampMembers(of: property, in: model, entity: entity, known: known, into: &partial, at: timestamp)
            }
        }
        try take(partial, into: record)
        while let (model, entity) = unrecorded.popLast() {
            try stamp(model, entity: entity, properties: entity.properties, at: timestamp)
        }
    }

    /// Stamps what changed in a to-many relationship since the state `known`: an addition for
    /// each model linked now and not then, a removal of the additions seen for each model
    /// linked then and not now. Known members are compared as the models their links lead to
    /// (a merged model's as its survivor's); one whose model was never made here was never
    /// shown, so its absence is no removal.
    private func stampMembers(
        of property: SyncedProperty, in model: any PersistentModel, entity: SyncedEntity,
        known: SyncedModelState<String>, into partial: inout SyncedModelState<String>, at timestamp: SyncTimestamp
    ) throws {
        let members = try entity.members(of: property, in: model) { try self.globalID(of: $0) }
        var knownByTarget: [String: [String]] = [:]
        let knownMembers = known.members(of: property.name)
        // Their records, a few queries for all.
        for (globalID, record) in try replica.ledger.records(globalIDs: knownMembers.filter { recordsByGlobalID[$0] == nil }) {
            recordsByGlobalID[globalID] = record
        }
        for member in knownMembers {
            knownByTarget[try survivor(of: member), default: []].append(member)
        }
        for added in members where knownByTarget[added] == nil {
            partial.add(property.name, member: added, at: timestamp)
        }
        for (target, aliases) in knownByTarget where !members.contains(target) {
            guard let record = try recordByGlobalID(target), record.localID != nil || record.formerLocalID != nil else { continue }
            for member in aliases {
                partial.remove(property.name, member: member, observed: known.liveAdditions(of: property.name, to: member))
            }
        }
    }

    /// The model a link naming `globalID` leads to.
    private func survivor(of globalID: String) throws -> String {
        try replica.survivor(of: globalID, states: [:], record: recordByGlobalID)
    }

    /// The record of the model `globalID` names: one this capture made or read, else the
    /// ledger's.
    private func recordByGlobalID(_ globalID: String) throws -> SyncRecord? {
        if let record = recordsByGlobalID[globalID] { return record }
        let record = try replica.ledger.records(globalIDs: [globalID])[globalID]
        recordsByGlobalID[globalID] = record
        return record
    }

    private func take(_ partial: SyncedModelState<String>, into record: SyncRecord) throws {
        guard partial != SyncedModelState(entity: partial.entity) else { return }
        record.state = try replica.ledger.encoded(try replica.ledger.state(of: record).merging(partial))
        if let earlier = partialStates[record.globalID] {
            partialStates[record.globalID] = earlier.merging(partial)
        } else {
            partialStates[record.globalID] = partial
            order.append(record.globalID)
        }
    }

    /// The global identifier of a related model; a model no capture has seen yet (saved before
    /// its history was kept) gets a record and is taken in whole.
    private func globalID(of model: any PersistentModel) throws -> String {
        if let record = try existingRecord(for: model.persistentModelID) { return record.globalID }
        guard let entity = replica.entities[model.persistentModelID.entityName] else {
            throw SyncError.unknownModel(entity: model.persistentModelID.entityName)
        }
        unrecorded.append((model, entity))
        return try record(for: model.persistentModelID, entity: entity).globalID
    }

    private func record(for identifier: PersistentIdentifier, entity: SyncedEntity) throws -> SyncRecord {
        if let record = try existingRecord(for: identifier) { return record }
        let localID = try replica.localID(of: identifier)
        let record = SyncRecord(
            globalID: UUID().uuidString.lowercased(), entity: entity.name, localID: localID,
            state: try replica.ledger.encoded(SyncedModelState(entity: entity.name)))
        replica.ledger.context.insert(record)
        recordsByLocalID[localID] = record
        recordsByGlobalID[record.globalID] = record
        return record
    }

    private func existingRecord(for identifier: PersistentIdentifier) throws -> SyncRecord? {
        let localID = try replica.localID(of: identifier)
        if let record = recordsByLocalID[localID] { return record.localID == localID ? record : nil }
        if lookedUp.contains(localID) { return nil }
        return try replica.ledger.record(localID: localID)
    }
}
