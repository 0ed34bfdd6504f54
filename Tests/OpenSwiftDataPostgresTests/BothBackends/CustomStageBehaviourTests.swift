import Foundation
import OpenSwiftData
import Synchronization
import Testing

enum ParcelV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        var kilos: Double
        var code: String
        var note: String?
        init(label: String, kilos: Double, code: String, note: String?) {
            self.label = label
            self.kilos = kilos
            self.code = code
            self.note = note
        }
    }
}

/// What only a stage's code can do: `label` renamed, `grams` (no default) computed from
/// `kilos`, which is dropped, `note` made non-optional with no default, `code` made unique
/// (duplicates removed in willMigrate), and a `Codable` attribute with no empty value.
enum ParcelV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    struct Size: Codable, Equatable {
        var side: Int
    }

    @Model final class Parcel {
        @Attribute(originalName: "label") var title: String
        var grams: Int
        @Attribute(.unique) var code: String
        var note: String
        var size: Size
        init(title: String, grams: Int, code: String, note: String, size: Size) {
            self.title = title
            self.grams = grams
            self.code = code
            self.note = note
            self.size = size
        }
    }
}

/// A type change, which no stage resolves.
enum ParcelV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var title: String
        var grams: Double
        @Attribute(.unique) var code: String
        var note: String
        var size: ParcelV2.Size
        init(title: String, grams: Double, code: String, note: String, size: ParcelV2.Size) {
            self.title = title
            self.grams = grams
            self.code = code
            self.note = note
            self.size = size
        }
    }
}

/// What the stages of a plan saw, from the opening thread.
final class StageLog: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

enum ParcelPlan: SchemaMigrationPlan {
    nonisolated(unsafe) static var log = StageLog()
    /// A row whose transform throws, or none.
    nonisolated(unsafe) static var failingCode: String?
    /// A code whose row the transform leaves without a `size`, or none.
    nonisolated(unsafe) static var unsizedCode: String?
    /// Whether willMigrate leaves the duplicated codes in place.
    nonisolated(unsafe) static var keepsDuplicates = false

    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self, ParcelV3.self] }
    static var stages: [MigrationStage] {
        [
            .transform(
                fromVersion: ParcelV1.self, toVersion: ParcelV2.self, model: ParcelV1.Parcel.self, to: ParcelV2.Parcel.self, batchSize: 40,
                willMigrate: { context in
                    // Duplicated codes would fail the unique constraint: keep the first of each.
                    var seen: Set<String> = []
                    for parcel in try context.fetch(FetchDescriptor<ParcelV1.Parcel>(sortBy: [SortDescriptor(\.label)])) where !seen.insert(parcel.code).inserted && !keepsDuplicates {
                        context.delete(parcel)
                    }
                    log.record("willMigrate")
                }
            ) { old, new in
                if old.code == failingCode { throw ParcelError.refused(old.code) }
                #expect(new.title == old.label)
                new.grams = Int((old.kilos * 1000).rounded())
                new.note = old.note ?? "none"
                if old.code != unsizedCode { new.size = ParcelV2.Size(side: Int(old.kilos)) }
            },
            .custom(fromVersion: ParcelV2.self, toVersion: ParcelV3.self, willMigrate: { _ in log.record("V3 willMigrate") }, didMigrate: nil),
        ]
    }
}

enum ParcelError: Error {
    case refused(String)
}

/// Custom and transform stages, on each backend: their code runs inside the migration's
/// transaction, batch by batch, and what they save commits with the migration or not at all.
@Suite(.serialized) struct CustomStageBehaviourTests {
    /// 200 parcels, 10 of them repeating an earlier one's code.
    private func writeVersion1(_ store: TestStore) throws {
        let context = ModelContext(try store.container(ParcelV1.self, plan: ParcelPlan.self))
        for index in 0..<200 {
            let code = index >= 190 ? "code \(index - 190)" : "code \(index)"
            context.insert(ParcelV1.Parcel(label: String(format: "parcel %03d", index), kilos: Double(index) / 8, code: code, note: index % 2 == 0 ? "fragile" : nil))
        }
        try context.save()
    }

