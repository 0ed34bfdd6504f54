import Foundation
import OpenSwiftData
import PostgresNIO
import Synchronization
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

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

    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self, ParcelV3.self] }
    static var stages: [MigrationStage] {
        [
            .transform(
                fromVersion: ParcelV1.self, toVersion: ParcelV2.self, model: ParcelV1.Parcel.self, to: ParcelV2.Parcel.self, batchSize: 40,
                willMigrate: { context in
                    // Duplicated codes would fail the unique constraint: keep the first of each.
                    var seen: Set<String> = []
                    for parcel in try context.fetch(FetchDescriptor<ParcelV1.Parcel>(sortBy: [SortDescriptor(\.label)])) where !seen.insert(parcel.code).inserted {
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

/// Custom and transform stages on PostgreSQL: their code runs inside the migration's
/// transaction, batch by batch, and what they save commits with the migration or not at all.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresCustomStageTests {
    private func configuration(_ place: ThrowAwaySchema) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(url: place.url, databaseSchema: place.name)
        configuration.allowsDestructiveMigration = true
        return configuration
    }

    /// 200 parcels, 10 of them repeating an earlier one's code.
    private func writeVersion1(_ place: ThrowAwaySchema) throws {
        let container = try ModelContainer(for: Schema(versionedSchema: ParcelV1.self), migrationPlan: ParcelPlan.self, configurations: [configuration(place)])
        let context = ModelContext(container)
        for index in 0..<200 {
            let code = index >= 190 ? "code \(index - 190)" : "code \(index)"
            context.insert(ParcelV1.Parcel(label: String(format: "parcel %03d", index), kilos: Double(index) / 8, code: code, note: index % 2 == 0 ? "fragile" : nil))
        }
        try context.save()
    }

    private func openVersion2(_ place: ThrowAwaySchema, progress: (@Sendable (MigrationProgress) -> Void)? = nil) throws -> ModelContainer {
        if let progress {
            return try ModelContainer(
                for: Schema(versionedSchema: ParcelV2.self), migrationPlan: ParcelPlan.self, configurations: [configuration(place)], migrationProgress: progress)
        }
        return try ModelContainer(for: Schema(versionedSchema: ParcelV2.self), migrationPlan: ParcelPlan.self, configurations: [configuration(place)])
    }

    @Test func aTransformFillsTheNewVersionFromTheOldInOneTransaction() throws {
        ParcelPlan.log = StageLog()
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        try ThrowAwaySchema().use { place in
            try writeVersion1(place)
            let phases = StageLog()
            let container = try openVersion2(place) { phases.record("\($0.phase.rawValue) \($0.rowsDone)/\($0.rowsTotal)") }
            #expect(ParcelPlan.log.all == ["willMigrate"])
            #expect(phases.all.contains("migratingRows 80/190") && phases.all.contains("migratingRows 190/190") && phases.all.last == "finished 0/0")

            let reader = ModelContext(try ModelContainer(for: Schema(versionedSchema: ParcelV2.self), migrationPlan: ParcelPlan.self, configurations: [configuration(place)]))
            let parcels = try reader.fetch(FetchDescriptor<ParcelV2.Parcel>(sortBy: [SortDescriptor(\.title)]))
            #expect(parcels.count == 190)
            let (first, last) = (try #require(parcels.first), try #require(parcels.last))
            #expect(first.title == "parcel 000" && first.grams == 0 && first.code == "code 0" && first.note == "fragile" && first.size == .init(side: 0))
            #expect(last.title == "parcel 189" && last.grams == 23625 && last.note == "none" && last.size == .init(side: 23))
            #expect(try place.columns(of: "Parcel") == ["_pk", "title", "code", "note", "grams", "size"])
            #expect(try notNull(in: place) == ["_pk", "code", "grams", "note", "size", "title"])
            let indices = try place.session().query("SELECT indexname FROM pg_indexes WHERE schemaname = \(place.name)").map { try $0.decode(String.self) }
            #expect(indices.contains("Parcel_unique_code"))
            #expect(container.migrationReports.first?.steps.first?.kind == .custom)
            #expect(container.migrationReports.first?.steps.first?.droppedAttributes == [.init(entity: "Parcel", attribute: "kilos", storedValues: 190)])
            #expect(try PostgresStore.readMetadata(in: place.name, session: place.session())?.versionIdentifier == "2.0.0")
        }
    }

    /// A stage that throws after several batches were saved: the whole migration rolls back,
    /// the error names the stage, and a dump is the same as before.
    @Test func aThrowingStageLeavesTheStoreAsItWas() throws {
        ParcelPlan.failingCode = "code 150"
        ParcelPlan.unsizedCode = nil
        defer { ParcelPlan.failingCode = nil }
        try expectVersion2Refused { text in
            text.contains("didMigrate closure of the stage from ParcelV1 (1.0.0) to ParcelV2 (2.0.0)") && text.contains("refused(\"code 150\")")
                && text.contains("rolled back")
        }
    }

    /// A non-optional attribute the stage leaves without a value in some row is refused by
    /// name, with the count, and nothing is kept.
    @Test func aRowLeftWithoutAValueIsRefusedByName() throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = "code 7"
        defer { ParcelPlan.unsizedCode = nil }
        try expectVersion2Refused { text in
            text.contains("Parcel.size is non-optional in ParcelV2 (2.0.0)") && text.contains("1 row of") && text.contains("didMigrate")
        }
    }

    /// Writes version 1, expects opening it with version 2 to fail with an error whose text
    /// `saysWhy`, and the rows to be as they were.
    private func expectVersion2Refused(_ saysWhy: @escaping (String) -> Bool) throws {
        try ThrowAwaySchema().use { place in
            try writeVersion1(place)
            let before = try place.dump(rowsOf: ["Parcel"])
            #expect {
                try openVersion2(place)
            } throws: { error in
                saysWhy("\(error)")
            }
            #expect(try place.dump(rowsOf: ["Parcel"]) == before)
        }
    }

    /// The dry run runs the stages too, and keeps nothing.
    @Test func theDryRunRunsTheStagesAndKeepsNothing() throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        try ThrowAwaySchema().use { place in
            try writeVersion1(place)
            let before = try place.dump(rowsOf: ["Parcel"])
            let report = try PostgresStore.previewMigration(of: configuration(place), to: Schema(versionedSchema: ParcelV2.self), migrationPlan: ParcelPlan.self)
            #expect(report.succeeded, "\(report)")
            #expect(report.steps.first?.sql.contains { $0.contains("DROP COLUMN \"kilos\"") } == true)
            #expect(try place.dump(rowsOf: ["Parcel"]) == before)
        }
    }

    /// Servers starting together on a store that needs a transform: one runs it, the others
    /// find it done; every parcel is transformed once.
    @Test func serversStartingTogetherRunTheTransformOnce() throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        ParcelPlan.log = StageLog()
        try ThrowAwaySchema().use { place in
            try writeVersion1(place)
            let failures = StageLog()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    _ = try ModelContext(try openVersion2(place)).fetchCount(FetchDescriptor<ParcelV2.Parcel>())
                } catch {
                    failures.record("\(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            #expect(ParcelPlan.log.all == ["willMigrate"])
            let reader = ModelContext(try openVersion2(place))
            #expect(try reader.fetchCount(FetchDescriptor<ParcelV2.Parcel>(predicate: #Predicate { $0.note == "fragile" })) == 95)
        }
    }

    /// A type change is refused before any stage's code runs, as on SQLite.
    @Test func aTypeChangeIsRefusedBeforeAnyCodeRuns() throws {
        ParcelPlan.failingCode = nil
        ParcelPlan.unsizedCode = nil
        try ThrowAwaySchema().use { place in
            try writeVersion1(place)
            _ = try openVersion2(place)
            ParcelPlan.log = StageLog()
            #expect {
                try ModelContainer(for: Schema(versionedSchema: ParcelV3.self), migrationPlan: ParcelPlan.self, configurations: [configuration(place)])
            } throws: { error in
                "\(error)".contains("Parcel.grams changes type from Int to Double")
            }
            #expect(ParcelPlan.log.all.isEmpty)
        }
    }

    private func notNull(in place: ThrowAwaySchema) throws -> [String] {
        try place.session().query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = \(place.name) AND table_name = 'Parcel' AND is_nullable = 'NO' ORDER BY 1"
        ).map { try $0.decode(String.self) }
    }
}
