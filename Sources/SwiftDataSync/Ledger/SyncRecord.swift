import Foundation
import SwiftData

/// The sync's bookkeeping of one synced model: its global identifier, the local model it is,
/// and what this node knows of it (``SyncedModelState``, as JSON).
///
/// Kept in the sync's own store beside the app's, never in the app's tables. A record outlives
/// its model: a deleted model's record keeps the deletion, so it is never brought back.
@Model final class SyncRecord {
    #Index<SyncRecord>([\.localID], [\.formerLocalID], [\.isWaiting])

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
    /// Whether a link of the model names a model not made here yet: it is written again when
    /// one of those (``waitingFor``) arrives.
    var isWaiting = false
    /// The global identifiers of the models not made here yet that the model links to,
    /// separated by spaces.
    var waitingFor = ""

    init(globalID: String, entity: String, localID: String?, state: Data) {
        self.globalID = globalID
        self.entity = entity
        self.localID = localID
        self.formerLocalID = nil
        self.state = state
    }
}

extension SyncRecord {
    /// Notes the models not made here yet that this model links to (none: it waits for nothing).
    func wait(for targets: Set<String>) {
        let text = targets.sorted().joined(separator: " ")
        if isWaiting != !targets.isEmpty { isWaiting = !targets.isEmpty }
        if waitingFor != text { waitingFor = text }
    }
}
