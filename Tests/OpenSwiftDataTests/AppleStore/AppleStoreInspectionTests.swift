import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Stores in the layout Apple's SwiftData writes (made here from the layout's documented
/// facts, by ``AppleLayoutStore``), looked inside without a Mac and without writing to them.
@Suite struct AppleStoreInspectionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apple-stores-\(UUID().uuidString)")

    private func files(beside url: URL) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            contents[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return contents
    }

    @Test func aStoreSwiftDataWroteShowsItsEntitiesVersionsHistoryAndExternalDataAndStaysAsItWas() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        try AppleLayoutStore.writeTrips(at: url, trips: 3)
        let before = try files(beside: url)

        let inspection = try AppleStoreInspection(storeAt: url)
        #expect(inspection.entities.map(\.name) == ["Trip", "Stop", "Tag"])
        #expect(inspection.entities.map(\.table) == ["ZTRIP", "ZSTOP", "ZTAG"])
        #expect(inspection.entities.map(\.rows) == [3, 6, 2])
        #expect(inspection.entities.map(\.number) == [1, 2, 3])
        #expect(inspection.entities[0].maximumPrimaryKey == 3)
        #expect(inspection.entities[0].columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZSTART", "ZBUDGET", "ZPHOTO", "ZID"])
        #expect(inspection.entities[0].columns.first { $0.name == "ZSTART" }?.declaredType == "TIMESTAMP")
        #expect(inspection.joinTables.map(\.name) == ["Z_1TAGS"])
        #expect(inspection.joinTables.first?.rows == 3)
        #expect(inspection.versionIdentifiers == ["1.0.0"])
        #expect(inspection.versionHashes["Trip"] == Data(repeating: 1, count: 32))
        #expect(inspection.storeIdentifier == "0B1C7A52-2F64-4D3E-8C2B-5F9A1E7D3C40")
        #expect(inspection.storeType == "SQLite")
        #expect(inspection.hasModelCache)
        #expect(inspection.modelProblem == nil)
        let model = try #require(inspection.model)
        #expect(model.map(\.name) == ["Stop", "Tag", "Trip"])
        let trip = try #require(model.first { $0.name == "Trip" })
        #expect(trip.attributes.map { "\($0.name): \($0.type)\($0.isOptional ? "?" : "")" } == ["budget: Double", "id: UUID", "name: String", "photo: Data?", "start: Date?"])
        #expect(trip.relationships.map { "\($0.name) \($0.destination) \($0.isToMany) \($0.inverse ?? "-") \($0.deleteRule)" } == ["stops Stop true trip cascade", "tags Tag true trips nullify"])
        #expect(model.first { $0.name == "Stop" }?.relationships.first?.isToMany == false)
        #expect(inspection.history?.transactions == 3 && inspection.history?.changes == 9)
        #expect(inspection.externalDataFiles == 1)

        // Nothing beside the store was made or changed, the store included.
        #expect(try files(beside: url) == before)
        let encoded = try JSONEncoder().encode(inspection)
        #expect(try JSONDecoder().decode(AppleStoreInspection.self, from: encoded).entities == inspection.entities)
    }

    @Test func savesStillInTheWriteAheadLogAreReadAndTheLogIsLeftAsItWas() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        try AppleLayoutStore.writeTripsWithSavesInTheLog(at: url, trips: 2, extraTrips: 3)
        let before = try files(beside: url)
        #expect(before.keys.sorted() == ["default.store", "default.store-shm", "default.store-wal"])
        #expect((before["default.store-wal"]?.count ?? 0) > 0)
        let inspection = try AppleStoreInspection(storeAt: url)
        #expect(inspection.entities.first?.rows == 5)
        #expect(try files(beside: url) == before)
    }

    @Test func aSoundStoreChecksCleanAndDamageIsNamed() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        try AppleLayoutStore.writeTrips(at: url)
        #expect(try AppleStoreInspection.problems(inStoreAt: url) == [])
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZSTOP SET ZTRIP = 99 WHERE Z_PK = 1")
            try db.execute(sql: "INSERT INTO Z_1TAGS VALUES (2, 77)")
            try db.execute(sql: "INSERT INTO ZTAG VALUES (9, 5, 1, 'stray')")
        }
        try queue.close()
        let before = try files(beside: url)
        let problems = try AppleStoreInspection.problems(inStoreAt: url)
        #expect(problems.contains { $0.contains("Stop.trip: 1 row(s) of ZSTOP name a Trip (ZTRIP) that ZTRIP does not have") }, "\(problems)")
        #expect(problems.contains { $0.contains("Z_1TAGS.Z_3TAGS: 1 link(s) to a Tag") }, "\(problems)")
        #expect(problems.contains { $0.contains("ZTAG: 1 row(s) whose Z_ENT names no entity") }, "\(problems)")
        #expect(problems.contains { $0.contains("ZTAG: its highest Z_PK is 9, but Z_PRIMARYKEY's Z_MAX for Tag is 2") }, "\(problems)")
        #expect(problems.count == 4, "\(problems)")
        #expect(try files(beside: url) == before)
    }

    @Test func aDatabaseWithoutCoreDatasTablesIsRefusedSayingSo() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("plain.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY)") }
        try queue.close()
        let error = try #require(throws: SwiftDataError.self) { try AppleStoreInspection(storeAt: url) }
        #expect("\(error)".contains("without Core Data's Z_PRIMARYKEY and Z_METADATA tables"), "\(error)")
        #expect(throws: SwiftDataError.self) { try AppleStoreInspection(storeAt: folder.appendingPathComponent("missing.store")) }
    }

    @Test func aTruncatedOrDamagedStoreIsRefusedAndLeftAsItWas() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("default.store")
        try AppleLayoutStore.writeTrips(at: url)
        let whole = try Data(contentsOf: url)
        try whole.prefix(whole.count / 3).write(to: url)
        let truncated = try Data(contentsOf: url)
        #expect(throws: SwiftDataError.self) { try AppleStoreInspection(storeAt: url) }
        #expect(try Data(contentsOf: url) == truncated)

        // A model cache that is not raw DEFLATE: the rest is read, and the problem said.
        try FileManager.default.removeItem(at: url)
        try AppleLayoutStore.writeTrips(at: url)
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { try $0.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'00ff00ff'") }
            try queue.close()
        }
        let damagedCache = try AppleStoreInspection(storeAt: url)
        #expect(damagedCache.model == nil)
        #expect(damagedCache.modelProblem?.contains("not raw DEFLATE") == true)
        #expect(damagedCache.entities.count == 3)

        // A table Z_PRIMARYKEY names, gone.
        try FileManager.default.removeItem(at: url)
        try AppleLayoutStore.writeTrips(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "DROP TABLE ZSTOP") }
        try queue.close()
        let error = try #require(throws: SwiftDataError.self) { try AppleStoreInspection(storeAt: url) }
        #expect("\(error)".contains("Stop") && "\(error)".contains("ZSTOP"), "\(error)")
    }
}
