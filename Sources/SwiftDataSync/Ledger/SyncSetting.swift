import Foundation
import SwiftData

/// One value the sync keeps between launches: its clock, the history it has read, the
/// server's cursor.
@Model final class SyncSetting {
    @Attribute(.unique) var key: String
    var value: String

    init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
