import Foundation
import GRDB
import Testing
@testable import OpenSwiftData
import PixarFilmTracker

/// A migration killed at any moment leaves the store at the old version or the new one, never
/// in between.
@Suite struct MigrationCrashTests {
    @Test func aKilledMigrationLeavesTheOldVersionOrTheNew() async throws {
        try #require(OSDProcess.isBuilt, "osd is built beside the tests")
        let films = 60_000 + 14
        let seeded = temporaryStoreURL("seed")
        #expect(try await OSDProcess.run(["demo", "--step", "write-v1", "--extra-films", "60000", "--store", seeded.path]).status == 0)
        var outcomes: [(version: String, killed: Bool)] = []
        for delay in [0.05, 0.4, 0.9, 1.6] {
            let url = temporaryStoreURL()
            try FileManager.default.copyItem(at: seeded, to: url)
            let killed = try await OSDProcess.run(["demo", "--step", "open-v3", "--no-preview", "--store", url.path], killAfter: delay).killed

            let queue = try DatabaseQueue(path: url.path)
            let (version, columns, count, leftovers) = try await queue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'") ?? "",
                    try db.columns(in: "PixarFilm").map(\.name),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM PixarFilm") ?? 0,
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '\\_osd\\_new%' ESCAPE '\\' OR name LIKE '\\_osd\\_old%' ESCAPE '\\'")
                )
            }
            #expect(count == films)
            #expect(leftovers.isEmpty)
            switch version {
            case "1.0.0":
                #expect(columns == ["_pk", "title", "releaseDate"])
            case "3.0.0":
                #expect(columns.contains("releaseYear") && columns.contains("isAnimated"))
                #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM PixarFilm WHERE releaseYear = 0") } == 0)
            default:
                Issue.record("the store records version \(version), neither the old nor the new")
            }
            outcomes.append((version, killed))
            try queue.close()

            // Whatever happened, the next launch of the same app finishes the job.
            let container = try ModelContainer(
                for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
                configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            #expect(try context.fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>()) == films)
            #expect(try context.fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(predicate: #Predicate { $0.title == "Toy Story" })).map(\.releaseYear) == [1995])
        }
        // At least one kill landed while the migration ran: the process was still running and
        // the store had not moved.
        #expect(outcomes.contains { $0.killed && $0.version == "1.0.0" })
    }

    /// The peak memory, in MB, of `osd demo` migrating a store of `extraFilms` + 14 films.
    private func peakMemoryMigrating(extraFilms: Int) async throws -> Int {
        let url = temporaryStoreURL()
        #expect(try await OSDProcess.run(["demo", "--step", "write-v1", "--extra-films", "\(extraFilms)", "--store", url.path]).status == 0)
        let output = Pipe()
        #expect(try await OSDProcess.run(["demo", "--step", "open-v3", "--report-peak-memory", "--store", url.path], output: output).status == 0)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("The store now holds \(extraFilms + 14) films"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Peak memory: ") })
        return try #require(Int(line.dropFirst("Peak memory: ".count).split(separator: " ")[0]))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func aTransformWalkingALargeTableUsesMemoryBoundedByItsBatch() async throws {
        try #require(OSDProcess.isBuilt, "osd is built beside the tests")
        let small = try await peakMemoryMigrating(extraFilms: 20_000)
        let large = try await peakMemoryMigrating(extraFilms: 120_000)
        // Holding 100,000 more films at once would take tens of megabytes more.
        #expect(large - small < 12, "peak memory \(small) MB for 20,014 films, \(large) MB for 120,014")
    }
}
