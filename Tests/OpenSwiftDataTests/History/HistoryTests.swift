import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Memo {
    var title: String
    @Attribute(.preserveValueOnDeletion) var code: String
    var body: String = ""

    init(title: String, code: String) {
        self.title = title
        self.code = code
    }
}

@Model final class Jotter {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \JotterPage.jotter) var pages: [JotterPage] = []
    init(name: String) { self.name = name }
}

@Model final class JotterPage {
    var number: Int
    var jotter: Jotter?
    init(number: Int) { self.number = number }
}

/// Persistent history where only SQLite's store takes part: in memory, and across a container's
/// several files. What history records and reads on either store is the PostgreSQL test
/// target's `HistoryBehaviourTests`, run on an SQLite file and in a PostgreSQL schema.
@Suite struct HistoryTests {
    /// Three saves by two authors through a file: inserts, an update of one property, a delete
    /// keeping the preserved value (what the store tool's tests list).
    func writeThreeSaves(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        context.author = "app"
        let first = Memo(title: "groceries", code: "A1")
        let second = Memo(title: "errands", code: "B2")
        context.insert(first)
        context.insert(second)
        try context.save()
        context.author = "widget"
        first.body = "milk"
        try context.save()
        context.author = "app"
        context.delete(second)
        try context.save()
    }

    @Test func aPredicateTheHistoryCannotAnswerIsAnInvalidRequest() throws {
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Memo(title: "a", code: "A"))
        try context.save()
        let error = #expect(throws: SwiftDataError.self) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.changes.isEmpty }))
        }
        #expect(error == SwiftDataError.invalidTransactionFetchRequest)
        #expect("\(error!)".contains("the history cannot answer the descriptor"))
    }

    /// A container of two stores: each store's transactions, in commit order, and a token
    /// that names both.
    @Test func twoStoresHistoriesComeTogetherInCommitOrder() throws {
        let folder = temporaryStoreURL().deletingLastPathComponent()
        let container = try ModelContainer(
            for: Memo.self, Jotter.self,
            configurations: ModelConfiguration(schema: Schema([Memo.self]), url: folder.appendingPathComponent("memos.store")),
            ModelConfiguration(schema: Schema([Jotter.self]), url: folder.appendingPathComponent("jotters.store")))
        let context = ModelContext(container)
        context.insert(Memo(title: "a", code: "A"))
        try context.save()
        context.insert(Jotter(name: "j"))
        try context.save()
        context.insert(Memo(title: "b", code: "B"))
        try context.save()
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map { $0.changes.first?.changedPersistentIdentifier.entityName } == ["Memo", "Jotter", "Memo"])
        #expect(Set(history.map(\.storeIdentifier)).count == 2)
        let first = history[0].token
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > first }))
        // The first token names the memos' store only: every transaction of the other comes after it.
        #expect(after.map(\.transactionIdentifier) == history.dropFirst().map(\.transactionIdentifier))
    }
}
