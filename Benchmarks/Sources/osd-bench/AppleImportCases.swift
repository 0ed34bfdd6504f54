import Foundation
import GRDB
import OpenSwiftData

/// J1: a store Apple's SwiftData wrote (Core Data's SQLite layout: `ZVOYAGE`, `Z_PK`, a join
/// table, the model in `Z_MODELCACHE`) brought into a new store: N voyages, 4 ports each, and
/// 10 flags each voyage has 2 of. The Apple store is written here from the layout's facts.
enum AppleImportBench {
    @Model final class Voyage {
        var name: String
        var departure: Date
        var budget: Double
        var id: UUID
        @Relationship(deleteRule: .cascade, inverse: \Port.voyage) var ports: [Port] = []
        @Relationship(inverse: \Flag.voyages) var flags: [Flag] = []
        init(name: String, departure: Date, budget: Double, id: UUID) {
            self.name = name
            self.departure = departure
            self.budget = budget
            self.id = id
        }
    }

    @Model final class Port {
        var name: String
        var arrival: Date?
        var voyage: Voyage?
        init(name: String) { self.name = name }
    }

    @Model final class Flag {
        var name: String
        var voyages: [Voyage] = []
        init(name: String) { self.name = name }
    }

    static let flags = 10

    /// The rows a run brings over.
    static func rows(_ n: Int) -> Int { n + 4 * n + flags }

