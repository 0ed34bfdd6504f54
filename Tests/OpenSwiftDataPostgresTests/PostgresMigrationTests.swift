import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

enum CrateV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Crate.self] }

    @Model final class Crate {
        var label: String
        var kilos: Double
        init(label: String, kilos: Double) {
            self.label = label
            self.kilos = kilos
        }
    }
}

/// Expand steps only: attributes with defaults or optional, an index, a new entity and an
/// optional relationship to it.
enum CrateV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Crate.self, Dock.self] }

    @Model final class Crate {
        #Index<Crate>([\.label])
        var label: String
        var kilos: Double
        var fragile: Bool = false
        var handling: String = "standard"
        var sealedAt: Date?
        var dock: Dock?
        init(label: String, kilos: Double) {
            self.label = label
            self.kilos = kilos
        }
    }

    @Model final class Dock {
        var name: String
        @Relationship(inverse: \Crate.dock) var crates: [Crate] = []
        init(name: String) { self.name = name }
    }
}

/// A contract step that keeps every value: a rename, a unique constraint.
enum CrateV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Crate.self, Dock.self] }

    @Model final class Crate {
        #Index<Crate>([\.label])
        @Attribute(.unique) var label: String
        @Attribute(originalName: "kilos") var weight: Double
        var fragile: Bool = false
        var handling: String = "standard"
        var sealedAt: Date?
        var dock: Dock?
        init(label: String, weight: Double) {
            self.label = label
            self.weight = weight
        }
    }

    @Model final class Dock {
        var name: String
        @Relationship(inverse: \Crate.dock) var crates: [Crate] = []
        init(name: String) { self.name = name }
    }
}

/// A destructive step: `handling` dropped with its values.
enum CrateV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [Crate.self, Dock.self] }

    @Model final class Crate {
        #Index<Crate>([\.label])
        @Attribute(.unique) var label: String
        var weight: Double
        var fragile: Bool = false
        var sealedAt: Date?
        var dock: Dock?
        init(label: String, weight: Double) {
            self.label = label
            self.weight = weight
        }
    }

    @Model final class Dock {
        var name: String
        @Relationship(inverse: \Crate.dock) var crates: [Crate] = []
        init(name: String) { self.name = name }
    }
}

enum CratePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CrateV1.self, CrateV2.self, CrateV3.self, CrateV4.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: CrateV1.self, toVersion: CrateV2.self), .lightweight(fromVersion: CrateV2.self, toVersion: CrateV3.self),
            .lightweight(fromVersion: CrateV3.self, toVersion: CrateV4.self),
        ]
    }
}

enum PhotoV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Photo.self] }

    @Model final class Photo {
        var caption: String
        var pixels: Data
        var thumbnail: Data?
        init(caption: String, pixels: Data, thumbnail: Data?) {
            self.caption = caption
            self.pixels = pixels
            self.thumbnail = thumbnail
        }
    }
}

/// Both blobs move to external storage, one of them renamed.
enum PhotoV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Photo.self] }

    @Model final class Photo {
        var caption: String
        @Attribute(.externalStorage) var pixels: Data
        @Attribute(.externalStorage, originalName: "thumbnail") var preview: Data?
        init(caption: String, pixels: Data, preview: Data?) {
            self.caption = caption
            self.pixels = pixels
            self.preview = preview
        }
    }
}

/// And back into the table.
enum PhotoV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Photo.self] }

    @Model final class Photo {
        var caption: String
        var pixels: Data
        var preview: Data?
        init(caption: String, pixels: Data, preview: Data?) {
            self.caption = caption
            self.pixels = pixels
            self.preview = preview
        }
    }
}

enum PhotoPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PhotoV1.self, PhotoV2.self, PhotoV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: PhotoV1.self, toVersion: PhotoV2.self), .lightweight(fromVersion: PhotoV2.self, toVersion: PhotoV3.self)]
    }
}

