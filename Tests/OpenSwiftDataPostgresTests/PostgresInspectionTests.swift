import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// `osd inspect postgres://…`: a PostgreSQL store looked at from its recorded schema, read-only.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresInspectionTests {
    @Test func inspectionReadsTheRecordedSchemaAndRowCounts() throws {
        try ThrowAwaySchema().use { place in
            let store = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let session = try place.session()
            try session.query(PostgresQuery(unsafeSQL: "INSERT INTO \(PostgresNames.qualified("Cinema", in: place.name)) (\"name\") VALUES ('Rex'), ('Odeon')"))
            let inspection = try PostgresStore.inspection(of: PostgresConfiguration(url: place.url, databaseSchema: place.name))
            #expect(inspection.version == store.schema.version.description)
            #expect(inspection.entities.first { $0.name == "Cinema" }?.rows == 2)
            #expect(inspection.entities.first { $0.name == "Screening" }?.rows == 0)
            let indices = inspection.entities.first { $0.name == "Screening" }?.indices.map(\.name) ?? []
            #expect(indices.contains("Screening_unique_code") && indices.contains("Screening_key_cinema"))
            #expect(!inspection.path.contains("secret"))

            #expect {
                try PostgresStore.inspection(of: PostgresConfiguration(url: place.url, databaseSchema: place.name + "_none"))
            } throws: { error in
                "\(error)".contains("holds no OpenSwiftData store")
            }
            let schemas = try session.query("SELECT count(*) FROM pg_namespace WHERE nspname = \(place.name + "_none")").first?.decode(Int.self)
            #expect(schemas == 0, "inspecting created the schema it looked for")
        }
    }

    @Test func osdInspectTakesAPostgresURL() async throws {
        let osd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osd")
        try #require(FileManager.default.isExecutableFile(atPath: osd.path), "osd is built beside the tests")
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let process = Process()
            process.executableURL = osd
            process.arguments = ["inspect", place.url.absoluteString, "--database-schema", place.name]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(text.contains("Cinema: 0 rows"))
            #expect(text.contains("patrons → [Patron], inverse screenings"))
            #expect(text.contains("index Screening_unique_code on code (unique)"))
        } }
    }

    @Test func checkFindsWhatIsMissingOrOfAnotherType() throws {
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let configuration = PostgresConfiguration(url: place.url, databaseSchema: place.name)
            #expect(try PostgresStore.problems(of: configuration) == [])
            let session = try place.session()
            let screening = PostgresNames.qualified("Screening", in: place.name)
            try session.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(screening) DROP COLUMN \"seats\""))
            try session.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(screening) ALTER COLUMN \"title\" TYPE varchar(20)"))
            try session.query(PostgresQuery(unsafeSQL: "DROP INDEX \(PostgresNames.qualified("Screening_unique_code", in: place.name))"))
            try session.query(PostgresQuery(unsafeSQL: "DROP TABLE \(PostgresNames.qualified("_osd_join_Patron_screenings", in: place.name))"))
            let problems = try PostgresStore.problems(of: configuration)
            #expect(problems.contains("Screening.seats: the column is missing"))
            #expect(problems.contains("Screening.title: the column is character varying(20), not text"))
            #expect(problems.contains { $0.hasPrefix("Screening: the unique index Screening_unique_code is missing") })
            #expect(problems.contains("_osd_join_Patron_screenings: the table is missing"))
            #expect(problems.count == 4)
        }
    }

    /// Export writes what SQLite's export writes for the same rows: the columns by name, a
    /// decimal's digits, a date's seconds, data as base64.
    @Test func exportWritesTheRowsAsTheSQLiteExportDoes() throws {
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let session = try place.session()
            try session.query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(PostgresNames.qualified("Screening", in: place.name)) ("code", "title", "startsAt", "price", "seats", "poster")
                VALUES ('A1', 'Up', 12.5, 9.95, 40, '\\x0102'::bytea), ('B2', 'Coco', -1, 0, 0, NULL)
                """))
            var lines: [String] = []
            let count = try PostgresStore.export(PostgresConfiguration(url: place.url, databaseSchema: place.name), entity: "Screening", format: .json) {
                lines.append($0)
            }
            #expect(count == 2)
            #expect(lines.first == #"{"_entity":"Screening","_pk":1,"code":"A1","title":"Up","startsAt":12.5,"price":"9.95","seats":40,"poster":"AQI=","cinema":null}"# + "\n")
            #expect(lines.last?.contains(#""price":"0""#) == true)

            let sqlite = temporaryStoreURL()
            let context = ModelContext(try ModelContainer(for: Screening.self, configurations: ModelConfiguration(url: sqlite)))
            let up = Screening(code: "A1", title: "Up", startsAt: Date(timeIntervalSinceReferenceDate: 12.5), price: Decimal(string: "9.95")!, seats: 40)
            up.poster = Data([1, 2])
            context.insert(up)
            try context.save()
            var sqliteLines: [String] = []
            try StoreExport.export(storeAt: sqlite, entity: "Screening", format: .json) { sqliteLines.append($0) }
            #expect(sqliteLines.first == lines.first)
        }
    }

    /// `osd snapshot` and `osd diff` read a PostgreSQL store's recorded schema from its URL
    /// (`?schema=` names the PostgreSQL schema), beside SQLite stores and snapshots.
    @Test func snapshotAndDiffTakePostgresURLs() async throws {
        let osd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osd")
        try #require(FileManager.default.isExecutableFile(atPath: osd.path), "osd is built beside the tests")
        @Sendable func run(_ arguments: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = osd
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        try await onAThreadOfItsOwn { try ThrowAwaySchema().use { place in
            let store = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            #expect(try PostgresStore.recordedSchema(of: PostgresConfiguration(url: place.url, databaseSchema: place.name)).fingerprint == store.schema.fingerprint)
            let url = place.url.absoluteString + "?schema=" + place.name
            let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("osd-pg-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: snapshot) }
            #expect(try run(["snapshot", url, "-o", snapshot.path]).0 == 0)
            let same = try run(["diff", snapshot.path, url])
            #expect(same.0 == 0 && same.1.contains("Same structure."))

            let sqlite = temporaryStoreURL()
            _ = try ModelContainer(for: Cinema.self, AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits.self, configurations: ModelConfiguration(url: sqlite))
            let different = try run(["diff", url, sqlite.path])
            #expect(different.0 == 1)
            #expect(different.1.contains("AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits"))
        } }
    }
}

@Model class Venue {
    var name: String
    init(name: String) { self.name = name }
}

@Model class Theatre: Venue {
    var seats: Int
    init(name: String, seats: Int) {
        self.seats = seats
        super.init(name: name)
    }
}

/// A hierarchy's one table: rows counted by class, and a row of a class the schema lacks found.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresHierarchyInspectionTests {
    @Test func rowsAreCountedByClassAndAStrangeClassIsAProblem() throws {
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(PostgresConfiguration(schema: Schema([Venue.self, Theatre.self]), url: place.url, databaseSchema: place.name))
            let venue = PostgresNames.qualified("Venue", in: place.name)
            try place.session().query(PostgresQuery(unsafeSQL:
                "INSERT INTO \(venue) (\"_entity\", \"name\", \"seats\") VALUES ('Venue', 'Hall', NULL), ('Theatre', 'Globe', 900), ('Theatre', 'Rose', 300)"))
            let configuration = PostgresConfiguration(url: place.url, databaseSchema: place.name)
            let inspection = try PostgresStore.inspection(of: configuration)
            #expect(inspection.entities.first { $0.name == "Venue" }?.rows == 1)
            #expect(inspection.entities.first { $0.name == "Theatre" }?.rows == 2)
            #expect(try PostgresStore.problems(of: configuration) == [])
            try place.session().query(PostgresQuery(unsafeSQL: "INSERT INTO \(venue) (\"_entity\", \"name\") VALUES ('Circus', 'Big Top')"))
            #expect(try PostgresStore.problems(of: configuration) == ["Venue: 1 row(s) of class Circus, which the schema does not have"])
        }
    }
}

func temporaryStoreURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("osd-pg-test-\(UUID().uuidString).store")
}
