import Foundation
import GRDB
import Observation
import Testing
import TestSupport
@testable import OpenSwiftData

/// The ledger entry StoreOpener's version 1 saves, for observing its saves from this process.
enum OpenerLedger {
    @Model final class Entry {
        var title: String
        var cents: Int
        init(title: String, cents: Int) {
            self.title = title
            self.cents = cents
        }
    }
}

/// `HistoryObserver`: counts arrivals of new transactions, from this process or another,
/// filtered by model and author, starting after the tokens it is given.
@MainActor @Suite struct HistoryObserverTests {
    /// How long a test waits to see that something did not happen: commits are noticed within
    /// milliseconds, so a count still unchanged after this is one that will not change.
    static let quietPeriod: Duration = .milliseconds(400)

    @Test func anotherContextsSaveIsCountedOnceAndTheHistoryAfterTheTokenHasIt() async throws {
        let container = try ModelContainer(for: Memo.self, Jotter.self, configurations: ModelConfiguration(url: temporaryStoreURL("observed")))
        let writer = ModelContext(container)
        writer.insert(Memo(title: "before", code: "B"))
        try writer.save()
        let start = try #require(try writer.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        let observer = try HistoryObserver(modelContainer: container)
        try await Task.sleep(for: Self.quietPeriod)
        #expect(observer.eventCounter == 0, "a transaction from before the observer began counted")

        writer.insert(Memo(title: "after", code: "A"))
        try writer.save()
        #expect(await eventually { observer.eventCounter == 1 })
        try await Task.sleep(for: Self.quietPeriod)
        #expect(observer.eventCounter == 1)

        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        descriptor.predicate = #Predicate { $0.token > start }
        let new = try ModelContext(container).fetchHistory(descriptor)
        #expect(new.count == 1)
        #expect(new.first?.changes.count == 1)
    }

    @Test func onlyTheObservedModelsCountWithTheirSubclasses() async throws {
        let container = try ModelContainer(for: Memo.self, Jotter.self, configurations: ModelConfiguration(url: temporaryStoreURL("filtered")))
        let observer = try HistoryObserver(observedModels: [Jotter.self], modelContainer: container)
        let context = ModelContext(container)
        context.insert(Memo(title: "not watched", code: "M"))
        try context.save()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(observer.eventCounter == 0, "a save of Memo counted for an observer of Jotter")

        context.insert(Jotter(name: "watched"))
        try context.save()
        #expect(await eventually { observer.eventCounter == 1 })
        #expect(observer.observedModels.map(ObjectIdentifier.init) == [ObjectIdentifier(Jotter.self)])

        let devices = try ModelContainer(
            for: Schema([Device.self, Tablet.self]), configurations: [ModelConfiguration(url: temporaryStoreURL("devices"))])
        let ofDevices = try HistoryObserver(observedModels: [Device.self], modelContainer: devices)
        let shelf = ModelContext(devices)
        shelf.insert(Tablet(serial: "T1", label: "tablet", hasStylus: true))
        try shelf.save()
        #expect(await eventually { ofDevices.eventCounter == 1 }, "a subclass's change did not count for its parent class")
    }

