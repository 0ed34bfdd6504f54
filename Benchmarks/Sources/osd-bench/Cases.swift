import Foundation
import GRDB
@_spi(Benchmarks) import OpenSwiftData

/// What a child process runs: `once` before the warm-up, `before` untimed before each run,
/// `body` timed (returns a checksum so nothing is optimised away), `after` untimed.
struct Job {
    var once: () throws -> Void = {}
    var before: () throws -> Void = {}
    var body: () throws -> Int
    var after: () throws -> Void = {}
}

/// One case of the plan: its drivers and sizes per tier.
struct BenchCase {
    var id: String
    var title: String
    var drivers: [String]
    var quick: [Int]
    var full: [Int]
    /// Rows a run handles at a size (E1 counts commits, C1 every row of each fetch).
    var rows: (Int) -> Int = { $0 }
    /// Times a run does the case's work (C1's fetches); above 1 the tables give the time of one.
    var repetitions = 1
    /// Above 0: the case is timed once in each of this many fresh processes (after one that does
    /// the untimed setup), and the tables give the median and 95th percentile over them.
    var launches = 0
    /// The work should not grow with the table (ADD COLUMN, RENAME COLUMN): flag a driver whose
    /// total time at the largest size is more than 3× its time at the smallest.
    var constantTime = false

    /// A case on a PostgreSQL server (`OSD_POSTGRES_URL`).
    var onPostgres: Bool { id.hasPrefix("P") }

    /// The drivers ours is compared with in the tables, with their columns' labels.
    var yardsticks: [(label: String, driver: String)] {
        onPostgres
            ? [("postgres-nio", "postgres-nio"), ("Fluent", "fluent")]
            : [("raw", "raw"), ("GRDB", "grdb"), ("GRDB-record", "grdb-record")]
    }
}

