import Foundation
import Testing
@testable import OpenSwiftData

extension MigrationTests {
    @Test func aStoreWrittenWithoutVersionedSchemasIsRecognisedAsV1() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "buy milk"))
        }
        let container = try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        let memo = try ModelContext(container).fetch(FetchDescriptor<NoteSchemaV2.Memo>())[0]
        #expect(memo.body == "buy milk")
        #expect(memo.isFavorite == false)
        #expect(memo.pinnedAt == nil)
    }

    @Test func lightweightChangesNeedNoPlan() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "a"))
            context.insert(NoteSchemaV1.Memo(text: "b"))
        }
        let container = try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url))
        let memos = try ModelContext(container).fetch(FetchDescriptor<NoteSchemaV2.Memo>(sortBy: [SortDescriptor(\.body)]))
        #expect(memos.map(\.body) == ["a", "b"])
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
    }

    @Test func aNonOptionalAttributeWithoutDefaultIsRefusedAndTheStoreUntouched() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV2.Memo.self) { context in
            context.insert(NoteSchemaV2.Memo(body: "x"))
        }
        let before = try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'fingerprint'")[0] as String
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV3.Memo.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Memo.priority"))
        #expect(error.description.contains("non-optional with no default"))
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'fingerprint'")[0] as String == before)
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
    }

    @Test func duplicateVersionChecksumsAreAnErrorNamingBothVersions() throws {
        let url = temporaryStoreURL()
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV1Again.Memo.self, migrationPlan: DuplicatePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("NoteSchemaV1 (1.0.0)"))
        #expect(error.description.contains("NoteSchemaV1Again (1.1.0)"))
        #expect(error.description.contains("needs no new version"))
    }

    @Test func brokenPlansAreRefusedBeforeTheStoreIsTouched() throws {
        let url = temporaryStoreURL()
        let unordered = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: UnorderedPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(unordered.description.contains("oldest to newest"))
        let outside = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: StageOutsidePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(outside.description.contains("NoteSchemaV3, which is not in"))
        let backward = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: BackwardStagePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(backward.description.contains("goes backwards"))
        let unknown = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV3.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(unknown == .unknownSchema)
        #expect(unknown.description.contains("match no version"))
        #expect(unknown.description.contains("Memo.priority added"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aStoreMatchingNoVersionIsRefusedWithTheDifference() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV3.Memo.self) { context in
            context.insert(NoteSchemaV3.Memo(body: "x"))
        }
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error == .unknownSchema)
        #expect(error.description.contains("nearest"))
        #expect(error.description.contains("priority"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "priority"])
    }

    @Test func aShippedVersionEditedInPlaceIsMigratedLightweight() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: NoteSchemaV1.self)) { context in
            context.insert(NoteSchemaV1.Memo(text: "old"))
        }
        let container = try ModelContainer(for: Schema(versionedSchema: EditedNoteSchemaV1.self), migrationPlan: EditedNotePlan.self, configurations: ModelConfiguration(url: url))
        let memo = try ModelContext(container).fetch(FetchDescriptor<EditedNoteSchemaV1.Memo>())[0]
        #expect(memo.text == "old")
        #expect(memo.color == "yellow")
    }
}
