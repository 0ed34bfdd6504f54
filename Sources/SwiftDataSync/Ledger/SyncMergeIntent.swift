import Foundation

/// A merge under way, kept in the ledger (saved on its own) before the merge first saves the
/// app's store, and removed by the ledger save that records the merge's outcome.
///
/// The app's store and the ledger are two stores, saved one after the other: a process that
/// dies between the two leaves models in the app's store that no record names. Finding an
/// intent when it starts, the replica looks in the app store's history for saves authored with
/// one of `tags`: if there are none, the merge never reached the store and is simply done
/// again; if there are, the models they made are given to the records they were made for
/// before the merge is done again, so none is made twice.
struct SyncMergeIntent: Codable {
    /// The tags of the merge's saves of the app's store (their history author is the sync's
    /// followed by a tag).
    var tags: [String]
    /// The states being merged.
    var incoming: [SyncModel]
    /// The models each save made, by global identifier, in the order it made them.
    var made: [Made]

    struct Made: Codable {
        var id: String
        var entity: String
    }
}
