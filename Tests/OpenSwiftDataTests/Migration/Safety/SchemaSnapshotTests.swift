import Foundation
import GRDB
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// `verify(snapshotsIn:)` freezes each shipped version in a file and finds every way a plan
/// can stop recognising the stores its earlier builds wrote.
@Suite struct SchemaSnapshotTests {
    private func folder() -> URL {
        temporaryStoreURL().deletingLastPathComponent().appendingPathComponent("SchemaSnapshots")
    }

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

    @Test func theFirstRunRecordsOneSnapshotPerVersionInTheEncodingStoresRecord() throws {
        let folder = folder()
        let written = try PixarMigrationPlan.verify(snapshotsIn: folder)
        #expect(written.map(\.lastPathComponent) == ["1.0.0.json", "2.0.0.json", "3.0.0.json"])
        // The second run checks them and writes nothing.
        #expect(try PixarMigrationPlan.verify(snapshotsIn: folder, recording: .never).isEmpty)

        let store = temporaryStoreURL()
        try writeStore(store, for: Schema(versionedSchema: PixarSchemaV2.self)) { _ in }
        let recorded = try rawRow(store, sql: "SELECT value FROM _osd_metadata WHERE key = 'schema'")[0] as String
        #expect(try String(contentsOf: folder.appendingPathComponent("2.0.0.json"), encoding: .utf8) == recorded)
    }

    @Test func aShippedVersionEditedInPlaceIsFoundWithItsDifferenceAndItsSnapshotKept() throws {
        let folder = folder()
        try LedgerShippedPlan.verify(snapshotsIn: folder)
        let snapshot = try Data(contentsOf: folder.appendingPathComponent("1.0.0.json"))
        let found = problems { try LedgerEditedPlan.verify(snapshotsIn: folder) }
        #expect(found.count == 1)
        #expect(found.first?.contains("LedgerV1Edited (1.0.0)") == true)
        #expect(found.first?.contains("no longer matches its snapshot 1.0.0.json") == true)
        #expect(found.first?.contains("amount") == true)
        #expect(found.first?.contains("make the change in a new version") == true)
        #expect(try Data(contentsOf: folder.appendingPathComponent("1.0.0.json")) == snapshot)
    }

    @Test func everyMistakeOfOrderIsListedAtOnceAndNothingIsRecorded() throws {
        let folder = folder()
        let found = problems { try LedgerDisorderedPlan.verify(snapshotsIn: folder) }
        #expect(found.contains { $0.contains("LedgerV4 (4.0.0)") && $0.contains("LedgerV4Twin (6.0.0)") && $0.contains("identical structure") })
        #expect(found.contains { $0.contains("must go from oldest to newest") && $0.contains("LedgerV2 (2.0.0) follows LedgerV4 (4.0.0)") })
        #expect(found.contains { $0.contains("skipping LedgerV4 (4.0.0)") })
        #expect(found.count == 3)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aShippedVersionThatVanishedIsFoundButDroppingTheOldestIsAllowed() throws {
        let folder = folder()
        try LedgerFullPlan.verify(snapshotsIn: folder)
        let found = problems { try LedgerLostV4Plan.verify(snapshotsIn: folder, recording: .never) }
        #expect(found.count == 3)
        for version in ["2.0.0", "3.0.0", "4.0.0"] {
            #expect(found.contains { $0.hasPrefix("\(version): has a snapshot") && $0.contains("Put the version back") })
        }
        // Versions 1 to 3 dropped from the start of the plan: a minimum-version cut.
        #expect(try LedgerFromV4Plan.verify(snapshotsIn: folder, recording: .never).isEmpty)
    }

    @Test func inCIAMissingSnapshotIsAProblemAndNoneIsWritten() throws {
        let folder = folder()
        let found = problems { try PixarMigrationPlan.verify(snapshotsIn: folder, recording: .never) }
        #expect(found.count == 3)
        #expect(found.allSatisfy { $0.contains("has no snapshot") && $0.contains("recording: .missing") })
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
