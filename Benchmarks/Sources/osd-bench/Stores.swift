import Foundation
import GRDB
import OpenSwiftData

/// Files and seeding shared by the drivers.
enum Stores {
    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm", ".backup", ".backup-wal", ".backup-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// Opens (or creates) a store of a versioned schema with our library.
    static func container(
        _ schema: any VersionedSchema.Type, at url: URL, plan: (any SchemaMigrationPlan.Type)? = nil
    ) throws -> ModelContainer {
        try ModelContainer(
            for: Schema(versionedSchema: schema), migrationPlan: plan, configurations: ModelConfiguration(url: url))
    }

    static func context(_ container: ModelContainer) -> ModelContext {
        let context = ModelContext(container)
        context.autosaveEnabled = false
        return context
    }

    /// A fresh, empty store with our layout; every driver then works on that file.
    static func fresh(_ schema: any VersionedSchema.Type, at url: URL) throws {
        remove(url)
        _ = try container(schema, at: url)
    }

    /// Fills the User table through the C API (fast, untimed setup).
    static func seedUsers(_ url: URL, count: Int) throws {
        let db = try RawDB(path: url.path)
        try db.exec("BEGIN")
        let insert = try db.prepare(#"INSERT INTO "User" ("id", "firstName", "surname", "age") VALUES (?, ?, ?, ?)"#)
        for i in 0..<count {
            insert.bind(1, Seed.uuid(i))
            insert.bind(2, Seed.firstName(i))
            insert.bind(3, Seed.surname(i))
            insert.bind(4, Seed.age(i))
            try insert.run()
        }
        try db.exec("COMMIT")
        try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Fills the School, Student and Grade tables through the C API: the graph D1 inserts.
    static func seedGraph(_ url: URL, students: Int) throws {
        let db = try RawDB(path: url.path)
        try db.exec("BEGIN")
        try insertGraph(db, students: students, schools: GraphSeed.schools)
        try db.exec("COMMIT")
        try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The raw driver's graph insert: schools first, then each student (spread over the
    /// schools in turn) and its grades, keys from `sqlite3_last_insert_rowid`.
    static func insertGraph(_ db: RawDB, students: Int, schools: Int) throws {
        let school = try db.prepare(#"INSERT INTO "School" ("name") VALUES (?)"#)
        var schoolKeys: [Int] = []
        for i in 0..<schools {
            school.bind(1, GraphSeed.schoolName(i))
            try school.run()
            schoolKeys.append(db.lastInsertedRowID)
        }
        let student = try db.prepare(#"INSERT INTO "Student" ("name", "school") VALUES (?, ?)"#)
        let grade = try db.prepare(#"INSERT INTO "Grade" ("subject", "letter", "student") VALUES (?, ?, ?)"#)
        for i in 0..<students {
            student.bind(1, GraphSeed.studentName(i))
            student.bind(2, schoolKeys[i % schools])
            try student.run()
            let key = db.lastInsertedRowID
            for (s, subject) in GraphSeed.subjects.enumerated() {
                grade.bind(1, subject)
                grade.bind(2, GraphSeed.letter(student: i, subject: s))
                grade.bind(3, key)
                try grade.run()
            }
        }
    }

    static func seedItems(_ url: URL, count: Int) throws {
        let db = try RawDB(path: url.path)
        try db.exec("BEGIN")
        let insert = try db.prepare(itemInsertSQL)
        for i in 0..<count {
            for c in Int32(1)...10 { insert.bind(c, i) }
            try insert.run()
        }
        try db.exec("COMMIT")
        try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    static let itemInsertSQL =
        #"INSERT INTO "Item" ("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#
    /// G1's migration through the C API: an optional and a defaulted column added.
    static func addNicknameAndScore(_ db: RawDB) throws {
        try db.exec(#"ALTER TABLE "User" ADD COLUMN "nickname" TEXT"#)
        try db.exec(#"ALTER TABLE "User" ADD COLUMN "score" INTEGER NOT NULL DEFAULT 0"#)
    }

    /// G1's migration in GRDB.
    static func addNicknameAndScore(_ db: Database) throws {
        try db.alter(table: "User") { t in
            t.add(column: "nickname", .text)
            t.add(column: "score", .integer).notNull().defaults(to: 0)
        }
    }

    /// G4's migration through the C API: the column added, then filled row by row in Swift.
    static func addFullName(_ db: RawDB) throws {
        try db.exec(#"ALTER TABLE "User" ADD COLUMN "fullName" TEXT NOT NULL DEFAULT ''"#)
        let select = try db.prepare(#"SELECT "_pk", "firstName", "surname" FROM "User""#)
        let update = try db.prepare(#"UPDATE "User" SET "fullName" = ? WHERE "_pk" = ?"#)
        while try select.step() {
            update.bind(1, select.text(1) + " " + select.text(2))
            update.bind(2, select.int(0))
            try update.run()
        }
        select.reset()
    }

    /// G4's migration in GRDB: the column added, then a cursor and a per-row `UPDATE`.
    static func addFullName(_ db: Database) throws {
        try db.alter(table: "User") { t in t.add(column: "fullName", .text).notNull().defaults(to: "") }
        let update = try db.makeStatement(sql: #"UPDATE "User" SET "fullName" = ? WHERE "_pk" = ?"#)
        let rows = try Row.fetchCursor(db, sql: #"SELECT "_pk", "firstName", "surname" FROM "User""#)
        while let row = try rows.next() {
            let first: String = row[1]
            let last: String = row[2]
            let pk: Int64 = row[0]
            try update.execute(arguments: [first + " " + last, pk])
        }
    }

    /// G5 by hand: SQLite's documented way to change a column's constraints — a new table of the
    /// new layout, the rows copied, the old table dropped, the new one renamed, its index remade.
    static let optionalAgeRebuildSQL = [
        #"CREATE TABLE "User_new" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "id" BLOB NOT NULL, "firstName" TEXT NOT NULL, "surname" TEXT NOT NULL, "age" INTEGER)"#,
        #"INSERT INTO "User_new" ("_pk", "id", "firstName", "surname", "age") SELECT "_pk", "id", "firstName", "surname", "age" FROM "User""#,
        #"DROP TABLE "User""#,
        #"ALTER TABLE "User_new" RENAME TO "User""#,
        #"CREATE UNIQUE INDEX "User_unique_id" ON "User" ("id")"#,
    ]

    static let userInsertSQL = #"INSERT INTO "User" ("id", "firstName", "surname", "age") VALUES (?, ?, ?, ?)"#

    /// A GRDB queue with the same PRAGMAs (WAL, synchronous=NORMAL).
    static func grdb(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}

// GRDB's record path: hand-written (not Codable) encoding and decoding, the fastest record style.

struct ItemRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "Item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(_ v: Int) { (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (v, v, v, v, v, v, v, v, v, v) }
    init(row: Row) {
        i0 = row[1]; i1 = row[2]; i2 = row[3]; i3 = row[4]; i4 = row[5]
        i5 = row[6]; i6 = row[7]; i7 = row[8]; i8 = row[9]; i9 = row[10]
    }
    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0; container["i1"] = i1; container["i2"] = i2; container["i3"] = i3; container["i4"] = i4
        container["i5"] = i5; container["i6"] = i6; container["i7"] = i7; container["i8"] = i8; container["i9"] = i9
    }
}

struct UserRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "User"
    var pk: Int64?
    var id: UUID
    var firstName: String
    var surname: String
    var age: Int
    init(id: UUID, firstName: String, surname: String, age: Int) {
        self.id = id
        self.firstName = firstName
        self.surname = surname
        self.age = age
    }
    init(row: Row) {
        pk = row[0]; id = row[1]; firstName = row[2]; surname = row[3]; age = row[4]
    }
    func encode(to container: inout PersistenceContainer) {
        container["_pk"] = pk
        container["id"] = id
        container["firstName"] = firstName
        container["surname"] = surname
        container["age"] = age
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}
