import Foundation
import SwiftData

/// The sync's own store, beside the app's: records of synced models, pending changes and
/// settings. Every read and write of the bookkeeping goes through the ledger's context, and a
/// step of the sync saves it once, so the bookkeeping moves from one consistent state to the
/// next. Each save (and each ``discardUnsaved()``) starts a new context: records read in one
/// step are not used in the next, and a context never holds more than a step's records.
final class SyncLedger {
    static let models: [any PersistentModel.Type] = [SyncRecord.self, SyncPendingChange.self, SyncSetting.self]

    private let container: ModelContainer
    private(set) var context: ModelContext
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    init(container: ModelContainer) {
        self.container = container
        context = Self.context(of: container)
        encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
    }

    private static func context(of container: ModelContainer) -> ModelContext {
        let context = ModelContext(container)
        context.autosaveEnabled = false
        return context
    }

    /// Forgets what a failed step changed and did not save.
    func discardUnsaved() {
        context = Self.context(of: container)
    }

    // MARK: Settings

    func setting(_ key: String) throws -> String? {
        try context.fetch(FetchDescriptor<SyncSetting>(predicate: #Predicate { $0.key == key })).first?.value
    }

    /// Saves the setting in a context of its own, leaving what the ledger's context holds
    /// unsaved: a note that must reach the store before the step's other work.
    func saveApart(_ key: String, _ value: String) throws {
        let apart = Self.context(of: container)
        if let setting = try apart.fetch(FetchDescriptor<SyncSetting>(predicate: #Predicate { $0.key == key })).first {
            setting.value = value
        } else {
            apart.insert(SyncSetting(key: key, value: value))
        }
        try apart.save()
    }

    /// Sets the setting, or removes it when `value` is `nil`.
    func set(_ key: String, to value: String?) throws {
        let existing = try context.fetch(FetchDescriptor<SyncSetting>(predicate: #Predicate { $0.key == key })).first
        guard let value else {
            if let existing { context.delete(existing) }
            return
        }
        if let setting = existing {
            if setting.value != value { setting.value = value }
        } else {
            context.insert(SyncSetting(key: key, value: value))
        }
    }

    // MARK: Records

    func records(globalIDs: [String]) throws -> [String: SyncRecord] {
        var found: [String: SyncRecord] = [:]
        for start in stride(from: 0, to: globalIDs.count, by: 500) {
            let batch = Array(globalIDs[start..<min(start + 500, globalIDs.count)])
            for record in try context.fetch(FetchDescriptor<SyncRecord>(predicate: #Predicate { batch.contains($0.globalID) })) {
                found[record.globalID] = record
            }
        }
        return found
    }

    /// The records whose models have these local identifiers, by local identifier.
    func records(localIDs: [String]) throws -> [String: SyncRecord] {
        var found: [String: SyncRecord] = [:]
        for start in stride(from: 0, to: localIDs.count, by: 500) {
            let batch: [String?] = localIDs[start..<min(start + 500, localIDs.count)].map { $0 }
            for record in try context.fetch(FetchDescriptor<SyncRecord>(predicate: #Predicate { batch.contains($0.localID) })) {
                if let localID = record.localID { found[localID] = record }
            }
        }
        return found
    }

    /// The record whose model has the local identifier, as this context has it (a record
    /// whose identifier changed here since the last save is looked at as changed).
    func record(localID: String) throws -> SyncRecord? {
        try context.fetch(FetchDescriptor<SyncRecord>(predicate: #Predicate { $0.localID == localID })).first { $0.localID == localID }
    }

    /// The records whose models had the local identifier, alive or deleted: what a change in
    /// the store's history may be about.
    func records(everHaving localID: String) throws -> [SyncRecord] {
        try context.fetch(FetchDescriptor<SyncRecord>(predicate: #Predicate { $0.localID == localID || $0.formerLocalID == localID }))
            .filter { $0.localID == localID || $0.formerLocalID == localID }
    }

    /// Notes that the record's model is deleted here: its local identifier is a former one.
    func release(_ record: SyncRecord) {
        guard let localID = record.localID else { return }
        record.formerLocalID = localID
        record.localID = nil
    }

    func state(of record: SyncRecord) throws -> SyncedModelState<String> {
        try stateData(record.state)
    }

    func stateData(_ data: Data) throws -> SyncedModelState<String> {
        try decoder.decode(SyncedModelState<String>.self, from: data)
    }

    func encoded(_ state: SyncedModelState<String>) throws -> Data {
        try encoder.encode(state)
    }

    // MARK: Pending changes

    func pendingChanges(limit: Int) throws -> [SyncPendingChange] {
        var descriptor = FetchDescriptor<SyncPendingChange>(sortBy: [SortDescriptor(\.sequence)])
        descriptor.fetchLimit = limit
        return try context.fetch(descriptor)
    }

    func pendingCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<SyncPendingChange>())
    }

    func save() throws {
        if context.hasChanges { try context.save() }
        context = Self.context(of: container)
    }

    /// Deletes the pending changes the server has.
    func deletePendingChanges(_ changeIDs: [String]) throws {
        try context.delete(model: SyncPendingChange.self, where: #Predicate { changeIDs.contains($0.changeID) })
    }
}