    /// `Z_MODELCACHE` of the three entities: the keyed archive of their model, deflated raw, as
    /// the tests' Apple-layout writer makes it (Flag 1, Port 2, Voyage 3).
    static let modelCache = Data(base64Encoded: "pVYLdBTVGf7uPO9MApk8IA+CBliFGgyhSlAMCgKhOZEFsskmpOC6yQ5hZNlddmdjUlt6RXziqy2gggTcWA6cSlPaY6GcFmttPK3FWpOtWE+LGFstba34KPVwWu3dzcMk7KavOWd2Z+69//yP7/v+e5tDfitil5fHQSBAhAQZClTojY42MxyxgoE1Dm+4ZYPF3+ocdjDU6Ag232q22JEckLv3e4wsp6vG7DB9iwcXvQIKrS4cDNqMdBuzkYFM5KIE0zAdMzAb12IBrkMlbsIK1MGDW9CKEDajHV/FvdiDJ7AXndiHb+FpPIPv41n8DD/Hq3gDf8SH+AehZCLJIpPrHYGo39+HCZiILBjIRo7HyHO63ANBV/vMgG2tt/hbk9O1jD/blhlxO1r83kiEzWICK+1DHiZhMvIxBcUNTlfZRrNjaAW3KRtMswsFKEQRE5nEZJbbham4BJcyhU1ijrpVwbDtdgc7vK1mXZXf2xqHA5fhcszELG5WgNK1TteqcDBkhhPukwEuSXzf6d1kVgXDybg61g4G2JEYHQpR5Q5FlteHK1GGOSjH1ZgyIqox8XZhLj6Pq1gGm8iyuzAPFZjPKNOYznLdbcn4GrzhsNXm9dcFuJfXsBDX4wYswmLciCVYimWownL++wWe7DzU8JiWmn7TNmujfpP7XWEFlgSjAZuPV0dWhmxeYq8/Me5tT44PxuExCjwJy4htBbyJRZ8ldvNwJZKvHqOIr6wOJEhm1pr+5OrIBiuUmDSIAY1N4BWnLLM+xIsc6YUTK7EKrsYBT2akaeAhkU4Mq1HrMQqdrpFf4mG0hK1krI1O18pk4cZb9GvUw40GNGINmngxKrAONycNFtt22GqO2qbb64+awwiOKsaY/IYLkjXCvK4jZLIsjeNiZIvb3LxSXtvshRfNaIFvRELDSXqMySPsRwQbg4n1aWeH841jAyzcio2Yz7MJIJguzPRZpkhBZwbLyRZ+yN24+HigtRdhRGDjttToRNGWIJTVkixVuGM4vFGjvejAl3A7tqT+yJfxFY+RO6SV1OCmmo6D4Q5sxZ0oxV2c3YWDOY+S5igNptEpy2OTOSWlPtyH+7Gdt40HsePihjEkTZZ7AA/hYTyCr+Hr+AabwqayS1kJm85mHMBO7OKIPIYa7Gb5rIBXtJBlsqL69byJRNzNUV+raddavjU+M+QN29GweQr78SRi6MJT+CYOcKUWccVWcb0ews5Rah1HgyOEnEq74yhyDG14J5zAill+w0BvicRxGN9GN76DI/guJ9qui0kzHsUGIxjjJJt8xC7hTCvgADujm5rNcBxHcQw/wHHuYj5n84nUhv8lmw1e/QSb4/gxnsNP8Dz/eg9ewGNpNTyeg7GVMrKlm9g0VsjVXl9fvfQUXsQvcBIv4Zd4Gb/i+BUkcaxBHPP+fRdNjeAYn2PoMA6sHEWRZRoCo3Gcwmv4DV7nyTfhd9j9P3WGi5JnWbzRsaI4zuBN9OMtztpSfr+Tas9Lvz1+plNOvDx+X9aHs/gT/oy/cBWeS795xzhNDnF4i1luDO/jA3Y5mxnHR/gbzuPvSQpdwLr/iz1D+/UAhZhxCv/EJ/iUgBAiEJEje4j3nGVJpe5MD9k4kKfbiv8T2fLEJY5xfi/RiE4ySObFJWJXPEkmsM/Vzy0rLyvvJQbJJjlkUsoWTHJJXj1v+aY93HIHXntJPikghaQ4tVkRmZLEdoU3wJuFb8ByRdBn+ke07pTz/CxZyM+Ns/nxZgE/rqzm+/MXOUGP4QQXUT/e5VCex8e4QNTEmZBMI7PIFWQ2KSPlZD65llxHFpIbSTVxEg/xkzvJI+RR8jjZQ/aSfeRpcpQ8S14gL5GXySukj7xOfktOkzOkn5wl75PzQr7gEOYIlcJywSlYQruwU3hUeFzYLTwhdAr7hZhwUDgiHBd6hBeFt4X3xAyxRKwUq8VG0SNuFiOiLbaJ7eLt4lZxu7hL3CceE38kviq+IZ4TP5UUabp0tVQhXSMtkBZKVdJKqVFqkTZIUWmLtF3aIe2VDkqHpeelk1K/9KF0QVblPLlUvlKeI8+Vr5IXycvlWrlJXitb8kZ5kxyUN8sROSpvlbfJd8v3yvfLD8gPyTvkPXKnfFDukXvld+WPFVHRlZlKhXKNskCpVK5XqpQGxVLuUh5Q9iidyn4lpjylHFZOKD1KXDmnCqqkKipVM9RidYY6T12t3qI2q6baqlpqSH1Q3aF2q8fVHjWuvql+QkEFKlGFUlpIS2glddJ11EO91EfX09voNrqdxmg3PUK/R5+hR+lP6UnaR0/Tt+gf6Dv0LP0rPUc/0EQtRyvTFmnLtWqtRnNqq7RNWrt2jxbTurXj2nPaae2M1q/9Xntbe087rxNd1BWd6hP1fL1EL9XL9Qr9Bn2Z7tQb9Ga9Vd+i34PkJQgD/2QqRl16578A")!

