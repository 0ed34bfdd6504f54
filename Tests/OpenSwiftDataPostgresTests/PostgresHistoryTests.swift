import Foundation
import OpenSwiftData
import PostgresNIO
import PostgresServerModels
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// Persistent history across PostgreSQL servers: a `HistoryObserver` on one server hears the
/// saves of another (LISTEN/NOTIFY). What history records and reads is
/// ``HistoryBehaviourTests``, on both stores.
@MainActor @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresHistoryTests {
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
