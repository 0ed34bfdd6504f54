import Foundation
import OpenSwiftData
import PostgresNIO
import PostgresServerModels
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

@Model final class Memo {
    var title: String
    @Attribute(.preserveValueOnDeletion) var code: String
    var body: String?
    init(title: String, code: String) {
        self.title = title
        self.code = code
    }
}

/// Persistent history on PostgreSQL: every save records a transaction with its changes, in
/// the save's own transaction, read back, pruned and observed as on SQLite, and a
/// `HistoryObserver` on one server hears the saves of another (LISTEN/NOTIFY).
@MainActor @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresHistoryTests {
    @Test func eachSaveIsATransactionWithItsChanges() throws {
        try ThrowAwaySchema().use { place in
            let configuration = place.configuration(Memo.self)
            let context = ModelContext(try ModelContainer(for: Memo.self, configurations: configuration))
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
            let (firstID, secondID) = (first.persistentModelID, second.persistentModelID)
            try context.save()

            // Read back through another container: what the server holds.
            let reader = ModelContext(try ModelContainer(for: Memo.self, configurations: configuration))
            let history = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(history.map(\.author) == ["app", "widget", "app"])
            #expect(history.map { $0.changes.count } == [2, 1, 1])
            #expect(history[0].changes.map(\.changedPersistentIdentifier) == [firstID, secondID])
            #expect(history.allSatisfy { $0.processIdentifier == StoreHistory.processIdentifier })
            #expect(zip(history, history.dropFirst()).allSatisfy { $0.token < $1.token && $0.timestamp <= $1.timestamp })
            guard case .update(let update as DefaultHistoryUpdate<Memo>) = history[1].changes[0],
                  case .delete(let delete as DefaultHistoryDelete<Memo>) = history[2].changes[0]
            else {
                Issue.record("the changes are not an update and a delete of a Memo: \(history.map(\.changes))")
                return
            }
            #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Memo.body as AnyKeyPath])
            #expect(delete.changedPersistentIdentifier == secondID)
            #expect(delete.tombstone[\Memo.code] as? String == "B2")
            #expect(delete.tombstone[\Memo.title] == nil)

            let token = history[0].token
            let later = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
            #expect(later.map(\.transactionIdentifier) == history.dropFirst().map(\.transactionIdentifier))
            let byWidget = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "widget" }))
            #expect(byWidget.map(\.transactionIdentifier) == [history[1].transactionIdentifier])
        }
    }

    /// Pruned history is gone, and a token from before it is refused by name.
    @Test func deletedHistoryExpiresOlderTokens() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try ModelContainer(for: Memo.self, configurations: place.configuration(Memo.self)))
            for index in 0..<3 {
                context.insert(Memo(title: "memo \(index)", code: "C\(index)"))
                try context.save()
            }
            let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            let (oldest, middle) = (history[0].token, history[1].token)
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= middle }))
            #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token) == [history[2].token])
            #expect {
                try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > oldest }))
            } throws: { error in
                (error as? SwiftDataError) == .historyTokenExpired
            }
            // A batch delete records every row it removed.
            try context.delete(model: Memo.self)
            try context.save()
            let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
            #expect(last.changes.count == 3)
        }
    }

    /// A server's observer hears the saves another server process makes, and the history holds
    /// them with that process's identifier.
    @Test func anObserverHearsAnotherServersSaves() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        let place = try ThrowAwaySchema()
        defer { _ = try? place.session().query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(place.name)) CASCADE") }
        let container = try ModelContainer(for: Ticket.self, Tally.self, configurations: place.configuration(Ticket.self, Tally.self))
        let observer = try HistoryObserver(observedModels: [Ticket.self], modelContainer: container)
        #expect(observer.eventCounter == 0)

        let arguments = [place.url.absoluteString, place.name, "other", "5"]
        let (output, processIdentifier) = try await onAThreadOfItsOwn {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = Pipe()
            try process.run()
            let output = String(decoding: (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (output, process.processIdentifier)
        }
        #expect(output.hasPrefix("saved 5"), "\(output)")

        #expect(await eventually { observer.eventCounter >= 1 })
        let history = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 5)
        #expect(history.allSatisfy { $0.processIdentifier == "\(processIdentifier)" })
    }
}
