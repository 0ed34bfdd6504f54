import Foundation
import Testing
import TestSupport

/// `osd demo --postgres URL`: the films saved and queried on a server, twice in a row.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresDemoTests {
    @Test func theDemoRunsOnAServerAndAgain() async throws {
        let osd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osd")
        try #require(FileManager.default.isExecutableFile(atPath: osd.path), "osd is built beside the tests")
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            for _ in 0..<2 {
                let process = Process()
                process.executableURL = osd
                process.arguments = ["demo", "--postgres", place.url.absoluteString, "--database-schema", place.name]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(text)")
                #expect(text.contains("saved 14 films"))
                #expect(text.contains("  2010  Toy Story 3\n  2015  Inside Out\n  2017  Coco\n  2019  Toy Story 4"))
                #expect(text.contains("Toy Story 4, Toy Story 3, Toy Story 2, Toy Story"))
            }
        } }
    }
}
