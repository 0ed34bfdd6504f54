import Foundation
import Testing
import TestSupport
@testable import OpenSwiftData

/// Persistent history where only SQLite's store takes part: in memory, and across a container's
/// several files. What history records and reads on either store is the PostgreSQL test
/// target's `HistoryBehaviourTests`, run on an SQLite file and in a PostgreSQL schema.
@Suite struct HistoryTests {
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
