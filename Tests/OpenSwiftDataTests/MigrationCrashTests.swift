import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// A migration killed at any moment leaves the store at the old version or the new one, never
/// in between.
@Suite struct MigrationCrashTests {
    private var osd: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osd")
    }

    private func run(_ arguments: [String], killAfter delay: Double? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = osd
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aKilledMigrationLeavesTheOldVersionOrTheNew() throws {
        try #require(FileManager.default.isExecutableFile(atPath: osd.path), "osd is built beside the tests")
        let films = 60_000 + 14
        let seeded = temporaryStoreURL("seed")
        #expect(try run(["demo", "--step", "write-v1", "--extra-films", "60000", "--store", seeded.path]) == 0)
        var outcomes: [String] = []
        for delay in [0.05, 0.4, 0.9, 1.6] {
            let url = temporaryStoreURL()
            try FileManager.default.copyItem(at: seeded, to: url)
            _ = try run(["demo", "--step", "open-v3", "--store", url.path], killAfter: delay)

            let queue = try DatabaseQueue(path: url.path)
            let (version, columns, count, leftovers) = try queue.read { db in
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
                #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM PixarFilm WHERE releaseYear = 0") } == 0)
            default:
                Issue.record("the store records version \(version), neither the old nor the new")
            }
            outcomes.append(version)
            try queue.close()

            // Whatever happened, the next launch finishes the job.
            let container = try ModelContainer(
                for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
                configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            #expect(try context.fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>()) == films)
            #expect(try context.fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>(predicate: #Predicate { $0.releaseYear == 1995 })) == 1)
        }
        #expect(outcomes.contains("1.0.0"))
    }
}