    /// Writes the Apple store of `n` voyages at `url`.
    static func writeAppleStore(at url: URL, voyages n: Int) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let db = try RawDB(path: url.path)
        try db.exec("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            CREATE TABLE ZFLAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZPORT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVOYAGE INTEGER, ZARRIVAL TIMESTAMP, ZNAME VARCHAR);
            CREATE INDEX ZPORT_ZVOYAGE_INDEX ON ZPORT (ZVOYAGE);
            CREATE TABLE ZVOYAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDEPARTURE TIMESTAMP, ZBUDGET FLOAT, ZNAME VARCHAR, ZID BLOB);
            CREATE TABLE Z_1VOYAGES (Z_1FLAGS INTEGER, Z_3VOYAGES INTEGER, PRIMARY KEY (Z_1FLAGS, Z_3VOYAGES));
            CREATE INDEX Z_1VOYAGES_Z_3VOYAGES_INDEX ON Z_1VOYAGES (Z_3VOYAGES, Z_1FLAGS);
            BEGIN;
            """)
        try db.exec("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Flag', 0, \(flags)), (2, 'Port', 0, \(4 * n)), (3, 'Voyage', 0, \(n))")
        let plist = try PropertyListSerialization.data(fromPropertyList: [
            "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1345, "NSStoreModelVersionIdentifiers": ["1.0.0"],
            "NSStoreModelVersionHashes": ["Flag": Data(count: 32), "Port": Data(count: 32), "Voyage": Data(count: 32)],
        ] as [String: Any], format: .binary, options: 0)
        try db.exec("INSERT INTO Z_METADATA VALUES (1, '\(UUID().uuidString)', x'\(plist.map { String(format: "%02x", $0) }.joined())')")
        try db.exec("INSERT INTO Z_MODELCACHE VALUES (x'\(modelCache.map { String(format: "%02x", $0) }.joined())')")
        let flag = try db.prepare("INSERT INTO ZFLAG VALUES (?, 1, 1, ?)")
        for key in 1...flags {
            flag.bind(1, key)
            flag.bind(2, "flag \(key)")
            try flag.run()
        }
        let voyage = try db.prepare("INSERT INTO ZVOYAGE VALUES (?, 3, 1, ?, ?, ?, ?)")
        let port = try db.prepare("INSERT INTO ZPORT VALUES (?, 2, 1, ?, ?, ?)")
        let link = try db.prepare("INSERT INTO Z_1VOYAGES VALUES (?, ?)")
        for key in 1...n {
            voyage.bind(1, key)
            voyage.bind(2, 800_000_000 + Double(key) * 3_600)
            voyage.bind(3, Double(key) * 12.5)
            voyage.bind(4, "voyage \(key)")
            voyage.bind(5, UUID())
            try voyage.run()
            for leg in 0..<4 {
                port.bind(1, (key - 1) * 4 + leg + 1)
                port.bind(2, key)
                if leg == 3 { port.bind(3, nil as String?) } else { port.bind(3, 800_000_000 + Double(key) * 3_600 + Double(leg) * 600) }
                port.bind(4, "port \(key).\(leg)")
                try port.run()
            }
            for offset in 0..<2 {
                link.bind(1, (key + offset) % flags + 1)
                link.bind(2, key)
                try link.run()
            }
        }
        try db.exec("COMMIT; PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

extension JobSetup {
    /// J1: the Apple store of n voyages brought into a new store. ours: with the app's models
    /// (`AppleStoreImport(storeAt:schema:)`), read back and compared after; ours-own-model: with
    /// the model the Apple store keeps (`osd import`), compared after too; raw and GRDB: the
    /// rows copied into tables of the same shape by hand, unchecked.
    func appleImportJob() throws -> Job {
        let apple = url.deletingLastPathComponent().appendingPathComponent("J1-apple-\(n).store")
        let once = { if !FileManager.default.fileExists(atPath: apple.path) { try AppleImportBench.writeAppleStore(at: apple, voyages: n) } }
        let before = { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        switch driver {
        case "ours", "ours-own-model":
            let importing = driver == "ours"
                ? AppleStoreImport(storeAt: apple, schema: Schema([AppleImportBench.Voyage.self, AppleImportBench.Port.self, AppleImportBench.Flag.self]))
                : AppleStoreImport(storeAt: apple)
            return Job(once: once, before: before, body: {
                try importing.importStore(to: url).rows.values.reduce(0, +)
            })
        case "raw":
            return Job(once: once, before: before, body: {
                let db = try RawDB(path: url.path)
                try db.exec("BEGIN")
                try db.exec(AppleImportBench.tablesSQL)
                try db.exec("ATTACH DATABASE '\(apple.path)' AS apple")
                try db.exec("""
                    INSERT INTO "Flag" SELECT Z_PK, ZNAME FROM apple.ZFLAG WHERE Z_ENT = 1;
                    INSERT INTO "Voyage" SELECT Z_PK, ZNAME, ZDEPARTURE, ZBUDGET, ZID FROM apple.ZVOYAGE WHERE Z_ENT = 3;
                    INSERT INTO "Port" SELECT Z_PK, ZNAME, ZARRIVAL, ZVOYAGE FROM apple.ZPORT WHERE Z_ENT = 2;
                    INSERT INTO "_osd_join_Flag_voyages" SELECT Z_1FLAGS, Z_3VOYAGES FROM apple.Z_1VOYAGES;
                    COMMIT;
                    DETACH DATABASE apple;
                    """)
                return try db.scalarInt(#"SELECT (SELECT count(*) FROM "Flag") + (SELECT count(*) FROM "Voyage") + (SELECT count(*) FROM "Port")"#)
            })
        default:
            return Job(once: once, before: before, body: {
                let source = try DatabaseQueue(path: apple.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
                let target = try Stores.grdb(url)
                var rows = 0
                try source.read { from in
                    try target.write { to in
                        try to.execute(sql: AppleImportBench.tablesSQL)
                        let copies = [
                            ("SELECT Z_PK, ZNAME FROM ZFLAG WHERE Z_ENT = 1", #"INSERT INTO "Flag" VALUES (?, ?)"#),
                            ("SELECT Z_PK, ZNAME, ZDEPARTURE, ZBUDGET, ZID FROM ZVOYAGE WHERE Z_ENT = 3", #"INSERT INTO "Voyage" VALUES (?, ?, ?, ?, ?)"#),
                            ("SELECT Z_PK, ZNAME, ZARRIVAL, ZVOYAGE FROM ZPORT WHERE Z_ENT = 2", #"INSERT INTO "Port" VALUES (?, ?, ?, ?)"#),
                            ("SELECT Z_1FLAGS, Z_3VOYAGES FROM Z_1VOYAGES", #"INSERT INTO "_osd_join_Flag_voyages" VALUES (?, ?)"#),
                        ]
                        for (select, insert) in copies {
                            let statement = try to.cachedStatement(sql: insert)
                            let cursor = try Row.fetchCursor(from, sql: select)
                            while let row = try cursor.next() {
                                try statement.execute(arguments: StatementArguments(row.databaseValues))
                                rows += 1
                            }
                        }
                    }
                }
                return rows - 2 * n
            })
        }
    }
}

extension AppleImportBench {
    /// The three entities' tables as an OpenSwiftData store lays them out (``TableDefinition``).
    static let tablesSQL = """
        CREATE TABLE "Flag" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL);
        CREATE TABLE "Voyage" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "departure" REAL NOT NULL, "budget" REAL NOT NULL, "id" BLOB NOT NULL);
        CREATE TABLE "Port" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "arrival" REAL, "voyage" INTEGER);
        CREATE INDEX "Port_key_voyage" ON "Port" ("voyage");
        CREATE TABLE "_osd_join_Flag_voyages" ("source" INTEGER NOT NULL, "target" INTEGER NOT NULL, PRIMARY KEY ("source", "target")) WITHOUT ROWID;
        CREATE INDEX "_osd_join_Flag_voyages_target" ON "_osd_join_Flag_voyages" ("target", "source");
        """
}
