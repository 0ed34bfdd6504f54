import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

enum LedgerV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Ledger.self] }

    @Model final class Ledger {
        var name: String
        var note: String?
        init(name: String, note: String?) {
            self.name = name
            self.note = note
        }
    }
}

/// Drops `note`, which version 3 declares again: its values are lost on the way.
enum LedgerV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Ledger.self] }

    @Model final class Ledger {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum LedgerV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Ledger.self] }

    @Model final class Ledger {
        var name: String
        var note: String?
        var total: Int = 0
        init(name: String, note: String?) {
            self.name = name
            self.note = note
        }
    }
}

enum LedgerPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self, LedgerV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: LedgerV1.self, toVersion: LedgerV2.self), .lightweight(fromVersion: LedgerV2.self, toVersion: LedgerV3.self)]
    }
}

/// MigrationTester, on each backend: sample stores of every version (files, or throw-away
/// PostgreSQL schemas dropped afterwards), migrated along every path and checked.
@Suite(.serialized) struct MigrationTesterBehaviourTests {
    @Test(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
    func everyPathIsCheckedOnTheServerAsOnSQLite() throws {
        let url = try #require(PostgresTestServer.url)
        let checks = try MigrationTester(for: CratePlan.self).verifyEveryPath(onPostgres: url, sampleRowsPerEntity: 30)
        let onSQLite = try MigrationTester(for: CratePlan.self).verifyEveryPath(sampleRowsPerEntity: 30)
        #expect(checks.map(\.source) == onSQLite.map(\.source))
        #expect(checks.map { $0.report.steps.count } == [3, 2, 1])
        #expect(onSQLite.map { $0.report.steps.count } == [3, 2, 1])
        #expect(checks.allSatisfy { $0.report.steps.allSatisfy { !$0.sql.isEmpty } })
        #expect(try testerSchemas(url).isEmpty)
    }

    @Test(arguments: Backend.available) func valuesLostOnTheWayFailTheCheckByName(backend: Backend) throws {
        #expect {
            switch backend {
            case .sqlite: try MigrationTester(for: LedgerPlan.self).verifyEveryPath(sampleRowsPerEntity: 20)
            case .postgres: try MigrationTester(for: LedgerPlan.self).verifyEveryPath(onPostgres: try #require(PostgresTestServer.url), sampleRowsPerEntity: 20)
            }
        } throws: { error in
            let text = "\(error)"
            return text.contains("Ledger.note") && text.contains("LedgerV2") && text.contains("lost")
        }
        if backend == .postgres { #expect(try testerSchemas(try #require(PostgresTestServer.url)).isEmpty) }
    }

    private func testerSchemas(_ url: URL) throws -> [String] {
        try PostgresSession(PostgresEndpoint(url, configuration: "tests"))
            .query("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'osd_tester_%'").map { try $0.decode(String.self) }
    }
}
