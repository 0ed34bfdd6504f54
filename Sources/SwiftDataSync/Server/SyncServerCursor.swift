import Foundation
import SwiftData

/// Where a device stands in the server's changes; the text devices keep is its JSON.
///
/// A device's first pulls walk every model the server has, by global identifier (`after`),
/// then go on in the server's history from the token taken when the walk began: a change
/// made during the walk is sent again from history, never missed.
struct SyncServerCursor: Codable {
    /// The history transaction the device has everything up to.
    var token: DefaultHistoryToken?
    /// During the first walk, the last global identifier sent.
    var after: String?
    /// Whether the first walk is done.
    var walked: Bool

    init(token: DefaultHistoryToken?, after: String?, walked: Bool) {
        self.token = token
        self.after = after
        self.walked = walked
    }

    init(_ text: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    }

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
