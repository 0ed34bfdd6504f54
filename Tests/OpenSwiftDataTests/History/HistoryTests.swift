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

/// Persistent history: every save that changes the store records a transaction with its
/// changes, read back with `fetchHistory`.
@Suite struct HistoryTests {
    /// Three saves by two authors through a file, closed and reopened: inserts, an update of one
    /// property, a delete keeping the preserved value.
    func writeThreeSaves(_ url: URL) throws -> (first: PersistentIdentifier, second: PersistentIdentifier) {
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
        let identifiers = (first.persistentModelID, second.persistentModelID)
        try context.save()
        return identifiers
    }

    @Test func eachSaveIsATransactionWithItsChanges() throws {
        let url = temporaryStoreURL("memos")
        let (first, second) = try writeThreeSaves(url)
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["app", "widget", "app"])
        #expect(history.map { $0.changes.count } == [2, 1, 1])
        #expect(history[0].changes.map(\.changedPersistentIdentifier) == [first, second])
        #expect(history.allSatisfy { $0.bundleIdentifier == StoreHistory.bundleIdentifier && $0.processIdentifier == StoreHistory.processIdentifier })
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.token < $1.token && $0.timestamp <= $1.timestamp })

        guard case .insert(let insert as DefaultHistoryInsert<Memo>) = history[0].changes[0] else {
            Issue.record("the first change is not an insert of a Memo")
            return
        }
        #expect(insert.transactionIdentifier == history[0].transactionIdentifier)
        guard case .update(let update as DefaultHistoryUpdate<Memo>) = history[1].changes[0] else {
            Issue.record("the second transaction's change is not an update of a Memo")
            return
        }
        #expect(update.changedPersistentIdentifier == first)
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Memo.body as AnyKeyPath])
        guard case .delete(let delete as DefaultHistoryDelete<Memo>) = history[2].changes[0] else {
            Issue.record("the third transaction's change is not a delete of a Memo")
            return
        }
        #expect(delete.changedPersistentIdentifier == second)
        #expect(delete.tombstone[\Memo.code] as? String == "B2")
        #expect(delete.tombstone[\Memo.title] == nil)
        #expect(Array(delete.tombstone).count == 1)
    }

    /// A batch delete of models the context holds records each row once, with its tombstone.
    @Test func aBatchDeleteOfHeldModelsRecordsEachRowOnce() throws {
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: temporaryStoreURL("memos"))))
        for index in 0..<3 { context.insert(Memo(title: "memo \(index)", code: "C\(index)")) }
        try context.save()
        try context.delete(model: Memo.self)
        try context.save()
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        #expect(last.changes.count == 3)
        let codes = last.changes.compactMap { change -> String? in
            guard case .delete(let delete as DefaultHistoryDelete<Memo>) = change else { return nil }
            return delete.tombstone[\Memo.code] as? String
        }
        #expect(codes.sorted() == ["C0", "C1", "C2"])
    }

    /// A widget keeps the token of what it has seen in a file, and fetches what came after.
    @Test func aTokenKeptAsJSONFetchesWhatCameAfter() throws {
        let url = temporaryStoreURL("memos")
        _ = try writeThreeSaves(url)
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let kept = try JSONEncoder().encode(history[0].token)
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: kept)
        #expect(token == history[0].token)
        let later = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        #expect(later.map(\.transactionIdentifier) == history.dropFirst().map(\.transactionIdentifier))
        let notMine = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author != "app" }))
        #expect(notMine.map(\.author) == ["widget"])
        var newestFirst = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newestFirst.fetchLimit = 2
        #expect(try context.fetchHistory(newestFirst).map(\.transactionIdentifier) == history.reversed().prefix(2).map(\.transactionIdentifier))
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

    /// A save that changes nothing records nothing, and a store no save has changed has no
    /// history (and no history tables).
    @Test func aStoreWithoutChangesHasNoHistory() throws {
        let url = temporaryStoreURL("memos")
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        try context.save()
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '_osd_history%'")[0] as Int == 0)
    }

    /// A reader that caught up lets the app prune; a token from before the pruned transactions
    /// is refused, one after them still reads.
    @Test func prunedHistoryRefusesAnExpiredToken() throws {
        let url = temporaryStoreURL("memos")
        _ = try writeThreeSaves(url)
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let (oldToken, caughtUp) = (history[0].token, history[1].token)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= caughtUp }))
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.transactionIdentifier) == [history[2].transactionIdentifier])
        let error = #expect(throws: SwiftDataError.self) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > oldToken }))
        }
        #expect(error == SwiftDataError.historyTokenExpired)
        #expect("\(error!)".contains("deleteHistory removed them"))
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > caughtUp }))
        #expect(after.count == 1)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM _osd_history_changes")[0] as Int == 1)
    }

    /// A save of many new rows is recorded as runs, and read back change by change.
    @Test func aBulkSaveIsRecordedAsRunsAndReadChangeByChange() throws {
        let url = temporaryStoreURL("memos")
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        let memos = (0..<500).map { Memo(title: "memo \($0)", code: "C\($0)") }
        for memo in memos { context.insert(memo) }
        try context.save()
        for memo in memos { memo.body = "read" }
        memos[10].title = "renamed"
        try context.save()
        let runs: Int = try rawRow(url, sql: "SELECT COUNT(*) FROM _osd_history_changes")[0]
        #expect(runs <= 4)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map { $0.changes.count } == [500, 500])
        #expect(history[0].changes.map(\.changedPersistentIdentifier) == memos.map(\.persistentModelID))
        let updated = history[1].changes.compactMap { change -> [AnyKeyPath]? in
            guard case .update(let update as DefaultHistoryUpdate<Memo>) = change else { return nil }
            return update.updatedAttributes.map { $0 as AnyKeyPath }
        }
        #expect(updated.count == 500)
        #expect(updated.filter { $0 == [\Memo.title as AnyKeyPath, \Memo.body as AnyKeyPath] }.count == 1)
        #expect(updated.filter { $0 == [\Memo.body as AnyKeyPath] }.count == 499)
    }

    /// The did-save notification names where the history stands after the save: one token, as
    /// SwiftData's does; a save that changed nothing posts none.
    @Test func didSaveCarriesTheTokensOfTheRecordedTransactions() throws {
        let context = ModelContext(try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let tokens = Recorder<[DefaultHistoryToken]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { notification in
            if let token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue] as? any HistoryToken {
                tokens.value.append(token as! DefaultHistoryToken)
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Memo(title: "a", code: "A"))
        try context.save()
        context.insert(Memo(title: "b", code: "B"))
        try context.save()
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(tokens.value == history.map(\.token))
        #expect(tokens.value.map(\.storeIdentifier) == history.map(\.storeIdentifier))
    }

    /// A batch delete run in SQL, its delete rules included, records every row it removes.
    @Test func batchDeletesRecordEveryRowTheyRemove() throws {
        let url = temporaryStoreURL("jotters")
        do {
            let context = ModelContext(try ModelContainer(for: Jotter.self, configurations: ModelConfiguration(url: url)))
            for name in ["a", "b"] {
                let jotter = Jotter(name: name)
                context.insert(jotter)
                jotter.pages = [JotterPage(number: 1), JotterPage(number: 2)]
            }
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Jotter.self, configurations: ModelConfiguration(url: url)))
        try context.delete(model: Jotter.self, where: #Predicate { $0.name == "a" })
        try context.save()
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let deleted = last.changes.compactMap { change -> String? in
            guard case .delete = change else { return nil }
            return change.changedPersistentIdentifier.entityName
        }
        #expect(deleted.sorted() == ["Jotter", "JotterPage", "JotterPage"])
        #expect(try context.fetchCount(FetchDescriptor<JotterPage>()) == 2)
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
