import Foundation
import Testing
@testable import OpenSwiftData

// A journal app that keeps notes in a synced store and drafts in a local one. Version 2 adds a
// note's pin; version 3 counts a draft's words, filled by a custom stage.

enum JournalV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        init(body: String) { self.body = body }
    }
}

enum JournalV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        var isPinned: Bool = false
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        init(body: String) { self.body = body }
    }
}

enum JournalV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        var isPinned: Bool = false
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        var words: Int = 0
        init(body: String) { self.body = body }
    }
}

enum JournalPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JournalV1.self, JournalV2.self, JournalV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: JournalV1.self, toVersion: JournalV2.self),
            .custom(fromVersion: JournalV2.self, toVersion: JournalV3.self, willMigrate: nil) { context in
                for draft in try context.fetch(FetchDescriptor<JournalV3.Draft>()) {
                    draft.words = draft.body.split(separator: " ").count
                }
                try context.save()
            },
        ]
    }
}

/// A container of two configurations, each naming some of the models, opened with a plan: each
/// store holds its entities, and is migrated and recorded by the plan.
@Suite struct SeveralStoresMigrationTests {
    private struct Stores {
        let folder = temporaryStoreURL().deletingLastPathComponent()
        var synced: URL { folder.appendingPathComponent("synced.store") }
        var local: URL { folder.appendingPathComponent("local.store") }

        func container(_ note: any PersistentModel.Type, _ draft: any PersistentModel.Type, plan: (any SchemaMigrationPlan.Type)? = JournalPlan.self) throws -> ModelContainer {
            try ModelContainer(
                for: Schema([note, draft]), migrationPlan: plan,
                configurations: ModelConfiguration("synced", schema: Schema([note]), url: synced),
                ModelConfiguration("local", schema: Schema([draft]), url: local))
        }
    }

    private func recordedVersion(_ url: URL) throws -> String {
        try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0]
    }

    private func tables(_ url: URL) throws -> [String] {
        let names: String = try rawRow(url, sql: "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_osd%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name)")[0]
        return names.split(separator: ",").map(String.init)
    }

    private func writeVersion1(_ stores: Stores) throws {
        let context = ModelContext(try stores.container(JournalV1.Note.self, JournalV1.Draft.self))
        context.insert(JournalV1.Note(text: "buy milk"))
        context.insert(JournalV1.Draft(body: "a letter to Ada"))
        try context.save()
    }

    @Test func eachStoreHoldsItsEntitiesAndRecordsThePlanVersion() throws {
        let stores = Stores()
        try writeVersion1(stores)
        #expect(try tables(stores.synced) == ["Note"])
        #expect(try tables(stores.local) == ["Draft"])
        #expect(try recordedVersion(stores.synced) == "1.0.0")
        #expect(try recordedVersion(stores.local) == "1.0.0")
    }

    @Test func eachStoreIsMigratedThroughThePlan() throws {
        let stores = Stores()
        try writeVersion1(stores)
        let container = try stores.container(JournalV3.Note.self, JournalV3.Draft.self)
        let context = ModelContext(container)
        let note = try #require(try context.fetch(FetchDescriptor<JournalV3.Note>()).first)
        #expect(note.text == "buy milk")
        #expect(note.isPinned == false)
        let draft = try #require(try context.fetch(FetchDescriptor<JournalV3.Draft>()).first)
        #expect(draft.body == "a letter to Ada")
        #expect(draft.words == 4)
        #expect(try recordedVersion(stores.synced) == "3.0.0")
        #expect(try recordedVersion(stores.local) == "3.0.0")
        #expect(try rawColumns(stores.synced, table: "Note") == ["_pk", "text", "isPinned"])
        #expect(try rawColumns(stores.local, table: "Draft") == ["_pk", "body", "words"])

        // Saved into each store, and seen on reopening; the reopening writes nothing.
        note.isPinned = true
        context.insert(JournalV3.Draft(body: "two words"))
        try context.save()
        let before = (try storeFiles(stores.synced), try storeFiles(stores.local))
        let reopened = ModelContext(try stores.container(JournalV3.Note.self, JournalV3.Draft.self))
        #expect(try reopened.fetch(FetchDescriptor<JournalV3.Note>()).map(\.isPinned) == [true])
        #expect(try reopened.fetch(FetchDescriptor<JournalV3.Draft>(sortBy: [SortDescriptor(\.body)])).map(\.words) == [4, 0])
        #expect(try storeFiles(stores.synced) == before.0)
        #expect(try storeFiles(stores.local) == before.1)
    }

    @Test func aStoreWhoseEntitiesDidNotChangeStillRecordsTheNewVersion() throws {
        let stores = Stores()
        try writeVersion1(stores)
        _ = try stores.container(JournalV2.Note.self, JournalV2.Draft.self)
        #expect(try recordedVersion(stores.synced) == "2.0.0")
        #expect(try recordedVersion(stores.local) == "2.0.0")
        // The drafts' stage from 2 to 3 still runs on the local store.
        let context = ModelContext(try stores.container(JournalV3.Note.self, JournalV3.Draft.self))
        #expect(try context.fetch(FetchDescriptor<JournalV3.Draft>()).map(\.words) == [4])
    }

    @Test func anOlderAppRefusesEitherStore() throws {
        let stores = Stores()
        try writeVersion1(stores)
        _ = try stores.container(JournalV2.Note.self, JournalV2.Draft.self)
        let before = (try storeFiles(stores.synced), try storeFiles(stores.local))
        let error = try #require(throws: SwiftDataError.self) {
            try stores.container(JournalV1.Note.self, JournalV1.Draft.self, plan: JournalV1OnlyPlan.self)
        }
        #expect(error.description.contains("2.0.0"))
        // The local store's drafts kept their structure from 1 to 2: it is refused all the same.
        let localOnly = try #require(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema([JournalV1.Note.self, JournalV1.Draft.self]), migrationPlan: JournalV1OnlyPlan.self,
                configurations: ModelConfiguration("local", schema: Schema([JournalV1.Draft.self]), url: stores.local))
        }
        #expect(localOnly.description.contains("2.0.0"))
        #expect(try storeFiles(stores.synced) == before.0)
        #expect(try storeFiles(stores.local) == before.1)
    }
}

