import Foundation
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// The seeds' plans through every safety tool: frozen snapshots, a sample store of every
/// version migrated to the newest, and a dry run on a store an earlier build wrote.
@Suite struct SeedScenarioSafetyTests {
    private func snapshotFolder() -> URL {
        temporaryStoreURL().deletingLastPathComponent().appendingPathComponent("SchemaSnapshots")
    }

    @Test func everySeedPlanRecordsItsSnapshotsAndPassesEveryPath() throws {
        let plans: [(any SchemaMigrationPlan.Type, Int)] = [
            (PixarMigrationPlan.self, 3), (TripsMigrationPlan.self, 3), (BudgetMigrationPlan.self, 2), (UserMigrationPlan.self, 2),
        ]
        for (plan, versions) in plans {
            let folder = snapshotFolder()
            #expect(try plan.verify(snapshotsIn: folder).count == versions, "\(plan)")
            #expect(try plan.verify(snapshotsIn: folder, recording: .never).isEmpty, "\(plan)")
            let checks = try MigrationTester(for: plan).verifyEveryPath(sampleRowsPerEntity: 12)
            #expect(checks.count == versions - 1, "\(plan)")
            // The store of version i goes through every later version.
            #expect(checks.map(\.report.steps.count) == Array((1..<versions).reversed()), "\(plan)")
        }
    }

    @Test func theBudgetDedupeIsPreviewedWithTheRowsItsCodeDeletes() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: BudgetSchemaV1.self)) { context in
            for (name, limit) in [("Food", 300.0), ("Food", 450.0), ("Rent", 1200.0), ("Food", 100.0)] {
                context.insert(BudgetSchemaV1.Budget(name: name, limit: limit))
            }
        }
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetMigrationPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try storeFiles(url) == before)
        #expect(preview.wouldSucceed)
        let step = try #require(preview.stores.first?.steps.first)
        #expect(step.kind == .custom)
        #expect(step.uniqueConflicts.isEmpty)
        // willMigrate deletes two Food budgets; didMigrate gives the two left a description.
        #expect(step.rowChanges == [MigrationReport.RowChanges(entity: "Budget", inserted: 0, updated: 2, deleted: 2)])

        let without = try ModelContainer.previewMigration(
            for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetPlanWithoutDeduplication.self, configurations: ModelConfiguration(url: url))
        #expect(try storeFiles(url) == before)
        #expect(without.stores.first?.steps.first?.uniqueConflicts.first?.repetitions.first?.rows == 3)
        #expect(without.stores.first?.refusal?.contains("repeat values: (\"Food\") 3 times") == true)
    }

    @Test func theUserNameSplitReportsTheNameItDropsAndTheRowsItFills() throws {
        let tester = MigrationTester(for: UserMigrationPlan.self)
        let url = temporaryStoreURL()
        try tester.makeStore(at: UserSchemaV1.self, url: url) { context in
            context.insert(UserSchemaV1.User(name: "Ada Lovelace", email: "ada@x"))
            context.insert(UserSchemaV1.User(name: "Grace Hopper", email: "grace@x"))
        }
        let report = try tester.migrate(storeAt: url, to: UserSchemaV2.self)
        let step = try #require(report.steps.first)
        #expect(step.droppedAttributes == [MigrationReport.DroppedAttribute(entity: "User", attribute: "name", storedValues: 2)])
        #expect(step.rowChanges.first?.updated == 2)
        let users = try ModelContext(ModelContainer(
            for: Schema(versionedSchema: UserSchemaV2.self), configurations: ModelConfiguration(url: report.storeURL)))
            .fetch(FetchDescriptor<UserSchemaV2.User>(sortBy: [SortDescriptor(\.email)]))
        #expect(users.map(\.lastName) == ["Lovelace", "Hopper"])
    }

    @Test func aTripsStoreFromVersionOneIsAFixtureThatMigratesToTheNewest() throws {
        let tester = MigrationTester(for: TripsMigrationPlan.self)
        let fixtures = temporaryStoreURL().deletingLastPathComponent()
        try tester.makeStore(at: TripsSchemaV1.self, url: fixtures.appendingPathComponent("trips-1.0.store"), sampleRowsPerEntity: 8)
        let checks = try tester.verifyFixtures(in: fixtures)
        #expect(checks.count == 1)
        #expect(checks[0].report.steps.count == 2)
    }
}
