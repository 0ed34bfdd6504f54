import Foundation
import SwiftData

/// One node's copy of the synced models, a device's or the server's: the app's container, the
/// ledger beside it, and the node's clock. It turns local saves into stamped changes
/// (`captureLocalChanges`) and takes in other nodes' states (`merge`); the client engine and the
/// server are a replica and a way to exchange states.
///
/// Not `Sendable`: the engine and the server each keep theirs inside an actor.
final class SyncReplica {
    /// The history author of every save the sync makes to the app's store: the sync never
    /// takes its own writes for local changes.
    static let author = "OpenSwiftData.Sync"

    /// Whether a save's history author is the sync's: its own, or its own and a merge's tag.
    static func isSyncAuthor(_ author: String?) -> Bool {
        guard let author else { return false }
        return author == Self.author || author.hasPrefix(Self.author + " ")
    }

    let container: ModelContainer
    let entities: [String: SyncedEntity]
    let ledger: SyncLedger
    let coder = SyncValueCoder()
    /// Whether this node is the server, which decides what devices converge to (which of two
    /// models with the same unique values survives).
    let isAuthority: Bool
    private(set) var clock: HybridLogicalClock
    /// The merge under way, whose saves of the app's store carry its tag and add the models
    /// they make to it.
    var intent: (tag: String, intent: SyncMergeIntent)?
    /// Called at the points where a process may die between two saves (tests stop there).
    var interruption: ((SyncInterruptionPoint) throws -> Void)?
    /// How far the node's wall clock is from the true time: tests play a device whose clock
    /// is wrong by hours.
    var clockSkew: TimeInterval = 0

    init(container: ModelContainer, models: [any PersistentModel.Type], ledger ledgerContainer: ModelContainer, node: String?, isAuthority: Bool) throws {
        self.container = container
        self.isAuthority = isAuthority
        entities = try SyncedEntity.entities(of: models)
        ledger = SyncLedger(container: ledgerContainer)
        let node = try node ?? ledger.setting(SettingKey.node) ?? UUID().uuidString.lowercased()
        try ledger.set(SettingKey.node, to: node)
        clock = HybridLogicalClock(node: node, last: try ledger.setting(SettingKey.clock(of: node)).flatMap(SyncTimestamp.init))
    }

    var node: String { clock.node }

    /// A new reading of the node's clock, at `physical` (a save's time) or later, kept in the
    /// ledger at the next save.
    func now(physical: Date = Date()) throws -> SyncTimestamp {
        let reading = clock.now(physical: physical + clockSkew)
        try ledger.set(SettingKey.clock(of: node), to: reading.description)
        return reading
    }

    /// Takes in the clock's last reading as the ledger has it: another instance of the node (a
    /// zone's server let go and opened again in one process) may have read it since.
    func catchUpClock() throws {
        guard let saved = try ledger.setting(SettingKey.clock(of: node)).flatMap(SyncTimestamp.init) else { return }
        if clock.last.map({ $0 < saved }) ?? true { clock = HybridLogicalClock(node: node, last: saved) }
    }

    /// Takes in a timestamp another node made, so that the node's next changes order after it.
    func receive(_ timestamp: SyncTimestamp) throws {
        clock.receive(timestamp, physical: Date() + clockSkew)
        if let last = clock.last { try ledger.set(SettingKey.clock(of: node), to: last.description) }
    }

    /// The local identifier's text, as records keep it.
    func localID(of identifier: PersistentIdentifier) throws -> String {
        String(decoding: try Self.identifierEncoder.encode(identifier), as: UTF8.self)
    }

    func identifier(from localID: String) throws -> PersistentIdentifier {
        try JSONDecoder().decode(PersistentIdentifier.self, from: Data(localID.utf8))
    }

    private static let identifierEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// The saved model of `entity` with the identifier, if it is still in the store.
    func existingModel(_ identifier: PersistentIdentifier, of entity: SyncedEntity, in context: ModelContext) throws -> (any PersistentModel)? {
        try existingModels([identifier], of: entity, in: context).first
    }

    /// Every model of `entity` in the store.
    func allModels(of entity: SyncedEntity, in context: ModelContext) throws -> [any PersistentModel] {
        func fetch<T: PersistentModel>(_ type: T.Type) throws -> [any PersistentModel] {
            try context.fetch(FetchDescriptor<T>())
        }
        return try fetch(entity.modelType)
    }

    /// The saved models of `entity` with these identifiers that are still in the store.
    func existingModels(_ identifiers: [PersistentIdentifier], of entity: SyncedEntity, in context: ModelContext) throws -> [any PersistentModel] {
        func fetch<T: PersistentModel>(_ type: T.Type, _ batch: [PersistentIdentifier]) throws -> [any PersistentModel] {
            try context.fetch(FetchDescriptor<T>(predicate: #Predicate { batch.contains($0.persistentModelID) }))
        }
        var models: [any PersistentModel] = []
        for start in stride(from: 0, to: identifiers.count, by: 500) {
            models += try fetch(entity.modelType, Array(identifiers[start..<min(start + 500, identifiers.count)]))
        }
        return models
    }

    enum SettingKey {
        static let node = "node"
        /// Each node's clock, by node: server processes sharing a ledger each have their own.
        static func clock(of node: String) -> String { "clock \(node)" }
        static let historyToken = "historyToken"
        static let serverCursor = "serverCursor"
        static let nextChange = "nextChange"
        /// How far a device has pulled, and when it last did (``SyncDevicePosition``).
        static func pulled(by node: String) -> String { "pulled \(node)" }
        static let pulledPrefix = "pulled "
        /// The newest history transaction pruned: a cursor before it has lost its place.
        static let prunedThrough = "prunedThrough"
        /// The merge under way (``SyncMergeIntent``), while it is.
        static let mergeIntent = "mergeIntent"
        /// The version of the app's models the device last synced with.
        static let schemaVersion = "schemaVersion"
    }
}
