import Foundation
import SwiftData

/// The sync's bookkeeping of one synced model: its global identifier, the local model it is,
/// and what this node knows of it (``SyncedModelState``, as JSON).
///
/// Kept in the sync's own store beside the app's, never in the app's tables. A record outlives
/// its model: a deleted model's record keeps the deletion, so it is never brought back.
@Model final class SyncRecord {
    #Index<SyncRecord>([\.localID], [\.formerLocalID], [\.hasUnresolvedLinks])

    /// The identifier every node knows the model by.
    @Attribute(.unique) var globalID: String
    var entity: String
    /// The local model's `PersistentIdentifier`, as JSON; `nil` until the model is saved here,
    /// and once it is deleted (a store may give its row to a new model).
    var localID: String?
    /// The local identifier the model had before it was deleted: what the store's history
    /// calls it.
    var formerLocalID: String?
    /// The model's ``SyncedModelState``, as JSON.
    var state: Data
    /// Whether a link of the model names a model not made here yet: it is written again as
    /// more models arrive.
    var hasUnresolvedLinks = false

    init(globalID: String, entity: String, localID: String?, state: Data) {
        self.globalID = globalID
        self.entity = entity
        self.localID = localID
        self.formerLocalID = nil
        self.state = state
    }
}
