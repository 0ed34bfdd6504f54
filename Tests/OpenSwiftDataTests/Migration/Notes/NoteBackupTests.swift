import Foundation
import Testing
@testable import OpenSwiftData

extension MigrationTests {
    @Test func theBackupCanBeTurnedOff() throws {
        let url = temporaryStoreURL()
        try seedMemoV2(url, body: "a")
        var configuration = ModelConfiguration(url: url)
        configuration.backsUpBeforeMigrating = false
        _ = try ModelContainer(for: NoteSchemaV2Trimmed.Memo.self, configurations: configuration)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite"])
    }

    @Test func aMigrationThatDropsValuesIsBackedUpFirst() throws {
        let url = temporaryStoreURL()
        try seedMemoV2(url, body: "b")
        _ = try ModelContainer(for: NoteSchemaV2Trimmed.Memo.self, configurations: ModelConfiguration(url: url))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite"])
        let backup = URL(fileURLWithPath: url.path + ".backup")
        #expect(try rawColumns(backup, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
        #expect(try rawRow(backup, sql: "SELECT body, pinnedAt FROM Memo")[0] as String == "b")
        #expect(try rawRow(backup, sql: "SELECT pinnedAt FROM Memo")[0] as Double == 0)
    }

    @Test func aMigrationThatOnlyAddsAndRenamesIsNotCopied() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "c"))
        }
        _ = try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
        #expect(try rawRow(url, sql: "SELECT body FROM Memo")[0] as String == "c")
    }

    /// A V2 store holding one memo, pinned at the reference date.
    private func seedMemoV2(_ url: URL, body: String) throws {
        let context = ModelContext(try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url)))
        let memo = NoteSchemaV2.Memo(body: body)
        memo.pinnedAt = Date(timeIntervalSinceReferenceDate: 0)
        context.insert(memo)
        try context.save()
    }
}
