import Foundation
import GRDB

/// Writes stores in Core Data's SQLite layout, the one Apple's SwiftData writes, from the
/// layout's documented facts (no Mac writes them here): tables `Z` + entity name in capitals
/// with `Z_PK`, `Z_ENT` and `Z_OPT`; `Z_PRIMARYKEY` numbering the entities; `Z_METADATA` with a
/// binary property list; many-to-many join tables `Z_<entity number><RELATIONSHIP>`; the
/// persistent history's `ATRANSACTION` and `ACHANGE`; external data in
/// `.<store>_SUPPORT/_EXTERNAL_DATA`; the model in `Z_MODELCACHE` (``AppleLayoutModelCache``).
enum AppleLayoutStore {
    /// A trip planner's store: trips (1), their stops (2, to-one `trip`), tags (3, many-to-many
    /// with trips), a persistent history and one external photo.
    static func writeTrips(at url: URL, trips: Int = 3) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: AppleLayoutBuilder.metadataTables)
            try db.execute(sql: """
                CREATE TABLE ZTRIP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZSTART TIMESTAMP, ZBUDGET FLOAT, ZPHOTO BLOB, ZID BLOB);
                CREATE TABLE ZSTOP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRIP INTEGER, ZPLACE VARCHAR);
                CREATE INDEX ZSTOP_ZTRIP_INDEX ON ZSTOP (ZTRIP);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                CREATE TABLE Z_1TAGS (Z_1TRIPS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_1TRIPS, Z_3TAGS));
                CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
                CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
                CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, NULL, 'app');
                """)
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Trip', 0, ?), (2, 'Stop', 0, ?), (3, 'Tag', 0, 2), (16001, 'CHANGE', 0, ?), (16002, 'TRANSACTION', 0, ?), (16003, 'TRANSACTIONSTRING', 0, 1)",
                           arguments: [trips, trips * 2, trips * 3, trips])
            for trip in 1...trips {
                let start = Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(trip) * 86_400).timeIntervalSinceReferenceDate
                try db.execute(sql: "INSERT INTO ZTRIP VALUES (?, 1, 1, ?, ?, ?, ?, ?)", arguments: [
                    trip, "Trip \(trip)", start, Double(trip) * 100.5,
                    trip == 1 ? Data([0x02]) + Data("6C0D2E3B-58A9-4E1A-9C7B-1F2A3B4C5D6E".utf8) : Data([0x01, 0xFF, 0xD8]),
                    withUnsafeBytes(of: UUID().uuid) { Data($0) }])
                for stop in 0..<2 {
                    try db.execute(sql: "INSERT INTO ZSTOP VALUES (?, 2, 1, ?, ?)", arguments: [(trip - 1) * 2 + stop + 1, trip, "Stop \(trip).\(stop)"])
                }
                try db.execute(sql: "INSERT INTO Z_1TAGS VALUES (?, ?)", arguments: [trip, trip % 2 + 1])
                try db.execute(sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZTIMESTAMP, ZAUTHORTS) VALUES (?, 16002, NULL, ?, 1)", arguments: [trip, start])
                for change in 0..<3 {
                    try db.execute(sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (?, 16001, NULL, 0, ?, ?, ?)",
                                   arguments: [(trip - 1) * 3 + change + 1, change == 0 ? 1 : 2, trip, trip])
                }
            }
            try db.execute(sql: "INSERT INTO ZTAG VALUES (1, 3, 1, 'family'), (2, 3, 1, 'work')")
            // The store's identifier is in Z_UUID, not in the property list.
            let plist: [String: Any] = [
                "NSStoreType": "SQLite",
                "NSPersistenceFrameworkVersion": 1345,
                "_NSAutoVacuumLevel": "2",
                "NSStoreModelVersionHashesVersion": 3,
                "NSStoreModelVersionIdentifiers": ["1.0.0"],
                "NSStoreModelVersionHashes": ["Trip": Data(repeating: 1, count: 32), "Stop": Data(repeating: 2, count: 32), "Tag": Data(repeating: 3, count: 32)],
            ]
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, '0B1C7A52-2F64-4D3E-8C2B-5F9A1E7D3C40', ?)", arguments: [data])
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (?)", arguments: [try AppleLayoutModelCache.trips()])
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        let external = url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 2048).write(to: external.appendingPathComponent("6C0D2E3B-58A9-4E1A-9C7B-1F2A3B4C5D6E"))
    }

    /// The store as a device leaves it while the app runs: its last saves still in the
    /// write-ahead log beside it (`-wal`, `-shm`), not yet in the file. `extraTrips` trips are
    /// saved after the first `trips`, and only the log holds them.
    static func writeTripsWithSavesInTheLog(at url: URL, trips: Int, extraTrips: Int) throws {
        let scratch = url.deletingLastPathComponent().appendingPathComponent("scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let original = scratch.appendingPathComponent(url.lastPathComponent)
        try writeTrips(at: original, trips: trips)
        let queue = try DatabaseQueue(path: original.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        try queue.write { db in
            for trip in trips + 1...trips + extraTrips {
                try db.execute(sql: "INSERT INTO ZTRIP (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", arguments: [trip, "Trip \(trip)"])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", arguments: [trips + extraTrips])
        }
        // Copied while the app's connection is open: the log is as the app left it.
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: url.path + suffix)
        }
        let support = ".\(url.deletingPathExtension().lastPathComponent)_SUPPORT"
        try FileManager.default.copyItem(at: scratch.appendingPathComponent(support), to: url.deletingLastPathComponent().appendingPathComponent(support))
        try queue.close()
    }
}