let allCases: [BenchCase] = [
    BenchCase(id: "A1", title: "Insert 10-integer items in one transaction (ours-no-history: without recording persistent history)", drivers: ["raw", "grdb", "grdb-record", "ours-no-history", "ours"],
              quick: [10_000, 50_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "A2", title: "Fetch all 10-integer items", drivers: ["raw", "raw-class", "raw-observable", "grdb", "grdb-record", "ours"],
              quick: [20_000, 200_000], full: [20_000, 200_000, 1_000_000]),
    BenchCase(id: "B1", title: "Construct User objects (no context; raw = plain Swift class)", drivers: ["raw", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B2", title: "Insert users (unique UUID), one save", drivers: ["raw", "grdb", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B3", title: "Fetch firstName == \"Jane\" sorted by age (no index)", drivers: ["raw", "raw-class", "raw-observable", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B3i", title: "B3 with an index on firstName", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B8", title: "fetchCount firstName == \"Jane\"", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B9", title: "fetchCount surname.contains(\"e42\") (a substring search over every row)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B10", title: "fetchCount 10.00 <= amount < 20.00 (1 row in 1 000): ours on a Decimal, ours-int and the others on the same amount in Int cents", drivers: ["raw", "grdb", "ours-int", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B4", title: "Fetch all users", drivers: ["raw", "raw-class", "raw-observable", "grdb", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B5", title: "Rename every Jane to Wendy + save", drivers: ["raw", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B6", title: "Update every user's age + save (ours-no-history: without recording persistent history)", drivers: ["raw", "grdb-record", "ours-no-history", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B7", title: "Delete all users", drivers: ["raw", "grdb", "grdb-record", "ours", "ours-each"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "I1", title: "Fetch all trips: ours, a parent class over three subclasses (one table, each row made its own class); ours-flat, the same rows and columns as one flat entity", drivers: ["ours-flat", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "C1", title: "Fetch all 15 889 orders (14 columns), 50 times", drivers: ["raw", "raw-class", "raw-observable", "grdb", "grdb-record", "ours"],
              quick: [OrdersSeed.count], full: [OrdersSeed.count], rows: { $0 * OrdersSeed.fetches },
              repetitions: OrdersSeed.fetches),
    BenchCase(id: "D1", title: "Object graph: insert 1 000 schools, N students, 5 grades each, one save", drivers: ["raw", "grdb", "ours"],
              quick: [10_000], full: [10_000, 100_000]),
    BenchCase(id: "D2", title: "Object graph: the students with an A in Physics (grade → student)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000], full: [10_000, 100_000]),
    BenchCase(id: "D3", title: "Object graph: delete every school, cascading to students and grades", drivers: ["raw", "grdb", "ours"],
              quick: [10_000], full: [10_000, 100_000]),
    BenchCase(id: "D4", title: "Object graph: D1 with one school, so its students relationship grows to N", drivers: ["raw", "grdb", "ours"],
              quick: [10_000], full: [10_000, 100_000]),
    BenchCase(id: "E1", title: "Commit cost: 1 000 single-object saves (ours-no-history: without recording persistent history)", drivers: ["raw", "grdb", "ours-no-history", "ours"],
              quick: [1_000], full: [1_000]),
    BenchCase(id: "E2", title: "Change noticed: 100 single-object saves, each waited for until a HistoryObserver of another container on the file counts it (ours-unwatched: the saves alone)", drivers: ["ours-unwatched", "ours"],
              quick: [100], full: [100]),
    BenchCase(id: "G1", title: "Migration: add optional + defaulted attribute (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], constantTime: true),
    BenchCase(id: "G2", title: "Migration: rename attribute (originalName) (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], constantTime: true),
    BenchCase(id: "G4", title: "Migration: custom per-row transform fullName = first + \" \" + surname (ours-progress: with a migrationProgress closure)", drivers: ["raw", "grdb", "ours", "ours-progress"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G3", title: "Migration: add an index on firstName (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G5", title: "Migration: age becomes optional, table rebuilt (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G7", title: "Dry run of G4 (previewMigration: a copy of the store, then the transform on it); grdb-backup: the copy alone", drivers: ["raw", "grdb", "grdb-backup", "ours", "ours-preview"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "H1", title: "MigrationTester.verifyEveryPath over 5 versions (sample stores of every version, migrated to the newest, values compared), n rows per entity", drivers: ["ours"],
              quick: [1_000], full: [1_000, 10_000]),
    BenchCase(id: "G6", title: "Launch with G1 + G4 pending: open, migrate, first 50 users by age", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "J1", title: "Import a store Apple's SwiftData wrote: N voyages, 4 ports each, 10 flags many-to-many (ours: with the app's models, every value and link read back and compared; ours-own-model: with the store's own model, compared too; raw, GRDB: copied by hand, unchecked)", drivers: ["raw", "grdb", "ours-own-model", "ours"],
              quick: [10_000], full: [10_000, 100_000], rows: { AppleImportBench.rows($0) }),
    BenchCase(id: "F1", title: "Open a store and answer the first query: 50 users by age", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], launches: 20),
    BenchCase(id: "P1", title: "PostgreSQL: insert 10-integer items in one save (postgres-nio: one unnest INSERT; fluent: create in batches, one transaction)", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000]),
    BenchCase(id: "P2", title: "PostgreSQL: fetch all items", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000]),
    BenchCase(id: "P3", title: "PostgreSQL: fetch i0 < n/10 (one item in ten), no index", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000]),
    BenchCase(id: "P4", title: "PostgreSQL: change every item's i1 and save (postgres-nio: one UPDATE … FROM unnest; fluent: update each, one transaction)", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [10_000], full: [10_000, 100_000]),
    BenchCase(id: "P5", title: "PostgreSQL G1: open a V1 store of N users with V2, an optional and a defaulted attribute added (postgres-nio: two ALTER TABLE in a transaction; fluent: a Migration run by its Migrator)", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [100_000, 1_000_000], full: [100_000, 1_000_000], constantTime: true),
    BenchCase(id: "P6", title: "PostgreSQL G4: open a V1 store of N users with V4, fullName = first + \" \" + surname filled by a transform (postgres-nio: ADD COLUMN, read every row, one UPDATE … FROM unnest; fluent: a Migration adding the field, then each user updated in one transaction)", drivers: ["postgres-nio", "fluent", "ours"],
              quick: [100_000], full: [100_000, 1_000_000]),
    BenchCase(id: "P8", title: "PostgreSQL commit cost: N single-item saves (postgres-nio: one INSERT each; ours-no-history: without recording persistent history)", drivers: ["postgres-nio", "ours-no-history", "ours"],
              quick: [1_000], full: [1_000]),
    BenchCase(id: "P9", title: "PostgreSQL change noticed: N single-item saves, each waited for until a HistoryObserver of another container counts it, through LISTEN/NOTIFY (ours-unwatched: the saves alone)", drivers: ["ours-unwatched", "ours"],
              quick: [100], full: [100]),
    BenchCase(id: "P10", title: "PostgreSQL list page: 20 customers sorted by name (String's order) at offset 1,000, no index (postgres-nio: ORDER BY name on the C-collated column)", drivers: ["postgres-nio", "ours"],
              quick: [200_000], full: [200_000, 1_000_000]),
    BenchCase(id: "P11", title: "PostgreSQL search: the first 50 customers by name whose name localizedStandardContains \"ann\" (postgres-nio: ILIKE '%ann%')", drivers: ["postgres-nio", "ours"],
              quick: [200_000], full: [200_000, 1_000_000]),
    BenchCase(id: "P12", title: "PostgreSQL fetchCount name.contains(\"son\") (postgres-nio: strpos)", drivers: ["postgres-nio", "ours"],
              quick: [200_000], full: [200_000, 1_000_000]),
    BenchCase(id: "P13", title: "PostgreSQL fetchCount tags.contains(\"t7\"), tags a [String] (postgres-nio: jsonb @>)", drivers: ["postgres-nio", "ours"],
              quick: [200_000], full: [200_000, 1_000_000]),
    BenchCase(id: "P7", title: "PostgreSQL: 4 servers start together on a V1 store of N users needing G4; until all four are open (postgres-nio: each takes an advisory lock, checks for the column, the first migrates; Fluent's Migrator takes no lock, so it has no safe form)", drivers: ["postgres-nio", "ours"],
              quick: [100_000], full: [100_000, 1_000_000]),
]

let userColumns = #""_pk", "id", "firstName", "surname", "age""#
let janeSQL = #"SELECT "_pk", "id", "firstName", "surname", "age" FROM "User" WHERE "firstName" = ? ORDER BY "age", "_pk""#
let janeCountSQL = #"SELECT COUNT(*) FROM "User" WHERE "firstName" = ?"#
/// B9 by hand: SQLite's byte search, which agrees with Swift's `contains` on this ASCII data.
let surnameSearchSQL = #"SELECT COUNT(*) FROM "User" WHERE instr("surname", ?) > 0"#
let surnameNeedle = "e42"
/// B10 by hand, on the cents.
let centsRangeSQL = #"SELECT COUNT(*) FROM "Payment" WHERE "cents" >= ? AND "cents" < ?"#
/// D2's query by hand: the join the relationship stands for.
let physicsASQL = #"SELECT "Student"."name" FROM "Grade" JOIN "Student" ON "Student"."_pk" = "Grade"."student" WHERE "Grade"."subject" = 'Physics' AND "Grade"."letter" = 'A'"#
/// F1 and G6's first query, in the plan our sorted, limited fetch uses.
let firstUsersSQL = #"SELECT "_pk", "id", "firstName", "surname", "age" FROM "User" ORDER BY "age", "_pk" LIMIT 50"#
func makeJob(case id: String, driver: String, size n: Int, dir: URL) throws -> Job {
    if id.hasPrefix("P") {
        return try PostgresBench.job(case: id, driver: driver, size: n)
    }
    if driver == "ours-no-history" {
        var job = try makeJob(case: id, driver: "ours", size: n, dir: dir)
        let once = job.once
        job.once = {
            ModelContainer.recordsPersistentHistory = false
            try once()
        }
        return job
    }
    let setup = JobSetup(id: id, driver: driver, n: n, url: dir.appendingPathComponent("\(id)-\(driver)-\(n).store"))
    switch (id, driver) {
    case ("A1", "raw"), ("A1", "grdb"), ("A1", "grdb-record"), ("A1", "ours"):
        return try setup.insertItemsJob()
    case ("A2", _):
        return try setup.fetchItemsJob()
    case ("B1", "raw"), ("B1", "ours"):
        return try setup.constructUsersJob()
    case ("B2", "raw"), ("B2", "grdb"), ("B2", "grdb-record"), ("B2", "ours"):
        return try setup.insertUsersJob()
    case ("B3", _), ("B3i", _), ("B8", _), ("B9", _), ("B4", _):
        return try setup.readUsersJob()
    case ("B10", _):
        return try setup.paymentRangeJob()
    case ("B5", _):
        return try setup.renameUsersJob()
    case ("B6", _):
        return try setup.updateUsersJob()
    case ("B7", _):
        return try setup.deleteUsersJob()
    case ("D1", "raw"), ("D4", "raw"), ("D1", "grdb"), ("D4", "grdb"), ("D1", "ours"), ("D4", "ours"), ("D2", _), ("D3", _):
        return try setup.objectGraphJob()
    case ("E1", "raw"), ("E1", "grdb"), ("E1", "ours"):
        return try setup.commitJob()
    case ("E2", _):
        return try setup.noticedSavesJob()
    case ("G1", _), ("G2", _), ("G3", _), ("G4", _), ("G5", _), ("G7", _):
        return try setup.migrationJob()
    case ("H1", "ours"):
        return try setup.verifyEveryPathJob()
    case ("C1", _):
        return try setup.ordersJob()
    case ("I1", _):
        return try setup.tripHierarchyJob()
    case ("F1", _), ("G6", _):
        return try setup.launchJob()
    case ("J1", _):
        return try setup.appleImportJob()
    default:
        throw ValidationErrorText("no driver \(driver) for case \(id)")
    }
}

/// What one (case, driver, size) job works on: its store, and the connections and container
/// its closures open in `once` or `before` and let go of in `after`.
struct JobSetup {
    let id: String
    let driver: String
    let n: Int
    let url: URL
    private let handles = Handles()

    private final class Handles {
        var container: ModelContainer?
        var raw: RawDB?
        var queue: DatabaseQueue?
    }

    var container: ModelContainer? {
        get { handles.container }
        nonmutating set { handles.container = newValue }
    }
    var raw: RawDB? {
        get { handles.raw }
        nonmutating set { handles.raw = newValue }
    }
    var queue: DatabaseQueue? {
        get { handles.queue }
        nonmutating set { handles.queue = newValue }
    }
    /// Lets go of the container and connections.
    var closeAll: () -> Void {
        { [handles] in handles.container = nil; handles.raw = nil; handles.queue = nil }
    }
    /// The number of schools D1's graph spreads its students over; D4 puts them all in one.
    var schools: Int { id == "D4" ? 1 : GraphSeed.schools }
    /// A fresh V1 store holding n users.
    var seedUsers: () throws -> Void {
        { [url, n] in try Stores.fresh(UsersV1.self, at: url); try Stores.seedUsers(url, count: n) }
    }
}

struct ValidationErrorText: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