enum JournalV1OnlyPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JournalV1.self] }
    static var stages: [MigrationStage] { [] }
}

// The journal's synced store also kept scraps in version 1; version 2 drops them.

enum ScrapJournalV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [JournalV1.Note.self, JournalV1.Draft.self, Scrap.self] }

    @Model final class Scrap {
        var words: String
        init(words: String) { self.words = words }
    }
}

enum ScrapJournalV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [JournalV2.Note.self, JournalV2.Draft.self] }
}

enum ScrapJournalPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ScrapJournalV1.self, ScrapJournalV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ScrapJournalV1.self, toVersion: ScrapJournalV2.self)] }
}

extension SeveralStoresMigrationTests {
    @Test func aStoreOfSeveralLosesOnlyTheEntityItHeldThatTheNewVersionDrops() throws {
        let folder = temporaryStoreURL().deletingLastPathComponent()
        let synced = folder.appendingPathComponent("synced.store")
        let local = folder.appendingPathComponent("local.store")
        do {
            let context = ModelContext(try ModelContainer(
                for: Schema(versionedSchema: ScrapJournalV1.self),
                configurations: ModelConfiguration("synced", schema: Schema([JournalV1.Note.self, ScrapJournalV1.Scrap.self]), url: synced),
                ModelConfiguration("local", schema: Schema([JournalV1.Draft.self]), url: local)))
            context.insert(JournalV1.Note(text: "milk"))
            context.insert(JournalV1.Draft(body: "dear Ada"))
            context.insert(ScrapJournalV1.Scrap(words: "torn"))
            try context.save()
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: ScrapJournalV2.self), migrationPlan: ScrapJournalPlan.self,
            configurations: ModelConfiguration("synced", schema: Schema([JournalV2.Note.self]), url: synced),
            ModelConfiguration("local", schema: Schema([JournalV2.Draft.self]), url: local))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<JournalV2.Note>()).map(\.text) == ["milk"])
        #expect(try context.fetch(FetchDescriptor<JournalV2.Draft>()).map(\.body) == ["dear Ada"])
        #expect(try tables(synced) == ["Note"])
        #expect(try tables(local) == ["Draft"])
        #expect(try recordedVersion(synced) == "2.0.0")
        #expect(try recordedVersion(local) == "2.0.0")
    }
}
