import Foundation
import Testing
@testable import OpenSwiftData

/// Two names that swap places, and a third that takes a dropped attribute's name.
enum SwapSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }
    @Model final class Entry {
        var left: String
        var right: String
        var old: String
        var label: String
        init(left: String, right: String, old: String, label: String) {
            self.left = left
            self.right = right
            self.old = old
            self.label = label
        }
    }
}

enum SwapSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }
    @Model final class Entry {
        @Attribute(originalName: "right") var left: String
        @Attribute(originalName: "left") var right: String
        @Attribute(originalName: "label") var old: String
        init(left: String, right: String, old: String) {
            self.left = left
            self.right = right
            self.old = old
        }
    }
}

enum SwapPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SwapSchemaV1.self, SwapSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SwapSchemaV1.self, toVersion: SwapSchemaV2.self)] }
}

extension MigrationTests {
    @Test func renamesOntoNamesOldColumnsHoldMoveTheValues() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: SwapSchemaV1.Entry.self) { context in
            context.insert(SwapSchemaV1.Entry(left: "L", right: "R", old: "gone", label: "kept"))
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: SwapSchemaV2.self), migrationPlan: SwapPlan.self, configurations: ModelConfiguration(url: url)))
        let entry = try #require(try context.fetch(FetchDescriptor<SwapSchemaV2.Entry>()).first)
        #expect([entry.left, entry.right, entry.old] == ["R", "L", "kept"])
    }
}
