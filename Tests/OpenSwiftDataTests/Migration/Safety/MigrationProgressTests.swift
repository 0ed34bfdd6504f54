import Foundation
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// A container opening a store tells the app how far its migration has gone.
@Suite struct MigrationProgressTests {
    @Test func eachStepAndEachTransformBatchIsReportedInOrder() throws {
        let tester = MigrationTester(for: PixarMigrationPlan.self)
        let url = temporaryStoreURL()
        try tester.makeStore(at: PixarSchemaV1.self, url: url, sampleRowsPerEntity: 2_500)
        let seen = Recorder<[MigrationProgress]>([])
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: [ModelConfiguration(url: url)]) { progress in seen.value.append(progress) }
        let reports = seen.value
        #expect(reports.first?.phase == .started)
        #expect(reports.first?.fractionCompleted == 0)
        #expect(reports.last?.phase == .finished)
        #expect(reports.last?.fractionCompleted == 1)
        #expect(reports.allSatisfy { $0.stepCount == 2 && $0.storeURL == url })
        let fractions = reports.map(\.fractionCompleted)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        // The transform reports after each batch of 1 000 rows.
        let rows = reports.filter { $0.rowsTotal > 0 }
        #expect(rows.map(\.rowsDone) == [1_000, 2_000, 2_500])
        #expect(rows.allSatisfy { $0.entity == "PixarFilm" && $0.rowsTotal == 2_500 && $0.step == 1 })
        #expect(rows.last?.description == "step 1/2 PixarSchemaV1 (1.0.0) → PixarSchemaV2 (2.0.0): migratingRows, PixarFilm rows 2500/2500, 50%")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>()) == 2_500)
    }

    @Test func anUpToDateStoreReportsNothing() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PixarSchemaV3.self)) { _ in }
        let seen = Recorder(0)
        _ = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: [ModelConfiguration(url: url)]) { _ in seen.value += 1 }
        #expect(seen.value == 0)
    }
}
