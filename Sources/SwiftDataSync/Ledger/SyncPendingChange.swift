import Foundation
import SwiftData

/// A local change not yet acknowledged by the server: what it set (a partial
/// ``SyncedModelState``), under an identifier that makes a retried push harmless.
@Model final class SyncPendingChange {
    /// `<node>-<sequence>`: unique across every node.
    @Attribute(.unique) var changeID: String
    /// Orders a node's changes: they are pushed in the order they were made.
    var sequence: Int
    var globalID: String
    var state: Data

    init(changeID: String, sequence: Int, globalID: String, state: Data) {
        self.changeID = changeID
        self.sequence = sequence
        self.globalID = globalID
        self.state = state
    }
}
