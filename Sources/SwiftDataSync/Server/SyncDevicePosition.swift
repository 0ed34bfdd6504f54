import Foundation
import SwiftData

/// How far a device has pulled the server's history, and when it last pulled: what the server
/// keeps of each device to know which history every device has taken in.
struct SyncDevicePosition: Codable {
    /// The history transaction the device has everything up to (while it walks, the one its
    /// walk began at); `nil` when the store had no history then.
    var token: DefaultHistoryToken?
    var lastSeen: Date
}

extension SyncDevicePosition {
    init(_ text: String) throws {
        self = try JSONDecoder().decode(SyncDevicePosition.self, from: Data(text.utf8))
    }

    var text: String {
        get throws { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }
    }
}