    @Test func onlyTheGivenAuthorsCount() async throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: temporaryStoreURL("authored")))
        let observer = try HistoryObserver(authors: ["App"], modelContainer: container)
        #expect(observer.authors == ["App"])
        let server = ModelContext(container)
        server.author = "Server"
        server.insert(Memo(title: "from the server", code: "S"))
        try server.save()
        let anonymous = ModelContext(container)
        anonymous.insert(Memo(title: "by nobody", code: "N"))
        try anonymous.save()
        try await Task.sleep(for: Self.quietPeriod)
        #expect(observer.eventCounter == 0, "another author's save counted")

        let app = ModelContext(container)
        app.author = "App"
        app.insert(Memo(title: "from the app", code: "A"))
        try app.save()
        #expect(await eventually { observer.eventCounter == 1 })
    }

    /// Tokens kept from an earlier run: what arrived since counts at once.
    @Test func givenTokensCountWhatArrivedAfterThem() async throws {
        let url = temporaryStoreURL("kept")
        let kept: DefaultHistoryToken
        do {
            let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Memo(title: "seen", code: "S"))
            try context.save()
            kept = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
            context.insert(Memo(title: "missed", code: "M"))
            try context.save()
        }
        let json = try JSONEncoder().encode(kept)
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: json)
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
        let observer = try HistoryObserver(historyTokens: [token.storeIdentifier: token], modelContainer: container)
        #expect(await eventually { observer.eventCounter == 1 })

        let upToDate = try HistoryObserver(modelContainer: container)
        try await Task.sleep(for: Self.quietPeriod)
        #expect(upToDate.eventCounter == 0)
    }

    @Test func anExpiredOrForeignTokenIsRefused() throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: temporaryStoreURL("pruned")))
        let context = ModelContext(container)
        for code in ["A", "B", "C"] {
            context.insert(Memo(title: code, code: code))
            try context.save()
        }
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let first = history[0].token
        let second = history[1].token
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= second }))

        #expect {
            try HistoryObserver(historyTokens: [first.storeIdentifier: first], modelContainer: container)
        } throws: { error in
            (error as? SwiftDataError) == .historyTokenExpired && "\(error)".contains("deleteHistory removed")
        }
        #expect {
            try HistoryObserver(historyTokens: ["another-store": first], modelContainer: container)
        } throws: { error in
            (error as? SwiftDataError) == .invalidTransactionFetchRequest && "\(error)".contains("another-store")
        }
        // The token just at the pruned point has lost nothing.
        _ = try HistoryObserver(historyTokens: [second.storeIdentifier: second], modelContainer: container)
    }

    @Test func anInMemoryStoresSavesCount() async throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let observer = try HistoryObserver(modelContainer: container)
        let context = ModelContext(container)
        context.insert(Memo(title: "in memory", code: "M"))
        try context.save()
        #expect(await eventually { observer.eventCounter == 1 })
    }

    /// An `Observable`: observation tracking hears the counter change.
    @Test func observationTrackingHearsTheCounter() async throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: temporaryStoreURL("tracked")))
        let observer = try HistoryObserver(modelContainer: container)
        let heard = Recorder(false)
        withObservationTracking { _ = observer.eventCounter } onChange: { heard.value = true }
        let context = ModelContext(container)
        context.insert(Memo(title: "heard", code: "H"))
        try context.save()
        #expect(await eventually { heard.value })
    }

    /// The watch of the store's file lasts as long as an observer does.
    @Test func releasingTheObserversStopsTheWatch() throws {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: temporaryStoreURL("released")))
        var observers: [HistoryObserver] = [try HistoryObserver(modelContainer: container), try HistoryObserver(modelContainer: container)]
        #expect(container.remoteChangeWatch.withLock { ($0.observers, $0.watches.count) } == (2, 1))
        observers.removeLast()
        #expect(container.remoteChangeWatch.withLock { $0.observers } == 1)
        observers.removeAll()
        #expect(container.remoteChangeWatch.withLock { ($0.observers, $0.watches.count) } == (0, 0))
    }

    /// Another process's saves are noticed as they commit, without polling: the observer of
    /// this process counts each, and the history names the other process.
    @Test func anotherProcessesSavesAreCounted() async throws {
        try #require(StoreOpenerProcess.isBuilt, "StoreOpener is built beside the tests")
        let url = temporaryStoreURL("shared-ledger")
        let writer = try StoreOpenerProcess("save-lines", store: url)
        #expect(await writer.waitForLine(startingWith: "ready") != nil)
        writer.send("1 Setup")
        #expect(await writer.waitForLine(startingWith: "saved 1") != nil)

        let container = try ModelContainer(for: OpenerLedger.Entry.self, configurations: ModelConfiguration(url: url))
        let fromWidget = try HistoryObserver(authors: ["Widget"], modelContainer: container)
        let any = try HistoryObserver(modelContainer: container)
        writer.send("3 Widget")
        #expect(await writer.waitForLine(startingWith: "saved 3") != nil)
        #expect(await eventually { fromWidget.eventCounter == 1 && any.eventCounter == 1 })
        writer.send("2 Sync")
        #expect(await writer.waitForLine(startingWith: "saved 2") != nil)
        #expect(await eventually { any.eventCounter == 2 })
        writer.closeInput()
        #expect(await writer.finish().status == 0)
        #expect(fromWidget.eventCounter == 1)

        let history = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == ["Setup", "Widget", "Sync"])
        #expect(history.allSatisfy { $0.processIdentifier != String(ProcessInfo.processInfo.processIdentifier) })
    }

    /// A commit by a writer that is not OpenSwiftData (no touch of the log after it) is still
    /// noticed, by the look again after its write.
    @Test func aCommitBySQLiteItselfIsNoticed() async throws {
        let url = temporaryStoreURL("raw-writer")
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
        let posted = Recorder(0)
        let observer = NotificationCenter.default.addObserver(forName: ModelContainer.remoteChange, object: container, queue: nil) { note in
            if note.userInfo?["storeIdentifier"] as? String == container.stores[0].identifier { posted.value += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let history = try HistoryObserver(modelContainer: container)
        _ = history
        let table = try #require(container.stores[0].tables["Memo"]?.tableName)
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO \(table) (\"title\", \"code\", \"body\") VALUES ('raw', 'R', '')")
        }
        #expect(await eventually { posted.value >= 1 })
    }
}
