import Foundation
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// A dry run runs the whole plan, custom stages included, on a copy of each store, and says
/// what it did; the stores stay byte-identical.
@Suite struct MigrationPreviewTests {
    private func writePixarV1Store(_ url: URL) throws {
        let tester = MigrationTester(for: PixarMigrationPlan.self)
        try tester.makeStore(at: PixarSchemaV1.self, url: url) { context in
            for (title, year) in [("Toy Story", 1995), ("Up", 2009), ("Coco", 2017)] {
                context.insert(PixarSchemaV1.PixarFilm(title: title, releaseDate: Self.date(year)))
            }
        }
    }

    private static func date(_ year: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: 6, day: 1))!
    }

    @Test func aDryRunOfThePixarPlanReportsEachStepAndLeavesTheStoreAsItWas() throws {
        let url = temporaryStoreURL()
        try writePixarV1Store(url)
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(try storeFiles(url) == before)
        #expect(preview.wouldSucceed)
        let report = try #require(preview.stores.first)
        #expect(report.storeURL == url)
        #expect(report.storeVersion == "1.0.0")
        #expect(report.targetVersion == "3.0.0")
        #expect(report.steps.map(\.kind) == [.custom, .lightweight])
        let transform = report.steps[0]
        #expect(transform.rowChanges == [MigrationReport.RowChanges(entity: "PixarFilm", inserted: 0, updated: 3, deleted: 0)])
        #expect(transform.droppedAttributes == [MigrationReport.DroppedAttribute(entity: "PixarFilm", attribute: "releaseDate", storedValues: 3)])
        #expect(report.steps[1].sql.contains { $0.contains("ADD COLUMN") && $0.contains("isAnimated") })
        let text = preview.description
        #expect(text.contains("1.0.0 → 3.0.0, 2 steps"))
        #expect(text.contains("PixarFilm: 0 inserted, 3 updated, 0 deleted by the stage's code"))
        #expect(text.contains("drops PixarFilm.releaseDate with its 3 stored values"))
        #expect(text.contains("succeeded"))
    }

    @Test func theContainerKeepsTheReportOfTheMigrationItRan() throws {
        let url = temporaryStoreURL()
        try writePixarV1Store(url)
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        let report = try #require(container.migrationReports.first)
        #expect((report.storeVersion, report.targetVersion) == ("1.0.0", "3.0.0"))
        #expect(report.steps.map(\.toVersion) == ["PixarSchemaV2 (2.0.0)", "PixarSchemaV3 (3.0.0)"])
        #expect(report.steps[0].rowChanges.first?.updated == 3)
        #expect(report.backupURL?.lastPathComponent == "test.store.backup")
        // Opened again, it is up to date: nothing to report.
        let reopened = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(reopened.migrationReports.isEmpty)
    }

    @Test func aUniqueConstraintThatStoredRowsBreakIsReportedWithTheValuesAndTheRefusal() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: LedgerV4.self)) { context in
            for label in ["rent", "rent", "food", "rent"] { context.insert(LedgerV4.Entry(label: label)) }
        }
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: LedgerV5.self), migrationPlan: LedgerUniqueWithoutDedupePlan.self,
            configurations: [ModelConfiguration(url: url)])
        #expect(try storeFiles(url) == before)
        #expect(!preview.wouldSucceed)
        let report = try #require(preview.stores.first)
        #expect(report.steps.first?.uniqueConflicts == [MigrationReport.UniqueConflict(
            entity: "Entry", attributes: ["label"], repetitions: [.init(values: ["\"rent\""], rows: 3)])])
        let refusal = try #require(report.refusal)
        #expect(refusal.contains("(\"rent\") 3 times"))
        #expect(refusal.contains("remove the duplicates in a custom stage's willMigrate"))
        #expect(!refusal.contains("osd-preview"))
        #expect(preview.description.contains("REFUSED"))
    }

    @Test func rowsAStageDeletesAllAtOnceAreCounted() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: LedgerV4.self)) { context in
            for label in ["rent", "rent", "food"] { context.insert(LedgerV4.Entry(label: label)) }
        }
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: LedgerV5.self), migrationPlan: LedgerClearPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(preview.wouldSucceed)
        #expect(preview.stores.first?.steps.first?.rowChanges == [MigrationReport.RowChanges(entity: "Entry", inserted: 0, updated: 0, deleted: 3)])
    }

    @Test func aStoreOfAVersionNoLongerListedIsRefusedInThePreview() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: LedgerV1.self)) { context in
            context.insert(LedgerV1.Entry(label: "rent"))
        }
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: LedgerV5.Entry.self, migrationPlan: LedgerFromV4Plan.self, configurations: ModelConfiguration(url: url))
        #expect(try storeFiles(url) == before)
        let refusal = try #require(preview.stores.first?.refusal)
        #expect(refusal.contains("matches no version of LedgerFromV4Plan"))
        #expect(refusal.contains("Declare the version it was written with"))
    }

    @Test func aBrokenPlanIsRefusedBeforeAnyStoreIsRead() throws {
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: LedgerV5.self), migrationPlan: LedgerDisorderedPlan.self,
            configurations: ModelConfiguration(url: temporaryStoreURL()))
        #expect(preview.stores.isEmpty)
        let refusal = try #require(preview.refusal)
        #expect(refusal.contains("identical structure"))
        #expect(refusal.contains("must go from oldest to newest"))
        #expect(refusal.contains("skipping LedgerV4 (4.0.0)"))
        #expect(!preview.wouldSucceed)
    }

    @Test func aStoreNotCreatedYetNeedsNoMigration() throws {
        let url = temporaryStoreURL()
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: ModelConfiguration(url: url))
        #expect(preview.wouldSucceed)
        #expect(preview.stores.first?.steps.isEmpty == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
