import Foundation
import OpenSwiftData
import PostgresNIO
import PostgresServerModels
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// Several server processes on one PostgreSQL store: they start together on a schema that has
/// no store yet (one creates it, the others find it), save side by side (each save also
/// upserting one shared unique row), and nothing is lost, doubled or given a key twice.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresServerProcessTests {
    @Test func serversStartingTogetherShareOneStoreAndLoseNothing() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            let (servers, saves) = (4, 60)
            let processes = (0..<servers).map { index in
                let process = Process()
                process.executableURL = executable
                process.arguments = [place.url.absoluteString, place.name, "server\(index)", "\(saves)"]
                process.standardOutput = Pipe()
                return process
            }
            for process in processes { try process.run() }
            for process in processes {
                let output = String(decoding: (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(output)")
                #expect(output.hasPrefix("saved \(saves) "), "\(output)")
            }
            let session = try place.session()
            let table = PostgresNames.qualified("Ticket", in: place.name)
            let rows = try session.query(PostgresQuery(unsafeSQL: "SELECT \"_pk\", \"process\", \"serial\" FROM \(table)")).map {
                try $0.decode((Int64, String, Int64).self)
            }
            #expect(rows.count == servers * saves)
            #expect(Set(rows.map(\.0)).count == rows.count)
            #expect(Set(rows.map { "\($0.1) \($0.2)" }) == Set((0..<servers).flatMap { server in (0..<saves).map { "server\(server) \($0)" } }))
            // Every save upserted the one tally: still one row.
            let tallies = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresNames.qualified("Tally", in: place.name))"))
            #expect(try tallies.first?.decode(Int64.self) == 1)
            let stores = try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresNames.qualified("_osd_metadata", in: place.name)) WHERE \"key\" = 'storeIdentifier'"))
            #expect(try stores.first?.decode(Int64.self) == 1)
            // Every save is one history transaction, numbered once, holding its ticket.
            let history = try ModelContext(try ModelContainer(for: Ticket.self, Tally.self, configurations: place.configuration(Ticket.self, Tally.self)))
                .fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            #expect(history.count == servers * saves)
            #expect(Set(history.map(\.transactionIdentifier)).count == history.count)
            #expect(history.allSatisfy { transaction in transaction.changes.contains { $0.changedPersistentIdentifier.entityName == "Ticket" } })
        } }
    }

    /// A context used on a SwiftNIO event loop stops the process with a message that says what
    /// to do instead, rather than waiting for itself forever.
    @Test func aContextOnAnEventLoopStopsTheProcessSayingWhy() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            let process = Process()
            process.executableURL = executable
            process.arguments = [place.url.absoluteString, place.name, "on-event-loop"]
            let (output, errors) = (Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(!printed.contains("returned"))
            #expect(said.contains("SwiftNIO event loop") && said.contains("container.perform"), "\(said)")
        } }
    }
}

/// A server killed while it migrates: PostgreSQL rolls its transaction back and frees the lock,
/// so the schema is as it was, and the next server migrates.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresMigrationFaultTests {
    @Test func aServerKilledMidMigrationLeavesTheSchemaAsItWasAndTheNextOneMigrates() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            func run(_ arguments: [String]) throws -> Process {
                let process = Process()
                process.executableURL = executable
                process.arguments = [place.url.absoluteString, place.name] + arguments
                process.standardOutput = Pipe()
                try process.run()
                return process
            }
            func output(_ process: Process) -> String {
                let text = String(decoding: (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return text
            }
            #expect(output(try run(["write-tags", "400000"])).hasPrefix("wrote"))
            let session = try place.session()
            let key = PostgresStore.lockKey(place.name)
            let (high, low) = (UInt32(truncatingIfNeeded: key >> 32), UInt32(truncatingIfNeeded: key))
            let lockHolders = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = \(high) AND objid = \(low)"
            let before = try structure(place, session)

            let migrating = try run(["migrate-tags"])
            // Killed in the middle of its migration: holding the store's lock, its new column
            // added, while it builds the unique index over the 400 000 rows.
            let buildingIndex = "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'CREATE UNIQUE INDEX%'"
            let deadline = Date().addingTimeInterval(30)
            var held = false
            while !held, migrating.isRunning, Date() < deadline {
                held = try session.query(PostgresQuery(unsafeSQL: lockHolders)).first?.decode(Int64.self) == 1
                    && session.query(PostgresQuery(unsafeSQL: buildingIndex)).first?.decode(Int64.self) == 1
                if !held { usleep(1_000) }
            }
            #expect(held, "the migrating server was never seen building the index")
            kill(migrating.processIdentifier, SIGKILL)
            _ = output(migrating)
            #expect(migrating.terminationReason == .uncaughtSignal)

            var freed = false
            for _ in 0..<500 where !freed {
                freed = try session.query(PostgresQuery(unsafeSQL: lockHolders)).first?.decode(Int64.self) == 0
                if !freed { usleep(10_000) }
            }
            #expect(freed, "the lock was not freed")
            #expect(try structure(place, session) == before)

            let next = output(try run(["migrate-tags"]))
            #expect(next.hasPrefix("migrated 400000"), "\(next)")
            #expect(try PostgresStore.readMetadata(in: place.name, session: session)?.versionIdentifier == "2.0.0")
        } }
    }

    /// The columns and indices of the schema, and the version it records.
    private func structure(_ place: ThrowAwaySchema, _ session: PostgresSession) throws -> [String] {
        try session.query(
            "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = \(place.name) ORDER BY 1"
        ).map { try $0.decode(String.self) }
            + session.query("SELECT indexname FROM pg_indexes WHERE schemaname = \(place.name) ORDER BY 1").map { try $0.decode(String.self) }
            + [try PostgresStore.readMetadata(in: place.name, session: session)?.versionIdentifier ?? "none"]
    }
}
