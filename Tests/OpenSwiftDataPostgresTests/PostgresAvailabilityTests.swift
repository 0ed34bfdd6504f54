import Foundation
import Testing

/// Says, in the test run's summary of issues, how many PostgreSQL tests this run skipped and
/// why: a run without a server is green, and must not pass for one that tested PostgreSQL.
@Suite struct PostgresAvailabilityTests {
    @Test func aRunWithoutPostgreSQLSaysWhatItSkipped() throws {
        guard !PostgresTestServer.isAvailable else { return }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let tests = try files.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "PostgresAvailabilityTests.swift" }
            .map { try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "@Test func").count - 1 }
            .reduce(0, +)
        Issue.record("\(tests) PostgreSQL tests were skipped: \(PostgresTestServer.unavailableReason)", severity: .warning)
    }
}
