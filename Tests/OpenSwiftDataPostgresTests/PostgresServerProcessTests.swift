import Foundation
import PostgresNIO
import Testing
@testable import OpenSwiftDataPostgres

/// Several server processes on one PostgreSQL store: they start together on a schema that has
/// no store yet (one creates it, the others find it), save side by side (each save also
/// upserting one shared unique row), and nothing is lost, doubled or given a key twice.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresServerProcessTests {
    @Test func serversStartingTogetherShareOneStoreAndLoseNothing() throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        try ThrowAwaySchema().use { place in
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
        }
    }

    /// A context used on a SwiftNIO event loop stops the process with a message that says what
    /// to do instead, rather than waiting for itself forever.
    @Test func aContextOnAnEventLoopStopsTheProcessSayingWhy() throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgresServerProcess")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "PostgresServerProcess is built beside the tests")
        try ThrowAwaySchema().use { place in
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
        }
    }
}
