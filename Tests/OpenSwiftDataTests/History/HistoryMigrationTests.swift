import Foundation
import Testing
@testable import OpenSwiftData

enum NotebookV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Page.self] }

    @Model final class Page {
        var text: String
        init(text: String) { self.text = text }
    }
}

enum NotebookV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Page.self] }

    @Model final class Page {
        var text: String
        var words: Int = 0
        init(text: String) { self.text = text }
    }
}

enum NotebookPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotebookV1.self, NotebookV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: NotebookV1.self, toVersion: NotebookV2.self, willMigrate: nil) { context in
            for page in try context.fetch(FetchDescriptor<NotebookV2.Page>()) {
                page.words = page.text.split(separator: " ").count
            }
            try context.save()
        }]
    }
}

/// History survives a migration: what was recorded before stays, typed with the new version's
/// classes; the migration's own writes are not recorded.
@Suite struct HistoryMigrationTests {
    @Test func historyFromBeforeAMigrationStaysAndTheMigrationRecordsNothing() throws {
        let url = temporaryStoreURL("notebook")
        do {
            let context = ModelContext(try ModelContainer(
                for: Schema(versionedSchema: NotebookV1.self), migrationPlan: NotebookPlan.self, configurations: [ModelConfiguration(url: url)]))
            let page = NotebookV1.Page(text: "one two")
            context.insert(page)
            context.insert(NotebookV1.Page(text: "three"))
            try context.save()
            page.text = "one two four"
            try context.save()
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: NotebookV2.self), migrationPlan: NotebookPlan.self, configurations: [ModelConfiguration(url: url)])
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<NotebookV2.Page>(sortBy: [SortDescriptor(\.text)])).map(\.words) == [3, 1])

        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map { $0.changes.count } == [2, 1], "the migration's writes were recorded, or history from before it was lost")
        guard case .update(let update as DefaultHistoryUpdate<NotebookV2.Page>) = history[1].changes[0] else {
            Issue.record("the update from before the migration is not typed with version 2's class")
            return
        }
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\NotebookV2.Page.text])

        let page = try #require(try context.fetch(FetchDescriptor<NotebookV2.Page>()).first)
        page.words += 1
        try context.save()
        let migrated = history[1].token
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > migrated }))
        #expect(after.count == 1)
        #expect(after.first.map { $0.id > history[1].id } == true)
    }
}
