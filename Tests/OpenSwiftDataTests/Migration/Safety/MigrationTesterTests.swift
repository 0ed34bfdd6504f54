import Foundation
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// The migration tester writes stores as shipped builds did, migrates copies, and finds values
/// a plan loses on the way.
@Suite struct MigrationTesterTests {
    private func problems(_ body: () throws -> Void) -> [String] {
        do {
            try body()
            return []
        } catch let error as MigrationVerificationError {
            return error.problems.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    private static func dimensions(_ request: SampleValueRequest) -> Any? {
        request.valueType == Dimensions.self ? Dimensions(width: Double(request.row), height: 2) : nil
    }

    @Test func aStoreOfVersionOneMigratesOnACopyAndTheOriginalStaysAsItWas() throws {
        let tester = MigrationTester(for: PixarMigrationPlan.self)
        let url = temporaryStoreURL()
        try tester.makeStore(at: PixarSchemaV1.self, url: url) { context in
            context.insert(PixarSchemaV1.PixarFilm(title: "Coco", releaseDate: Date(timeIntervalSince1970: 1_510_000_000)))
        }
        let before = try storeFiles(url)
        let report = try tester.migrate(storeAt: url, to: PixarSchemaV3.self)
        #expect(try storeFiles(url) == before)
        #expect(report.storeVersion == "1.0.0")
        #expect(report.targetVersion == "3.0.0")
        #expect(report.steps.count == 2)
        #expect(report.storeURL != url)
        let migrated = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), configurations: ModelConfiguration(url: report.storeURL)))
        let film = try #require(try migrated.fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>()).first)
        #expect(film.releaseYear == 2017)
        #expect(film.releaseCountry == "MX")
        // Migrating to the middle version stops there.
        #expect(try tester.migrate(storeAt: url, to: PixarSchemaV2.self).steps.map(\.toVersion) == ["PixarSchemaV2 (2.0.0)"])
    }

    @Test func makeStoreRefusesToOverwriteAndVersionsOutsideThePlan() throws {
        let tester = MigrationTester(for: PixarMigrationPlan.self)
        let url = temporaryStoreURL()
        try tester.makeStore(at: PixarSchemaV2.self, url: url) { _ in }
        let existing = try #require(throws: SwiftDataError.self) { try tester.makeStore(at: PixarSchemaV2.self, url: url) { _ in } }
        #expect(existing.description.contains("already exists"))
        let outside = try #require(throws: SwiftDataError.self) {
            try tester.makeStore(at: LedgerV1.self, url: temporaryStoreURL()) { _ in }
        }
        #expect(outside.description.contains("LedgerV1 is not one of PixarMigrationPlan.schemas"))
    }

    @Test func generatedRowsFillEveryKindOfAttributeAndLinkRelationshipsBothWays() throws {
        let tester = MigrationTester(for: GalleryPlan.self)
        let missing = try #require(throws: SwiftDataError.self) {
            try tester.makeStore(at: GalleryV1.self, url: temporaryStoreURL(), sampleRowsPerEntity: 4)
        }
        #expect(missing.description.contains("Painting.size (Dimensions)"))
        #expect(missing.description.contains("sampleValue"))

        let url = temporaryStoreURL()
        try tester.makeStore(at: GalleryV1.self, url: url, sampleRowsPerEntity: 6, sampleValue: Self.dimensions)
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: GalleryV1.self), configurations: ModelConfiguration(url: url)))
        let paintings = try context.fetch(FetchDescriptor<GalleryV1.Painting>())
        #expect(paintings.count == 6)
        #expect(Set(paintings.map(\.code)).count == 6)
        #expect(Set(paintings.map(\.identifier)).count == 6)
        #expect(Set(paintings.map(\.hue)) == [.red, .green, .blue])
        #expect(paintings.filter { $0.caption == nil }.count == 3)
        #expect(paintings.allSatisfy { !$0.tags.isEmpty && $0.size.height == 2 })
        #expect(paintings.allSatisfy { painting in painting.artist?.paintings.contains { $0 === painting } == true })
        #expect(paintings.allSatisfy { painting in painting.exhibitions.count == 2 && painting.exhibitions.allSatisfy { $0.paintings.contains { $0 === painting } } })
        #expect(try context.fetchCount(FetchDescriptor<GalleryV1.Artist>()) == 6)
    }

    @Test func everyPathOfASoundPlanPasses() throws {
        let pixar = try MigrationTester(for: PixarMigrationPlan.self).verifyEveryPath(sampleRowsPerEntity: 20)
        #expect(pixar.map(\.source) == ["PixarSchemaV1 (1.0.0)", "PixarSchemaV2 (2.0.0)"])
        #expect(pixar.map(\.report.steps.count) == [2, 1])
        // A rename through originalName keeps every caption.
        let gallery = try MigrationTester(for: GalleryPlan.self).verifyEveryPath(sampleRowsPerEntity: 10, sampleValue: Self.dimensions)
        #expect(gallery.count == 1)
        #expect(gallery[0].changesByStages.isEmpty)
    }

    @Test func anAttributeDroppedByOneVersionAndDeclaredAgainFailsNamingTheVersionAndTheFix() {
        let found = problems { try MigrationTester(for: LedgerDropAndBackPlan.self).verifyEveryPath(sampleRowsPerEntity: 10) }
        #expect(found.count == 1)
        let problem = found.first ?? ""
        #expect(problem.hasPrefix("LedgerV1 (1.0.0): Entry.note: 5 values stored by LedgerV1 (1.0.0) are lost"))
        #expect(problem.contains("LedgerV2 (2.0.0) drops note"))
        #expect(problem.contains("Keep the attribute in LedgerV2 (2.0.0)"))
    }

    @Test func aCustomStageThatLetsAValueGoFailsAndWhatItsCodeChangesIsReported() throws {
        let found = problems { try MigrationTester(for: LedgerCustomDropPlan.self).verifyEveryPath(sampleRowsPerEntity: 10) }
        #expect(found.count == 1)
        #expect(found.first?.contains("Entry.note: 5 values stored by LedgerV1 (1.0.0) are lost") == true)

        // Of the five versions of the full plan, only stores of version 1 lose their notes.
        let full = problems { try MigrationTester(for: LedgerFullPlan.self).verifyEveryPath(sampleRowsPerEntity: 10) }
        #expect(full.count == 1)
        #expect(full.first?.hasPrefix("LedgerV1 (1.0.0): Entry.note") == true)

        // The labels its custom stage capitalizes are reported, not failed.
        let tester = MigrationTester(for: LedgerFullPlan.self)
        let fixtures = temporaryStoreURL().deletingLastPathComponent()
        try tester.makeStore(at: LedgerV3.self, url: fixtures.appendingPathComponent("ledger-3.0.store"), sampleRowsPerEntity: 4)
        let checks = try tester.verifyFixtures(in: fixtures)
        #expect(checks.map(\.changesByStages) == [["Entry.label: 4 of 4 stored values changed"]])
        #expect(checks.first?.report.steps.first?.rowChanges.first?.updated == 4)
    }

    @Test func fixtureStoresMigrateOnCopiesAndStayAsTheyWere() throws {
        let tester = MigrationTester(for: LedgerFullPlan.self)
        let fixtures = temporaryStoreURL().deletingLastPathComponent()
        try tester.makeStore(at: LedgerV1.self, url: fixtures.appendingPathComponent("ledger-1.0.store")) { context in
            context.insert(LedgerV1.Entry(label: "rent", note: "June"))
        }
        try tester.makeStore(at: LedgerV4.self, url: fixtures.appendingPathComponent("ledger-4.0.store"), sampleRowsPerEntity: 5)
        let before = try storeFiles(fixtures.appendingPathComponent("ledger-1.0.store"))
        // The note is dropped by version 2: the version 1 fixture loses it.
        let found = problems { try tester.verifyFixtures(in: fixtures) }
        #expect(found == [
            "the fixture ledger-1.0.store (LedgerV1 (1.0.0)): Entry.note: 1 value stored by LedgerV1 (1.0.0) is lost: LedgerV2 (2.0.0) drops note and a later version declares it again. Keep the attribute in LedgerV2 (2.0.0) (make it optional, or rename it with originalName), or carry its values over in a custom stage",
        ])
        #expect(try storeFiles(fixtures.appendingPathComponent("ledger-1.0.store")) == before)

        // A fixture of a version the plan no longer lists.
        let unlisted = problems { try MigrationTester(for: LedgerFromV4Plan.self).verifyFixtures(in: fixtures) }
        #expect(unlisted.count == 1)
        #expect(unlisted.first?.contains("the fixture ledger-1.0.store") == true)
        #expect(unlisted.first?.contains("matches no version of LedgerFromV4Plan") == true)
    }
}
