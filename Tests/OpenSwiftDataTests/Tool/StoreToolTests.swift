import Foundation
import GRDB
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// A picture kept outside its table, for `osd inspect`.
@Model final class ToolPicture {
    var caption: String
    @Attribute(.externalStorage) var bytes: Data
    init(caption: String, bytes: Data) {
        self.caption = caption
        self.bytes = bytes
    }
}

/// `osd`'s store commands, run as the built executable on stores the tests write: output, exit
/// codes, and files left as they were.
@Suite(.serialized) struct StoreToolTests {
    private func pixarStore(migratedTo version: (any VersionedSchema.Type)? = nil) throws -> URL {
        let url = temporaryStoreURL("films")
        let tester = MigrationTester(for: PixarMigrationPlan.self)
        try tester.makeStore(at: PixarSchemaV1.self, url: url) { context in
            context.insert(PixarSchemaV1.PixarFilm(title: "Up", releaseDate: Date(timeIntervalSince1970: 1_243_000_000)))
            context.insert(PixarSchemaV1.PixarFilm(title: "Coco, \"the\" film", releaseDate: Date(timeIntervalSince1970: 1_510_000_000)))
        }
        if let version {
            _ = try ModelContainer(
                for: Schema(versionedSchema: version), migrationPlan: PixarMigrationPlan.self, configurations: ModelConfiguration(url: url))
        }
        return url
    }

