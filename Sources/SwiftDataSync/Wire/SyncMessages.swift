import Foundation

/// A model as one node knows it: its global identifier and state. Registers hold each value's
/// JSON text; to-one relationships the global identifier of the model linked to.
public struct SyncModel: Codable, Sendable, Equatable {
    public var id: String
    public var state: SyncedModelState<String>

    public init(id: String, state: SyncedModelState<String>) {
        self.id = id
        self.state = state
    }
}

/// A change a device made: the registers, links or deletion it set, as a partial state of the
/// model. Merging it twice is merging it once.
public struct SyncChange: Codable, Sendable, Equatable {
    /// Unique across every node (`<node>-<sequence>`).
    public var id: String
    public var model: SyncModel

    public init(id: String, model: SyncModel) {
        self.id = id
        self.model = model
    }
}

/// A device's changes, oldest first.
public struct SyncPushRequest: Codable, Sendable {
    public var node: String
    public var changes: [SyncChange]
    /// The version of the device's models (`Schema.Version`'s text, such as "2.0.0"), which
    /// the server checks it can sync with; `nil`: the server's own.
    public var schemaVersion: String?

    public init(node: String, changes: [SyncChange], schemaVersion: String? = nil) {
        self.node = node
        self.changes = changes
        self.schemaVersion = schemaVersion
    }
}

/// What the server made of a push: the changes it has (all of them, on success) and the models
/// they touched as the server now knows them, so the device converges without waiting for a
/// pull.
public struct SyncPushResponse: Codable, Sendable {
    public var accepted: [String]
    public var models: [SyncModel]

    public init(accepted: [String], models: [SyncModel]) {
        self.accepted = accepted
        self.models = models
    }
}

/// A request for what changed on the server after `cursor` (`nil`: from the start).
public struct SyncPullRequest: Codable, Sendable {
    public var cursor: String?
    /// At most this many models in the answer (the server may send fewer).
    public var limit: Int
    /// The version of the device's models, as in ``SyncPushRequest/schemaVersion``.
    public var schemaVersion: String?
    /// The device asking: the server notes how far each device has pulled, and prunes the
    /// history every device it knows has pulled (``SyncServer/pruneHistory(forgettingDevicesNotSeenSince:)``).
    public var node: String?

    public init(cursor: String?, limit: Int = 1000, schemaVersion: String? = nil, node: String? = nil) {
        self.cursor = cursor
        self.limit = limit
        self.schemaVersion = schemaVersion
        self.node = node
    }
}

/// The models changed after the request's cursor, in the server's order of changes, and the
/// cursor to ask from next.
public struct SyncPullResponse: Codable, Sendable {
    public var models: [SyncModel]
    public var cursor: String?
    /// Whether more changes follow the new cursor.
    public var hasMore: Bool

    public init(models: [SyncModel], cursor: String?, hasMore: Bool) {
        self.models = models
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
