import Foundation
import Testing
import TestSupport

/// Says, in the test run's summary of issues, how many PostgreSQL tests this run skipped and
/// why: a run without a server is green, and must not pass for one that tested PostgreSQL.
@Suite struct PostgresAvailabilityTests {
    @Test func aRunWithoutPostgreSQLSaysWhatItSkipped() throws {
        guard !PostgresTestServer.isAvailable else { return }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        // PostgreSQL-only tests, and the PostgreSQL case of each test run on both backends.
        let tests = try files.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "PostgresAvailabilityTests.swift" }
            .map { file in
                let text = try String(contentsOf: file, encoding: .utf8)
                return ["@Test func", "@Test(arguments: Backend.available) func"].map { text.components(separatedBy: $0).count - 1 }.reduce(0, +)
            }
            .reduce(0, +)
        Issue.record("\(tests) PostgreSQL tests were skipped: \(PostgresTestServer.unavailableReason)", severity: .warning)
    }
}