/// Migrations of a PostgreSQL store: steps altered in place under the store's lock, in the
/// opening transaction; what it cannot run refused with nothing changed.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresMigrationTests {
    private func configuration(_ place: ThrowAwaySchema) -> PostgresConfiguration {
        PostgresConfiguration(url: place.url, databaseSchema: place.name)
    }

    private func writeVersion1(_ place: ThrowAwaySchema) throws -> ModelContainer {
        let container = try ModelContainer(for: Schema(versionedSchema: CrateV1.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
        let context = ModelContext(container)
        for index in 0..<50 { context.insert(CrateV1.Crate(label: "crate \(index)", kilos: Double(index) / 4)) }
        try context.save()
        return container
    }

    @Test func expandStepsAlterTheTablesInPlaceAndKeepEveryRow() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let container = try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            let context = ModelContext(container)
            let crates = try context.fetch(FetchDescriptor<CrateV2.Crate>(sortBy: [SortDescriptor(\.kilos)]))
            #expect(crates.count == 50)
            #expect(crates.map(\.label) == (0..<50).map { "crate \($0)" })
            #expect(crates.allSatisfy { !$0.fragile && $0.handling == "standard" && $0.sealedAt == nil && $0.dock == nil })
            let dock = CrateV2.Dock(name: "North")
            crates[0].dock = dock
            crates[0].fragile = true
            crates[0].sealedAt = Date(timeIntervalSinceReferenceDate: 12.5)
            try context.save()
            let reader = ModelContext(try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration(place)]))
            let docked = try reader.fetch(FetchDescriptor<CrateV2.Crate>(predicate: #Predicate { $0.fragile }))
            #expect(docked.map { $0.dock?.name } == ["North"])
            #expect(docked.first?.sealedAt == Date(timeIntervalSinceReferenceDate: 12.5))
            let metadata = try #require(try PostgresStore.readMetadata(in: place.name, session: place.session()))
            #expect(metadata.versionIdentifier == "2.0.0")
            let indices = try place.session().query("SELECT indexname FROM pg_indexes WHERE schemaname = \(place.name)").map { try $0.decode(String.self) }
            #expect(indices.contains("Crate_index_label") && indices.contains("Crate_key_dock"))
        }
    }

    /// Servers starting together on a store that needs the step: one migrates under the lock,
    /// the others wait, read the recorded schema again, and find nothing to do.
    @Test func serversStartingTogetherMigrateOnce() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let configuration = configuration(place)
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let container = try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration])
                    _ = try ModelContext(container).fetchCount(FetchDescriptor<CrateV2.Crate>())
                } catch {
                    failures.record("\(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let columns = try place.session().query(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = \(place.name) AND table_name = 'Crate'"
            ).map { try $0.decode(String.self) }
            #expect(columns.sorted() == ["_pk", "dock", "fragile", "handling", "kilos", "label", "sealedAt", "sealedAt_timestamptz"])
        }
    }

    /// An old server keeps inserting and fetching while the new version's expand step runs and
    /// after: its statements name their columns, and the new ones have defaults.
    @Test func anOldServerKeepsWorkingAfterAnExpandStep() throws {
        try ThrowAwaySchema().use { place in
            let old = try writeVersion1(place)
            _ = try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            let oldContext = ModelContext(old)
            oldContext.insert(CrateV1.Crate(label: "from an old server", kilos: 9))
            try oldContext.save()
            #expect(try oldContext.fetchCount(FetchDescriptor<CrateV1.Crate>()) == 51)
            let new = ModelContext(try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration(place)]))
            let written = try #require(try new.fetch(FetchDescriptor<CrateV2.Crate>(predicate: #Predicate { $0.label == "from an old server" })).first)
            #expect(written.handling == "standard" && !written.fragile)
            // A server of the old version starting now is refused: the store is newer than it.
            #expect(throws: SwiftDataError.self) {
                try ModelContainer(for: Schema(versionedSchema: CrateV1.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            }
        }
    }

    /// A rename and a unique constraint keep every value: they run in place, in one step with
    /// the expand steps before them.
    @Test func renamesAndConstraintsRunInPlaceKeepingTheValues() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: CrateV3.self), migrationPlan: CratePlan.self, configurations: [configuration(place)]))
            let crates = try context.fetch(FetchDescriptor<CrateV3.Crate>(sortBy: [SortDescriptor(\.weight)]))
            #expect(crates.map(\.weight) == (0..<50).map { Double($0) / 4 })
            #expect(crates.allSatisfy { $0.handling == "standard" })
            // The unique constraint upserts now.
            context.insert(CrateV3.Crate(label: "crate 7", weight: 100))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<CrateV3.Crate>()) == 50)
            #expect(try place.columns(of: "Crate").contains("weight"))
        }
    }

    /// A step dropping stored values runs only with allowsDestructiveMigration: without it the
    /// refusal says to take a dump, and nothing changes.
    @Test func aStepThatDropsValuesNeedsTheOptIn() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            _ = try ModelContainer(for: Schema(versionedSchema: CrateV3.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            let before = try place.columns(of: "Crate")
            #expect {
                try ModelContainer(for: Schema(versionedSchema: CrateV4.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            } throws: { error in
                let text = "\(error)"
                return text.contains("drops Crate.handling") && text.contains("pg_dump --schema=\(place.name)") && text.contains("allowsDestructiveMigration")
                    && text.contains("Nothing was changed")
            }
            #expect(try place.columns(of: "Crate") == before)
            #expect(try PostgresStore.readMetadata(in: place.name, session: place.session())?.versionIdentifier == "3.0.0")
            var destructive = configuration(place)
            destructive.allowsDestructiveMigration = true
            let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: CrateV4.self), migrationPlan: CratePlan.self, configurations: [destructive]))
            #expect(try context.fetchCount(FetchDescriptor<CrateV4.Crate>()) == 50)
            #expect(try !place.columns(of: "Crate").contains("handling"))
        }
    }

    /// A custom stage's didMigrate runs over the migration's transaction and saves into it.
    @Test func aCustomStageRunsInsideTheMigration() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let container = try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CustomCratePlan.self, configurations: [configuration(place)])
            let fragile = try ModelContext(container).fetch(FetchDescriptor<CrateV2.Crate>(predicate: #Predicate { $0.fragile }))
            #expect(fragile.count == 29)
            #expect(fragile.allSatisfy { $0.kilos > 5 })
            #expect(container.migrationReports.map(\.targetVersion) == ["2.0.0"])
        }
    }

    /// Values move into the side tables of `.externalStorage` attributes and back, every one
    /// kept, with no opt-in needed: nothing is dropped.
    @Test func attributesMoveToExternalStorageAndBackWithTheirValues() throws {
        try ThrowAwaySchema().use { place in
            let configuration = configuration(place)
            let writer = ModelContext(try ModelContainer(for: Schema(versionedSchema: PhotoV1.self), migrationPlan: PhotoPlan.self, configurations: [configuration]))
            for index in 0..<20 {
                writer.insert(PhotoV1.Photo(caption: "photo \(index)", pixels: Data(repeating: UInt8(index), count: 100 + index), thumbnail: index % 3 == 0 ? nil : Data([UInt8(index)])))
            }
            try writer.save()
            let external = ModelContext(try ModelContainer(for: Schema(versionedSchema: PhotoV2.self), migrationPlan: PhotoPlan.self, configurations: [configuration]))
            let moved = try external.fetch(FetchDescriptor<PhotoV2.Photo>(sortBy: [SortDescriptor(\.caption)]))
            #expect(moved.count == 20)
            #expect(moved.allSatisfy { photo in
                let index = Int(photo.caption.dropFirst(6))!
                return photo.pixels == Data(repeating: UInt8(index), count: 100 + index) && photo.preview == (index % 3 == 0 ? nil : Data([UInt8(index)]))
            })
            #expect(try place.columns(of: "Photo") == ["_pk", "caption"])
            let back = ModelContext(try ModelContainer(for: Schema(versionedSchema: PhotoV3.self), migrationPlan: PhotoPlan.self, configurations: [configuration]))
            let inline = try back.fetch(FetchDescriptor<PhotoV3.Photo>(sortBy: [SortDescriptor(\.caption)]))
            #expect(inline.map(\.pixels) == moved.map(\.pixels) && inline.map(\.preview) == moved.map(\.preview))
            #expect(try place.columns(of: "Photo") == ["_pk", "caption", "pixels", "preview"])
            let tables = try PostgresStore.tableNames(in: place.name, session: place.session())
            #expect(!tables.contains { $0.hasPrefix("_osd_external") })
        }
    }

    /// The dry run runs the real statements and rolls them back: the report is exact, and a
    /// dump of the schema's structure and rows is the same before and after.
    @Test func theDryRunReportsExactlyAndKeepsNothing() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let before = try place.dump(rowsOf: ["Crate"])
            let report = try PostgresStore.previewMigration(of: configuration(place), to: Schema(versionedSchema: CrateV3.self), migrationPlan: CratePlan.self)
            #expect(report.succeeded, "\(report)")
            #expect(report.storeVersion == "1.0.0" && report.targetVersion == "3.0.0")
            #expect(report.steps.map(\.toVersion) == ["CrateV2 (2.0.0)", "CrateV3 (3.0.0)"])
            #expect(report.steps[0].sql.contains { $0.contains("ADD COLUMN \"handling\" text DEFAULT 'standard'") })
            #expect(report.steps[1].sql.contains { $0.contains("RENAME COLUMN \"kilos\" TO \"weight\"") })
            #expect(!"\(report.storeURL)".contains("password"))
            #expect(try place.dump(rowsOf: ["Crate"]) == before)

            // A step dropping values: refused as the real open would be, or, with the opt-in,
            // reported with the values it drops; kept neither way.
            _ = try ModelContainer(for: Schema(versionedSchema: CrateV3.self), migrationPlan: CratePlan.self, configurations: [configuration(place)])
            let atVersion3 = try place.dump(rowsOf: ["Crate"])
            let refused = try PostgresStore.previewMigration(of: configuration(place), to: Schema(versionedSchema: CrateV4.self), migrationPlan: CratePlan.self)
            #expect(refused.refusal?.contains("pg_dump") == true)
            var destructive = configuration(place)
            destructive.allowsDestructiveMigration = true
            let dropping = try PostgresStore.previewMigration(of: destructive, to: Schema(versionedSchema: CrateV4.self), migrationPlan: CratePlan.self)
            #expect(dropping.succeeded)
            #expect(dropping.steps.first?.droppedAttributes == [.init(entity: "Crate", attribute: "handling", storedValues: 50)])
            #expect(try place.dump(rowsOf: ["Crate"]) == atVersion3)
        }
    }

    /// A table another connection is using (an old server's open transaction) makes the
    /// migration wait its lock timeout, roll back and try again; in the end the error names
    /// that connection, nothing changed, and once it is gone the migration runs.
    @Test func aTableInUseMakesTheMigrationWaitAndNamesWhoHoldsIt() throws {
        try ThrowAwaySchema().use { place in
            _ = try writeVersion1(place)
            let oldServer = try place.session()
            try oldServer.query("BEGIN")
            try oldServer.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresNames.qualified("Crate", in: place.name))"))
            let pid = try #require(try oldServer.query("SELECT pg_backend_pid()").first?.decode(Int32.self))
            var configuration = configuration(place)
            configuration.migrationLockTimeout = 0.1
            #expect {
                try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration])
            } throws: { error in
                let text = "\(error)"
                return text.contains("waited 4 times") && text.contains("process \(pid) on Crate") && text.contains("nothing changed")
            }
            #expect(try PostgresStore.readMetadata(in: place.name, session: place.session())?.versionIdentifier == "1.0.0")
            try oldServer.query("COMMIT")
            let container = try ModelContainer(for: Schema(versionedSchema: CrateV2.self), migrationPlan: CratePlan.self, configurations: [configuration])
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<CrateV2.Crate>()) == 50)
        }
    }
}

/// Errors recorded from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func record(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}

enum CustomCratePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CrateV1.self, CrateV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: CrateV1.self, toVersion: CrateV2.self, willMigrate: nil) { context in
            for crate in try context.fetch(FetchDescriptor<CrateV2.Crate>()) { crate.fragile = crate.kilos > 5 }
            try context.save()
        }]
    }
}
