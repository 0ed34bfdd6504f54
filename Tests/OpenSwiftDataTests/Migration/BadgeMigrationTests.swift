import Foundation
import Testing
@testable import OpenSwiftData

// Badges gain a unique, non-optional code: filled per row by a transform, or (wrongly) given
// one default for every row.

enum BadgeSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum BadgeSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        @Attribute(.unique) var code: String
        init(name: String, code: String) {
            self.name = name
            self.code = code
        }
    }
}

enum BadgeSchemaV2WithDefault: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        @Attribute(.unique) var code: String = "none"
        init(name: String) { self.name = name }
    }
}

enum BadgeCodePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2.self,
                    model: BadgeSchemaV1.Badge.self, to: BadgeSchemaV2.Badge.self) { old, new in
            new.code = old.name.uppercased()
        }]
    }
}

enum BadgeClashingCodePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2.self,
                    model: BadgeSchemaV1.Badge.self, to: BadgeSchemaV2.Badge.self) { _, new in
            new.code = "SAME"
        }]
    }
}

enum BadgeDefaultPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2WithDefault.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2WithDefault.self)] }
}

extension MigrationTests {
    private func seedBadges(_ url: URL) throws {
        try writeStore(url, for: BadgeSchemaV1.Badge.self) { context in
            context.insert(BadgeSchemaV1.Badge(name: "gold"))
            context.insert(BadgeSchemaV1.Badge(name: "silver"))
        }
    }

    /// A new unique attribute filled row by row: its index is created after the stage, over
    /// the filled values, not over the placeholders every row starts with.
    @Test func aNewUniqueAttributeFilledByATransformMigrates() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let container = try ModelContainer(for: BadgeSchemaV2.Badge.self, migrationPlan: BadgeCodePlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<BadgeSchemaV2.Badge>(sortBy: [SortDescriptor(\.name)])).map(\.code) == ["GOLD", "SILVER"])
        // The constraint holds afterwards: inserting an existing code updates that row.
        context.insert(BadgeSchemaV2.Badge(name: "golden", code: "GOLD"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BadgeSchemaV2.Badge>()) == 2)
    }

    @Test func aTransformLeavingUniqueValuesRepeatedFailsAndChangesNothing() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BadgeSchemaV2.Badge.self, migrationPlan: BadgeClashingCodePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Badge rows of \(url.path) still share values of code"))
        #expect(error.description.contains("Give every row its own value"))
        let names = try ModelContext(ModelContainer(for: BadgeSchemaV1.Badge.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<BadgeSchemaV1.Badge>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["gold", "silver"])
    }

    @Test func aNewUniqueAttributeWithOneDefaultForEveryRowIsRefused() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let before = try Data(contentsOf: url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BadgeSchemaV2WithDefault.Badge.self, migrationPlan: BadgeDefaultPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Badge.code is added in"))
        #expect(error.description.contains("all 2 stored rows the same value"))
        #expect(try Data(contentsOf: url) == before)
    }
}
