import Foundation
import Synchronization
import OpenSwiftData
import Testing
import TestSupport

/// Persistent history, on each backend: every save that changes the store records a
/// transaction with its changes, in the save's own transaction, read back by another container
/// with `fetchHistory`, pruned with `deleteHistory`.
@Suite struct HistoryBehaviourTests {
    @Test(arguments: Backend.available) func eachSaveIsATransactionWithItsChanges(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        let (first, second) = try writeThreeSaves(into: store.container())
        let history = try ModelContext(try store.container()).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["app", "widget", "app"])
        #expect(history.map { $0.changes.count } == [2, 1, 1])
        #expect(history[0].changes.map(\.changedPersistentIdentifier) == [first, second])
        #expect(history.allSatisfy { $0.processIdentifier == "\(ProcessInfo.processInfo.processIdentifier)" })
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.token < $1.token && $0.timestamp <= $1.timestamp })

        guard case .insert(let insert as DefaultHistoryInsert<Memo>) = history[0].changes[0],
              case .update(let update as DefaultHistoryUpdate<Memo>) = history[1].changes[0],
              case .delete(let delete as DefaultHistoryDelete<Memo>) = history[2].changes[0]
        else {
            Issue.record("the changes are not an insert, an update and a delete of a Memo: \(history.map(\.changes))")
            return
        }
        #expect(insert.transactionIdentifier == history[0].transactionIdentifier)
        #expect(update.changedPersistentIdentifier == first)
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Memo.body as AnyKeyPath])
        #expect(delete.changedPersistentIdentifier == second)
        #expect(delete.tombstone[\Memo.code] as? String == "B2")
        #expect(delete.tombstone[\Memo.title] == nil)
        #expect(Array(delete.tombstone).count == 1)
    }

    /// A widget keeps the token of what it has seen as JSON, and fetches what came after;
    /// predicates on the author and sorts with a limit are answered by the store.
    @Test(arguments: Backend.available) func aTokenKeptAsJSONFetchesWhatCameAfter(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        _ = try writeThreeSaves(into: store.container())
        let context = ModelContext(try store.container())
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: try JSONEncoder().encode(history[0].token))
        #expect(token == history[0].token)
        let later = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        #expect(later.map(\.transactionIdentifier) == history.dropFirst().map(\.transactionIdentifier))
        let notMine = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author != "app" }))
        #expect(notMine.map(\.author) == ["widget"])
        var newestFirst = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newestFirst.fetchLimit = 2
        #expect(try context.fetchHistory(newestFirst).map(\.transactionIdentifier) == history.reversed().prefix(2).map(\.transactionIdentifier))
    }

    /// A save that changes nothing records nothing, and a store no save has changed has no
    /// history tables.
    @Test(arguments: Backend.available) func aStoreWithoutChangesHasNoHistory(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        let context = ModelContext(try store.container())
        try context.save()
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        #expect(try store.rowCount(of: "_osd_history_changes") == nil)
    }

    /// A reader that caught up lets the app prune; a token from before the pruned transactions
    /// is refused, saying why, and one after them still reads.
    @Test(arguments: Backend.available) func prunedHistoryRefusesAnExpiredToken(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        _ = try writeThreeSaves(into: store.container())
        let context = ModelContext(try store.container())
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let (oldToken, caughtUp) = (history[0].token, history[1].token)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= caughtUp }))
        let reader = ModelContext(try store.container())
        #expect(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.transactionIdentifier) == [history[2].transactionIdentifier])
        let error = #expect(throws: SwiftDataError.self) {
            try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > oldToken }))
        }
        #expect(error == SwiftDataError.historyTokenExpired)
        #expect("\(error!)".contains("deleteHistory removed them"))
        let after = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > caughtUp }))
        #expect(after.count == 1)
        #expect(try store.rowCount(of: "_osd_history_changes") == 1)
    }

    /// A save of many rows is recorded as a few runs, and read back change by change with the
    /// attributes each update changed.
    @Test(arguments: Backend.available) func aBulkSaveIsRecordedAsRunsAndReadChangeByChange(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        let context = ModelContext(try store.container())
        let memos = (0..<500).map { Memo(title: "memo \($0)", code: "C\($0)") }
        for memo in memos { context.insert(memo) }
        try context.save()
        for memo in memos { memo.body = "read" }
        memos[10].title = "renamed"
        try context.save()
        #expect(try #require(try store.rowCount(of: "_osd_history_changes")) <= 4)
        let history = try ModelContext(try store.container()).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
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

    /// A batch delete, of models the context holds or run in SQL with its delete rules,
    /// records every row it removes once, with its tombstone.
    @Test(arguments: Backend.available) func batchDeletesRecordEveryRowTheyRemove(backend: Backend) throws {
        let store = try backend.store([Memo.self, Jotter.self, JotterPage.self])
        let context = ModelContext(try store.container())
        for index in 0..<3 { context.insert(Memo(title: "memo \(index)", code: "C\(index)")) }
        for name in ["a", "b"] {
            let jotter = Jotter(name: name)
            context.insert(jotter)
            jotter.pages = [JotterPage(number: 1), JotterPage(number: 2)]
        }
        try context.save()
        try context.delete(model: Memo.self)
        try context.save()
        let memos = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let codes = memos.changes.compactMap { change -> String? in
            guard case .delete(let delete as DefaultHistoryDelete<Memo>) = change else { return nil }
            return delete.tombstone[\Memo.code] as? String
        }
        #expect(codes.sorted() == ["C0", "C1", "C2"])

        let other = ModelContext(try store.container())
        try other.delete(model: Jotter.self, where: #Predicate { $0.name == "a" })
        try other.save()
        let jotters = try #require(try other.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let deleted = jotters.changes.compactMap { change -> String? in
            guard case .delete = change else { return nil }
            return change.changedPersistentIdentifier.entityName
        }
        #expect(deleted.sorted() == ["Jotter", "JotterPage", "JotterPage"])
        #expect(try other.fetchCount(FetchDescriptor<JotterPage>()) == 2)
    }

    /// The did-save notification names where the history stands after the save: one token, as
    /// SwiftData's does.
    @Test(arguments: Backend.available) func didSaveCarriesTheTokensOfTheRecordedTransactions(backend: Backend) throws {
        let store = try backend.store([Memo.self])
        let context = ModelContext(try store.container())
        let tokens = Mutex<[DefaultHistoryToken]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { notification in
            if let token = notification.userInfo?[ModelContext.NotificationKey.historyTokens.rawValue] as? DefaultHistoryToken {
                tokens.withLock { $0.append(token) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Memo(title: "a", code: "A"))
        try context.save()
        context.insert(Memo(title: "b", code: "B"))
        try context.save()
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(tokens.withLock { $0 } == history.map(\.token))
    }
}
