import Foundation
import Testing
@testable import OpenSwiftData

/// Plans whose newer versions no longer list an entity an older one had (dropped, or a class
/// renamed without `originalName`): a store written by the older version is recognised as that
/// version, keeps the rows of the entities that stay, and loses only the dropped ones, with a
/// backup beside it. Serialized: HabitsPlan's stages hand rows from `willMigrate` to
/// `didMigrate` through one static property, which two migrations at once would share.
@Suite(.serialized) struct DroppedEntityMigrationTests {
    private func recordedVersion(_ url: URL) throws -> String {
        try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0]
    }

    private func tables(_ url: URL) throws -> [String] {
        let names: String? = try rawRow(url, sql: "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_osd%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name)")[0]
        return (names ?? "").split(separator: ",").map(String.init)
    }

    private func writeHabitsV1(_ url: URL) throws {
        try writeStore(url, for: Schema(versionedSchema: HabitsV1.self)) { context in
            context.insert(HabitsV1.Habit(name: "run"))
            context.insert(HabitsV1.Habit(name: "read"))
            context.insert(HabitsV1.CheckInV1(habitName: "run", day: 2))
            context.insert(HabitsV1.CheckInV1(habitName: "run", day: 1))
            context.insert(HabitsV1.CheckInV1(habitName: "read", day: 3))
            context.insert(HabitsV1.Streak(habitName: "run", days: 4))
            context.insert(HabitsV1.Streak(habitName: "run", days: 9))
            context.insert(HabitsV1.Streak(habitName: "read", days: 2))
        }
    }

    @Test func aLightweightStepDropsTheEntityTheNewVersionNoLongerLists() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: ShelfV1.self)) { context in
            context.insert(ShelfV1.Book(title: "Dune"))
            context.insert(ShelfV1.Loan(borrower: "Ada"))
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: ShelfV2.self), migrationPlan: ShelfPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(container).fetch(FetchDescriptor<ShelfV2.Book>()).map(\.title) == ["Dune"])
        #expect(try tables(url) == ["Book"])
        #expect(try recordedVersion(url) == "2.0.0")
        #expect(container.migrationReports.first?.steps.first?.droppedEntities.map(\.entity) == ["Loan"])
        // The dropped rows are kept in the backup taken before the migration.
        let backup = URL(fileURLWithPath: url.path + ".backup")
        #expect(try rawRow(backup, sql: "SELECT borrower FROM Loan")[0] as String == "Ada")

        // Opened again, the store is up to date and nothing is written.
        let before = try storeFiles(url)
        _ = try ModelContainer(
            for: Schema(versionedSchema: ShelfV2.self), migrationPlan: ShelfPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try storeFiles(url) == before)
    }

    @Test func aCustomStageCarriesTheRowsOfDroppedAndRenamedEntities() throws {
        let url = temporaryStoreURL()
        try writeHabitsV1(url)
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: HabitsV2.self), migrationPlan: HabitsPlan.self, configurations: ModelConfiguration(url: url)))
        let habits = try context.fetch(FetchDescriptor<HabitsV2.Habit>(sortBy: [SortDescriptor(\.name)]))
        #expect(habits.map(\.name) == ["read", "run"])
        #expect(habits.map(\.bestStreak) == [2, 9])
        let checkIns = try context.fetch(FetchDescriptor<HabitsV2.CheckIn>(sortBy: [SortDescriptor(\.day)]))
        #expect(checkIns.map(\.habitName) == ["run", "run", "read"])
        #expect(checkIns.map(\.day) == [1, 2, 3])
        #expect(try tables(url) == ["CheckIn", "Habit"])
        #expect(try recordedVersion(url) == "2.0.0")
    }

    @Test func version1GoesToVersion3InOneOpenAndTheReAddedEntityStartsEmpty() throws {
        let url = temporaryStoreURL()
        try writeHabitsV1(url)
        let container = try ModelContainer(
            for: Schema(versionedSchema: HabitsV3.self), migrationPlan: HabitsPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<HabitsV3.Habit>(sortBy: [SortDescriptor(\.name)])).map(\.bestStreak) == [2, 9])
        #expect(try context.fetchCount(FetchDescriptor<HabitsV3.CheckIn>()) == 3)
        // Version 1's streaks went with version 2; version 3's entity of the same name is new.
        #expect(try context.fetchCount(FetchDescriptor<HabitsV3.Streak>()) == 0)
        #expect(try tables(url) == ["CheckIn", "Habit", "Streak"])
        #expect(try rawColumns(url, table: "Streak") == ["_pk", "habitName", "days", "isCurrent"])
        #expect(try recordedVersion(url) == "3.0.0")
        #expect(container.migrationReports.first?.steps.map(\.toVersion) == ["HabitsV2 (2.0.0)", "HabitsV3 (3.0.0)"])

        context.insert(HabitsV3.Streak(habitName: "run", days: 1))
        try context.save()
        let reopened = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: HabitsV3.self), migrationPlan: HabitsPlan.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetch(FetchDescriptor<HabitsV3.Streak>()).map(\.days) == [1])
    }

    @Test func aVersion2StoreGainsTheReAddedEntity() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: HabitsV2.self)) { context in
            context.insert(HabitsV2.Habit(name: "swim"))
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: HabitsV3.self), migrationPlan: HabitsPlan.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<HabitsV3.Habit>()).map(\.name) == ["swim"])
        #expect(try tables(url) == ["CheckIn", "Habit", "Streak"])
        #expect(try recordedVersion(url) == "3.0.0")
    }

    @Test func aDryRunOfTheDropNamesTheRowsItWouldLoseAndWritesNothing() throws {
        let url = temporaryStoreURL()
        try writeHabitsV1(url)
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: HabitsV3.self), migrationPlan: HabitsPlan.self, configurations: [ModelConfiguration(url: url)])
        let report = try #require(preview.stores.first)
        #expect(report.refusal == nil)
        let dropped = report.steps.first?.droppedEntities ?? []
        #expect(dropped.map(\.entity).sorted() == ["CheckInV1", "Streak"])
        #expect(dropped.map(\.rows).sorted() == [3, 3])
        #expect(try storeFiles(url) == before)
    }

    @Test func theMigrationTesterFollowsDroppedEntities() throws {
        // Every version's store reaches the newest; a dropped entity that no version declares
        // again is no loss of what the app still declares.
        let weights = try MigrationTester(for: WeightsPlan.self).verifyEveryPath(sampleRowsPerEntity: 5)
        #expect(weights.count == 2)
        // Version 1's streaks are dropped by version 2 and version 3 declares the entity again:
        // the tester names the rows lost on the way.
        let error = try #require(throws: MigrationVerificationError.self) {
            try MigrationTester(for: HabitsPlan.self).verifyEveryPath(sampleRowsPerEntity: 5)
        }
        #expect(error.problems.map(\.description) == [
            "HabitsV1 (1.0.0): Streak: 5 of the 5 rows stored by HabitsV1 (1.0.0) are lost: HabitsV2 (2.0.0) drops the entity and a later version declares it again. Keep the entity in HabitsV2 (2.0.0), or carry its rows over in a custom stage",
        ])
    }

    @Test func aStoreOfAnUneditedVersionIsNotTakenForAnEditedOne() throws {
        // Version 2 of the shelf lists version 1's book through a typealias: a store version 2
        // wrote is at version 2 as it shipped, so opening it again migrates nothing and writes nothing.
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: ShelfV2.self)) { context in
            context.insert(ShelfV1.Book(title: "Emma"))
        }
        let before = try storeFiles(url)
        do {
            let container = try ModelContainer(
                for: Schema(versionedSchema: ShelfV2.self), migrationPlan: ShelfPlan.self, configurations: ModelConfiguration(url: url))
            #expect(container.migrationReports.isEmpty)
            #expect(try ModelContext(container).fetch(FetchDescriptor<ShelfV2.Book>()).map(\.title) == ["Emma"])
        }
        #expect(try storeFiles(url) == before)
    }
}