    @Test func inspectShowsAStoreAppleSwiftDataWroteWithoutWritingToIt() async throws {
        try #require(OSDProcess.isBuilt)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-apple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        try AppleLayoutStore.writeTripsWithSavesInTheLog(at: url, trips: 2, extraTrips: 1)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        let text = try await OSDProcess.capture(["inspect", url.path])
        #expect(text.status == 0, "\(text.output)")
        #expect(text.output.contains("written by Apple's SwiftData or Core Data"))
        #expect(text.output.contains("Model versions: 1.0.0"))
        #expect(text.output.contains("Trip (entity 1, table ZTRIP, version hash 0101010101010101…): 3 rows"))
        #expect(text.output.contains("  start: Date?  (column ZSTART)"))
        #expect(text.output.contains("  stops → [Stop], inverse trip, delete rule cascade"))
        #expect(text.output.contains("Model cache (Z_MODELCACHE): kept, read"))
        #expect(text.output.contains("Z_1TAGS (Z_1TRIPS, Z_3TAGS): 2 rows"))
        #expect(text.output.contains("Persistent history: 2 transaction(s), 6 change(s)."))
        let check = try await OSDProcess.capture(["check", url.path])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("(a store written by Apple's SwiftData or Core Data, checked from a copy): no problem found."))
        let json = try await OSDProcess.capture(["inspect", "--json", url.path])
        #expect(try JSONDecoder().decode(AppleStoreInspection.self, from: Data(json.output.utf8)).entities.map(\.rows) == [3, 4, 2])
        // Rows by the model's names, links as keys; the row only the log holds is there.
        let export = try await OSDProcess.capture(["export", url.path])
        #expect(export.status == 0, "\(export.output)")
        let lines = export.output.split(separator: "\n")
        #expect(lines.count == 3 + 4 + 2)
        #expect(lines.contains { $0.hasPrefix("{\"_entity\":\"Trip\",\"_pk\":3,") && $0.contains("\"name\":\"Trip 3\"") })
        #expect(lines.contains("{\"_entity\":\"Stop\",\"_pk\":1,\"place\":\"Stop 1.0\",\"trip\":1}"))
        let csv = try await OSDProcess.capture(["export", url.path, "--entity", "Tag", "--format", "csv"])
        #expect(csv.output == "_pk,name\n1,family\n2,work\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map { try Data(contentsOf: folder.appendingPathComponent($0)) } == before)
    }

    @Test func importBringsAStoreAppleSwiftDataWroteIntoANewStoreOrSaysWhatItWouldLeaveBehind() async throws {
        try #require(OSDProcess.isBuilt)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-apple-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        let new = folder.appendingPathComponent("Trips.store")
        try AppleLayoutStore.writeTrips(at: url, trips: 3)
        let before = try Data(contentsOf: url)

        let dryRun = try await OSDProcess.capture(["import", url.path, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(dryRun.output.contains("Trip: 3 rows"))
        #expect(dryRun.output.contains("  start ← ZSTART, Date → Optional<Date>"))
        #expect(dryRun.output.contains("The import can run"))
        #expect(!FileManager.default.fileExists(atPath: new.path))

        let imported = try await OSDProcess.capture(["import", url.path, new.path])
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Imported \(url.path): 11 models"))
        let check = try await OSDProcess.capture(["check", new.path])
        #expect(check.status == 0, "\(check.output)")
        let export = try await OSDProcess.capture(["export", new.path, "--entity", "Tag", "--format", "csv"])
        #expect(export.output == "_pk,name\n1,family\n2,work\n")
        #expect(try Data(contentsOf: url) == before)

        let again = try await OSDProcess.capture(["import", url.path, new.path])
        #expect(again.status == 2)
        #expect(again.errors.contains("there is already a file at \(new.path)"))

        // A value whose Swift type only the app's models know is refused, named, unless dropped.
        let coded = folder.appendingPathComponent("coded.store")
        try AppleLayoutBuilder(entities: [.init(name: "Note", attributes: [
            .init(name: "title", type: 700, sqlType: "VARCHAR"), .init(name: "tags", type: 1800, sqlType: "BLOB", isOptional: true),
        ])]).write(at: coded) { db in
            try db.execute(sql: "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZTAGS) VALUES (1, 1, 1, 'a', x'62706C697374')")
        }
        let refused = try await OSDProcess.capture(["import", coded.path, folder.appendingPathComponent("notes.store").path])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Note.tags: 1 value of Core Data's type Transformable"))
        let dropped = try await OSDProcess.capture(["import", coded.path, folder.appendingPathComponent("notes.store").path, "--drop", "Note.tags"])
        #expect(dropped.status == 0, "\(dropped.output)")
        #expect(dropped.output.contains("Note.tags: 1 value of Core Data's type Transformable"))
    }

    @Test func inspectShowsTheRecordedSchemaCountsFilesAndAMidwayHistoryWithoutWriting() async throws {
        try #require(OSDProcess.isBuilt)
        let url = try pixarStore(migratedTo: PixarSchemaV2.self)
        let before = try storeFiles(url)
        let text = try await OSDProcess.capture(["inspect", url.path])
        #expect(text.status == 0)
        #expect(text.output.contains("Version 2.0.0, fingerprint "))
        #expect(text.output.contains("PixarFilm: 2 rows"))
        #expect(text.output.contains("  releaseYear: Int"))
        #expect(text.output.contains("PixarSchemaV1 (1.0.0) → PixarSchemaV2 (2.0.0)  custom"))
        #expect(text.output.contains("films.store.backup"))
        let json = try await OSDProcess.capture(["inspect", "--json", url.path])
        let inspection = try JSONDecoder.iso8601.decode(StoreInspection.self, from: Data(json.output.utf8))
        #expect(inspection.version == "2.0.0")
        #expect(inspection.entities.map(\.rows) == [2])
        #expect(inspection.history.map(\.toVersion) == ["PixarSchemaV2 (2.0.0)"])
        #expect(try storeFiles(url) == before)
    }

    @Test func inspectShowsExternalStorageAndRefusesWhatIsNotAStore() async throws {
        try #require(OSDProcess.isBuilt)
        let url = temporaryStoreURL()
        try writeStore(url, for: ToolPicture.self) { context in
            context.insert(ToolPicture(caption: "sunset", bytes: Data(repeating: 7, count: 10_000)))
        }
        let output = try await OSDProcess.capture(["inspect", url.path]).output
        #expect(output.contains("bytes: Data, external storage"))
        #expect(output.contains("caption: String"))

        let text = url.deletingLastPathComponent().appendingPathComponent("notes.txt")
        try Data("not a database".utf8).write(to: text)
        let refused = try await OSDProcess.capture(["inspect", text.path])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("is not an SQLite database, so it is not a store"))
        let other = url.deletingLastPathComponent().appendingPathComponent("other.sqlite")
        try await DatabaseQueue(path: other.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let otherBefore = try Data(contentsOf: other)
        let notOurs = try await OSDProcess.capture(["check", other.path])
        #expect(notOurs.status == 2)
        #expect(notOurs.errors.contains("not an OpenSwiftData store"))
        #expect(try Data(contentsOf: other) == otherBefore)
    }

    @Test func snapshotAndDiffSpeakTheFormatOfTheSnapshotCheck() async throws {
        try #require(OSDProcess.isBuilt)
        let v1 = try pixarStore()
        let v3 = try pixarStore(migratedTo: PixarSchemaV3.self)
        let snapshot = v1.deletingLastPathComponent().appendingPathComponent("1.0.0.json")
        #expect(try await OSDProcess.capture(["snapshot", v1.path, "-o", snapshot.path]).status == 0)
        let folder = temporaryStoreURL().deletingLastPathComponent().appendingPathComponent("SchemaSnapshots")
        try PixarMigrationPlan.verify(snapshotsIn: folder)
        #expect(try Data(contentsOf: snapshot) == Data(contentsOf: folder.appendingPathComponent("1.0.0.json")))

        let same = try await OSDProcess.capture(["diff", snapshot.path, v1.path])
        #expect(same.status == 0)
        #expect(same.output.contains("Same structure."))
        let diff = try await OSDProcess.capture(["diff", snapshot.path, v3.path])
        #expect(diff.status == 1)
        #expect(diff.output.contains("PixarFilm.releaseDate removed"))
        #expect(diff.output.contains("PixarFilm.posterURL added (Optional<URL>, optional)"))
        #expect(diff.output.contains("Not lightweight"))
        #expect(diff.output.contains("PixarFilm.releaseYear is added as non-optional"))
        // isAnimated has a default in the store's table: not a blocker.
        #expect(!diff.output.contains("PixarFilm.isAnimated is added as non-optional"))
        let json = try await OSDProcess.capture(["diff", "--json", v1.path, v3.path])
        let comparison = try JSONDecoder().decode(SchemaComparison.self, from: Data(json.output.utf8))
        #expect(!comparison.isLightweight)
    }

    @Test func checkPassesASoundStoreAndFindsADamagedOne() async throws {
        try #require(OSDProcess.isBuilt)
        let url = try pixarStore(migratedTo: PixarSchemaV3.self)
        let sound = try await OSDProcess.capture(["check", url.path])
        #expect(sound.status == 0)
        #expect(sound.output.contains("no problem found"))

        // Two films given one title, under a unique constraint the store records but whose
        // index was dropped behind its back.
        let damaged = temporaryStoreURL()
        try writeStore(damaged, for: Schema(versionedSchema: LedgerV5.self)) { context in
            context.insert(LedgerV5.Entry(label: "rent"))
            context.insert(LedgerV5.Entry(label: "food"))
        }
        let queue = try DatabaseQueue(path: damaged.path)
        try await queue.write { db in
            for index in try db.indexes(on: "Entry") where index.isUnique { try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)") }
            try db.execute(sql: "UPDATE Entry SET label = 'rent'")
        }
        try queue.close()
        let found = try await OSDProcess.capture(["check", "--json", damaged.path])
        #expect(found.status == 1)
        #expect(found.output.contains("Entry: 1 value of the unique label repeat"))

        // The schema table's page overwritten after the file's header.
        let corrupt = try pixarStore(migratedTo: PixarSchemaV3.self)
        let handle = try FileHandle(forWritingTo: corrupt)
        try handle.seek(toOffset: 100)
        handle.write(Data(repeating: 0xFF, count: 3000))
        try handle.close()
        let before = try storeFiles(corrupt)
        let broken = try await OSDProcess.capture(["check", corrupt.path])
        #expect(broken.status == 2)
        #expect(broken.errors.contains("is corrupt"))
        #expect(try storeFiles(corrupt) == before)
    }

    @Test func backupAndRestoreRefuseAStoreInUseOrNewerAndCheckWhatTheyRestore() async throws {
        try #require(OSDProcess.isBuilt)
        let url = try pixarStore()
        let copy = url.deletingLastPathComponent().appendingPathComponent("copy.store")
        #expect(try await OSDProcess.capture(["backup", url.path, copy.path]).status == 0)
        #expect(try await OSDProcess.capture(["backup", url.path, copy.path]).status == 2)
        #expect(try StoreInspection(storeAt: copy).entities.map(\.rows) == [2])

        // The store moves on to version 3; restoring version 1 over it needs --force.
        _ = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let before = try storeFiles(url)
        let newer = try await OSDProcess.capture(["restore", copy.path, url.path])
        #expect(newer.status == 2)
        #expect(newer.errors.contains("records version 3.0.0, newer than the backup's 1.0.0"))
        #expect(try storeFiles(url) == before)

        // Open in a container: in use.
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self, configurations: ModelConfiguration(url: url))
        _ = try ModelContext(container).fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>())
        let inUse = try await OSDProcess.capture(["restore", copy.path, url.path])
        #expect(inUse.status == 2)
        #expect(inUse.errors.contains("is in use"))
        #expect(try await OSDProcess.capture(["restore", "--force", copy.path, url.path]).status == 0)
        withExtendedLifetime(container) {}

        let restored = try await OSDProcess.capture(["restore", copy.path, temporaryStoreURL().path])
        #expect(restored.status == 0)
        #expect(restored.output.contains("the restored store checks out"))
        #expect(try StoreInspection(storeAt: url).version == "1.0.0")
    }

    @Test func theDemoPreviewsItsMigrationAndShowsItsProgress() async throws {
        try #require(OSDProcess.isBuilt)
        let url = temporaryStoreURL("films")
        let run = try await OSDProcess.capture(["demo", "--extra-films", "3000", "--store", url.path])
        #expect(run.status == 0)
        // The dry run, printed before the real migration.
        #expect(run.output.contains("Migration of \(url.path): 1.0.0 → 3.0.0, 2 steps"))
        #expect(run.output.contains("PixarFilm: 0 inserted, 3014 updated, 0 deleted by the stage's code"))
        // Not on a terminal: a line at each tenth of the way, the transform's rows among them.
        #expect(run.output.contains("0%: step 1/2 PixarSchemaV1 (1.0.0) → PixarSchemaV2 (2.0.0): started, 0%"))
        #expect(run.output.contains("PixarFilm rows 3014/3014, 50%"))
        #expect(run.output.contains("100%: step 2/2 PixarSchemaV2 (2.0.0) → PixarSchemaV3 (3.0.0): finished, 100%"))
    }

    @Test func exportWritesJSONLinesAndCSV() async throws {
        try #require(OSDProcess.isBuilt)
        let url = try pixarStore(migratedTo: PixarSchemaV3.self)
        let json = try await OSDProcess.capture(["export", url.path])
        let lines = json.output.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(first?["_entity"] as? String == "PixarFilm")
        #expect(first?["title"] as? String == "Up")
        #expect(first?["releaseYear"] as? Int == 2009)
        let csv = try await OSDProcess.capture(["export", url.path, "--entity", "PixarFilm", "--format", "csv"])
        #expect(csv.output.split(separator: "\n") == [
            "_pk,title,releaseYear,releaseCountry,posterURL,isAnimated",
            "1,Up,2009,US,,1",
            "2,\"Coco, \"\"the\"\" film\",2017,US,,1",
        ])
        let unknown = try await OSDProcess.capture(["export", url.path, "--entity", "Nope"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("has no entity Nope"))
    }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
