import Foundation
import OpenSwiftData

// Optional → non-optional with a default: stored nils take the default.

enum CounterSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int?
        init(name: String, count: Int?) {
            self.name = name
            self.count = count
        }
    }
}

enum CounterSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int = 7
        init(name: String) { self.name = name }
    }
}

enum CounterSchemaV2WithoutDefault: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int
        init(name: String) {
            self.name = name
            count = 0
        }
    }
}
