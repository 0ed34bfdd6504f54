import Foundation
import GRDB
import Testing
@testable import OpenSwiftData
import PixarFilmTracker

// The Pixar film tracker of the seeds, V1 to V3, is the demo's own (`Sources/PixarFilmTracker/PixarSchemas.swift`):
// tests open the stores `osd demo` writes, so they use its models. The tests' plan bridges V1 to V2
// with a custom stage, where the demo uses a transform.

/// What willMigrate hands to didMigrate in the seed's V1 → V2 stage.
let pixarBridge = Recorder<[String: Int]>([:])

enum PixarCustomStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self, PixarSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: PixarSchemaV1.self,
        toVersion: PixarSchemaV2.self,
        willMigrate: { context in
            var years: [String: Int] = [:]
            for film in try context.fetch(FetchDescriptor<PixarSchemaV1.PixarFilm>()) {
                years[film.title] = Calendar(identifier: .gregorian).component(.year, from: film.releaseDate)
            }
            pixarBridge.value = years
        },
        didMigrate: { context in
            for film in try context.fetch(FetchDescriptor<PixarSchemaV2.PixarFilm>()) {
                film.releaseYear = pixarBridge.value[film.title] ?? 0
                film.releaseCountry = "US"
            }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: PixarSchemaV2.self, toVersion: PixarSchemaV3.self)
}

/// The Pixar V1 → V2 split written directly, old and new values in one step.
enum PixarTransformPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self] }
    static let migrateV1toV2 = MigrationStage.transform(
        fromVersion: PixarSchemaV1.self, toVersion: PixarSchemaV2.self,
        model: PixarSchemaV1.PixarFilm.self, to: PixarSchemaV2.PixarFilm.self, batchSize: 2
    ) { old, new in
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        new.releaseYear = calendar.component(.year, from: old.releaseDate)
        new.releaseCountry = old.title == "Coco" ? "MX" : "US"
    }
    static var stages: [MigrationStage] { [migrateV1toV2] }
}

extension MigrationTests {
    private func seedPixarV1(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: PixarSchemaV1.self), configurations: ModelConfiguration(url: url)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (title, year) in [("Toy Story", 1995), ("Up", 2009), ("Coco", 2017)] {
            let date = calendar.date(from: DateComponents(year: year, month: 6, day: 15))!
            context.insert(PixarSchemaV1.PixarFilm(title: title, releaseDate: date))
        }
        try context.save()
    }

    @Test func pixarV1StoreOpensAtV3ThroughACustomAndALightweightStage() throws {
        let url = temporaryStoreURL()
        try seedPixarV1(url)
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarCustomStagePlan.self,
            configurations: ModelConfiguration(url: url))
        let films = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(sortBy: [SortDescriptor(\.releaseYear)]))
        #expect(films.map(\.title) == ["Toy Story", "Up", "Coco"])
        #expect(films.map(\.releaseYear) == [1995, 2009, 2017])
        #expect(films.allSatisfy { $0.releaseCountry == "US" && $0.isAnimated && $0.posterURL == nil })
        #expect(try rawColumns(url, table: "PixarFilm") == ["_pk", "title", "releaseYear", "releaseCountry", "posterURL", "isAnimated"])
        let history = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT fromVersion, toVersion, kind FROM _osd_migrations ORDER BY id")
        }
        #expect(history.map { $0["kind"] as String } == ["custom", "lightweight"])
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"))

        // Opened again, nothing runs.
        _ = try ModelContainer(for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM _osd_migrations")[0] as Int == 2)
    }

    @Test func pixarV2StoreMigratesToV3Lightweight() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PixarSchemaV2.self)) { context in
            context.insert(PixarSchemaV2.PixarFilm(title: "Cars", releaseYear: 2006, releaseCountry: "US"))
        }
        let container = try ModelContainer(for: PixarSchemaV3.PixarFilm.self, migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        let film = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>())[0]
        #expect(film.title == "Cars")
        #expect(film.releaseYear == 2006)
        #expect(film.isAnimated)
    }

    @Test func aStoreNewerThanTheAppIsRefused() throws {
        let url = temporaryStoreURL()
        _ = try ModelContainer(for: Schema(versionedSchema: PixarSchemaV3.self), configurations: ModelConfiguration(url: url))
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PixarSchemaV2.self), migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error == .backwardMigration)
        #expect(error.description.contains("PixarSchemaV3"))
        let withoutPlan = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PixarSchemaV2.self), configurations: ModelConfiguration(url: url))
        }
        #expect(withoutPlan == .backwardMigration)
    }

    @Test func aTransformStageSeesOldAndNewValuesTogether() throws {
        let url = temporaryStoreURL()
        try seedPixarV1(url)
        let container = try ModelContainer(for: PixarSchemaV2.PixarFilm.self, migrationPlan: PixarTransformPlan.self, configurations: ModelConfiguration(url: url))
        let films = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV2.PixarFilm>(sortBy: [SortDescriptor(\.releaseYear)]))
        #expect(films.map(\.releaseYear) == [1995, 2009, 2017])
        #expect(films.map(\.releaseCountry) == ["US", "US", "MX"])
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '_osd_old%'")
        }
        #expect(tables.isEmpty)
    }
}