    @Test(arguments: Backend.available) func aTransformFillsTheNewVersionFromTheOldInOneTransaction(backend: Backend) throws {
        ParcelPlan.log = StageLog()
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        let store = try backend.store([])
        try writeVersion1(store)
        let phases = StageLog()
        let container = try store.container(ParcelV2.self, plan: ParcelPlan.self) { phases.record("\($0.phase.rawValue) \($0.rowsDone)/\($0.rowsTotal)") }
        #expect(ParcelPlan.log.all == ["willMigrate"])
        #expect(phases.all.contains("migratingRows 80/190") && phases.all.contains("migratingRows 190/190") && phases.all.last == "finished 0/0", "\(phases.all)")

        let reader = ModelContext(try store.container(ParcelV2.self, plan: ParcelPlan.self))
        let parcels = try reader.fetch(FetchDescriptor<ParcelV2.Parcel>(sortBy: [SortDescriptor(\.title)]))
        #expect(parcels.count == 190)
        let (first, last) = (try #require(parcels.first), try #require(parcels.last))
        #expect(first.title == "parcel 000" && first.grams == 0 && first.code == "code 0" && first.note == "fragile" && first.size == .init(side: 0))
        #expect(last.title == "parcel 189" && last.grams == 23625 && last.note == "none" && last.size == .init(side: 23))
        #expect(Set(try store.columns(of: "Parcel")).isSuperset(of: ["title", "code", "note", "grams", "size"]))
        #expect(!(try store.columns(of: "Parcel")).contains("kilos"))
        // The unique constraint holds after the stage removed the duplicates.
        reader.insert(ParcelV2.Parcel(title: "again", grams: 1, code: "code 3", note: "", size: .init(side: 1)))
        try reader.save()
        #expect(try ModelContext(try store.container(ParcelV2.self, plan: ParcelPlan.self)).fetchCount(FetchDescriptor<ParcelV2.Parcel>()) == 190)
        #expect(container.migrationReports.first?.steps.first?.kind == .custom)
        #expect(container.migrationReports.first?.steps.first?.droppedAttributes == [.init(entity: "Parcel", attribute: "kilos", storedValues: 190)])
        #expect(container.migrationReports.first?.targetVersion == "2.0.0")
    }

    /// A stage that throws after several batches were saved: the whole migration rolls back,
    /// the error names the stage, and the store holds what it held.
    @Test(arguments: Backend.available) func aThrowingStageLeavesTheStoreAsItWas(backend: Backend) throws {
        ParcelPlan.failingCode = "code 150"
        ParcelPlan.unsizedCode = nil
        defer { ParcelPlan.failingCode = nil }
        try expectVersion2Refused(on: backend) { text in
            text.contains("didMigrate closure of the stage from ParcelV1 (1.0.0) to ParcelV2 (2.0.0)") && text.contains("refused(\"code 150\")")
                && text.contains("rolled back")
        }
    }

    /// A non-optional attribute the stage leaves without a value in some row is refused by
    /// name, with the count, and nothing is kept.
    @Test(arguments: Backend.available) func aRowLeftWithoutAValueIsRefusedByName(backend: Backend) throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = "code 7"
        defer { ParcelPlan.unsizedCode = nil }
        try expectVersion2Refused(on: backend) { text in
            text.contains("Parcel.size is non-optional with no default value in ParcelV2 (2.0.0)") && text.contains("didMigrate left 1 stored row of")
                && text.contains("rolled back")
        }
    }

    /// Rows willMigrate leaves sharing a value that the new version declares unique are refused
    /// before the tables change, naming the constraint and the values, and nothing is kept.
    @Test(arguments: Backend.available) func duplicatesLeftByTheStageAreRefusedNamingTheConstraint(backend: Backend) throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        ParcelPlan.keepsDuplicates = true
        defer { ParcelPlan.keepsDuplicates = false }
        // Both count the repeated values after willMigrate, before the tables change.
        try expectVersion2Refused(on: backend) { text in
            text.contains("the store cannot be migrated from ParcelV1 (1.0.0) to ParcelV2 (2.0.0) without losing data; nothing was changed")
                && text.contains("Parcel gets a unique constraint on code in ParcelV2 (2.0.0), but stored rows repeat values: (\"code 0\") 2 times; (\"code 1\") 2 times")
        }
    }

    /// Writes version 1, expects opening it with version 2 to fail with an error whose text
    /// `saysWhy`, and the store to hold what it held.
    private func expectVersion2Refused(on backend: Backend, _ saysWhy: @escaping (String) -> Bool) throws {
        let store = try backend.store([])
        try writeVersion1(store)
        let before = try store.contents()
        #expect {
            try store.container(ParcelV2.self, plan: ParcelPlan.self)
        } throws: { error in
            saysWhy("\(error)")
        }
        #expect(try store.contents() == before)
        #expect(try ModelContext(try store.container(ParcelV1.self, plan: ParcelPlan.self)).fetchCount(FetchDescriptor<ParcelV1.Parcel>()) == 200)
    }

    /// The dry run runs the stages too, and keeps nothing.
    @Test(arguments: Backend.available) func theDryRunRunsTheStagesAndKeepsNothing(backend: Backend) throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        ParcelPlan.log = StageLog()
        let store = try backend.store([])
        try writeVersion1(store)
        let before = try store.contents()
        let report = try store.previewMigration(to: ParcelV2.self, plan: ParcelPlan.self)
        #expect(report.succeeded, "\(report)")
        #expect(report.steps.first?.droppedAttributes == [.init(entity: "Parcel", attribute: "kilos", storedValues: 190)])
        #expect(ParcelPlan.log.all == ["willMigrate"])
        #expect(try store.contents() == before)
    }

    /// Apps or servers starting together on a store that needs a transform: one runs it, the
    /// others find it done; every parcel is transformed once.
    @Test(arguments: Backend.available) func containersOpeningTogetherRunTheTransformOnce(backend: Backend) throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        ParcelPlan.log = StageLog()
        let store = try backend.store([])
        try writeVersion1(store)
        let failures = StageLog()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                _ = try ModelContext(try store.container(ParcelV2.self, plan: ParcelPlan.self)).fetchCount(FetchDescriptor<ParcelV2.Parcel>())
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(ParcelPlan.log.all == ["willMigrate"])
        let reader = ModelContext(try store.container(ParcelV2.self, plan: ParcelPlan.self))
        #expect(try reader.fetchCount(FetchDescriptor<ParcelV2.Parcel>(predicate: #Predicate { $0.note == "fragile" })) == 95)
    }

    /// A type change is refused before any stage's code runs.
    @Test(arguments: Backend.available) func aTypeChangeIsRefusedBeforeAnyCodeRuns(backend: Backend) throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        let store = try backend.store([])
        try writeVersion1(store)
        _ = try store.container(ParcelV2.self, plan: ParcelPlan.self)
        ParcelPlan.log = StageLog()
        let before = try store.contents()
        #expect {
            try store.container(ParcelV3.self, plan: ParcelPlan.self)
        } throws: { error in
            "\(error)".contains("Parcel.grams changes type from Int to Double")
        }
        #expect(ParcelPlan.log.all.isEmpty)
        #expect(try store.contents() == before)
    }
}
