import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import OpenSwiftDataServer
import OpenSwiftDataVapor
import Synchronization
import Testing
import TestSupport
import VaporTesting

enum MemosV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        var author: String
        init(text: String, author: String) {
            self.text = text
            self.author = author
        }
    }
}

/// An expand step: a defaulted attribute.
enum MemosV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        var author: String
        var pinned: Bool = false
        init(text: String, author: String) {
            self.text = text
            self.author = author
        }
    }
}

/// A contract step: an attribute renamed.
enum MemosV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        @Attribute(originalName: "author") var writer: String
        var pinned: Bool = false
        init(text: String, writer: String) {
            self.text = text
            self.writer = writer
        }
    }
}

enum MemosToV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MemosV1.self, MemosV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: MemosV1.self, toVersion: MemosV2.self)] }
}

enum MemosToV3: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MemosV1.self, MemosV2.self, MemosV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: MemosV1.self, toVersion: MemosV2.self), .lightweight(fromVersion: MemosV2.self, toVersion: MemosV3.self)]
    }
}

/// A broken plan: its versions out of order.
enum MemosDisordered: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MemosV1.self, MemosV3.self, MemosV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: MemosV1.self, toVersion: MemosV3.self)] }
}

/// What prints: the lines a deploy's output gathers.
final class Printed: Sendable {
    private let lines = Mutex<[String]>([])
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
    var print: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

/// The migration step of a deploy on a PostgreSQL store: a dry run that keeps nothing and says
/// whether running servers survive, the migration itself, exit statuses a script can use, and
/// an older build refused.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct DeployMigrationTests {
    let url = PostgresTestServer.url!
    let schemaName = "dep_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()

    func configuration() -> PostgresConfiguration {
        PostgresConfiguration(url: url, databaseSchema: schemaName)
    }

    func deploy(_ version: any VersionedSchema.Type, _ plan: (any SchemaMigrationPlan.Type)?) -> ModelMigrationDeploy {
        ModelMigrationDeploy(schema: Schema(versionedSchema: version), migrationPlan: plan, configurations: [configuration()])
    }

    func makeV1Store() async throws {
        let container = try ModelContainer(for: Schema(versionedSchema: MemosV1.self), configurations: [configuration()])
        try await container.perform { context in
            context.insert(MemosV1.Memo(text: "ship it", author: "ana"))
            try context.save()
        }
        await container.close()
    }

    @Test func aDryRunPrintsTheStatementsAndTheVerdictAndKeepsNothing() async throws {
        try await makeV1Store()
        let printed = Printed()
        #expect(await deploy(MemosV2.self, MemosToV2.self).run(dryRun: true, print: printed.print) == .done)
        #expect(printed.text.contains("Dry run"))
        #expect(printed.text.contains("ALTER TABLE"), "\(printed.text)")
        #expect(printed.text.contains("expand step"), "\(printed.text)")
        // Nothing kept: the V1 build still opens the store.
        let v1 = try ModelContainer(for: Schema(versionedSchema: MemosV1.self), configurations: [configuration()])
        #expect(try await v1.perform { try $0.fetchCount(FetchDescriptor<MemosV1.Memo>()) } == 1)
        await v1.close()

        let migrated = Printed()
        #expect(await deploy(MemosV2.self, MemosToV2.self).run(dryRun: false, print: migrated.print) == .done)
        #expect(migrated.text.contains("2.0.0"), "\(migrated.text)")
        // An older build now refuses to open the newer store, saying so.
        let older = Printed()
        #expect(await deploy(MemosV1.self, nil).run(dryRun: false, print: older.print) == .refused)
        #expect(older.text.contains("nothing was changed"), "\(older.text)")
        #expect(older.text.contains("2.0.0"), "\(older.text)")
    }

    @Test func aContractStepIsReportedWithItsOwnStatus() async throws {
        try await makeV1Store()
        #expect(await deploy(MemosV2.self, MemosToV2.self).run(dryRun: false, print: { _ in }) == .done)
        let printed = Printed()
        #expect(await deploy(MemosV3.self, MemosToV3.self).run(dryRun: true, print: printed.print) == .breaksRunningServers)
        #expect(printed.text.contains("contract step"), "\(printed.text)")
    }

    @Test func aBrokenPlanIsRefusedInADryRunAndInAMigration() async throws {
        try await makeV1Store()
        for dryRun in [true, false] {
            let printed = Printed()
            #expect(await deploy(MemosV3.self, MemosDisordered.self).run(dryRun: dryRun, print: printed.print) == .refused)
            #expect(printed.text.contains("oldest to newest"), "\(printed.text)")
        }
        let v1 = try ModelContainer(for: Schema(versionedSchema: MemosV1.self), configurations: [configuration()])
        #expect(try await v1.perform { try $0.fetchCount(FetchDescriptor<MemosV1.Memo>()) } == 1)
        await v1.close()
    }

    @Test func anUnreachableServerHasItsOwnStatus() async throws {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.port = 1
        let deploy = ModelMigrationDeploy(
            schema: Schema(versionedSchema: MemosV2.self), migrationPlan: MemosToV2.self,
            configurations: [PostgresConfiguration(url: components.url!, databaseSchema: schemaName)])
        #expect(await deploy.run(dryRun: false, print: { _ in }) == .unreachable)
    }

    /// Vapor's `migrate` command, and an application refusing to boot on a newer store.
    @Test func vaporsMigrateCommandAndBoot() async throws {
        try await makeV1Store()
        let outcomes = Mutex<[ModelMigrationDeploy.Outcome]>([])
        func configure(_ app: Application, _ version: any VersionedSchema.Type, _ plan: (any SchemaMigrationPlan.Type)?, _ arguments: [String]) {
            app.environment.arguments = ["server"] + arguments
            app.modelContainer(for: Schema(versionedSchema: version), migrationPlan: plan, configurations: [configuration()]) { outcome in
                outcomes.withLock { $0.append(outcome) }
            }
        }
        // migrate --dry-run, then migrate: the command's outcomes (a failing one would exit).
        try await withApp(configure: { configure($0, MemosV3.self, MemosToV3.self, ["migrate", "--dry-run"]) }) { app in
            try await app.execute()
        }
        #expect(outcomes.withLock { $0 } == [.breaksRunningServers])
        try await withApp(configure: { configure($0, MemosV2.self, MemosToV2.self, ["migrate"]) }) { app in
            try await app.execute()
        }
        #expect(outcomes.withLock { $0 } == [.breaksRunningServers])
        // Booting a V1 build on the V2 store fails, saying why.
        await #expect(throws: SwiftDataError.self) {
            try await withApp(configure: { configure($0, MemosV1.self, nil, ["serve"]) }) { app in
                try await app.asyncBoot()
            }
        }
    }
}
