import Foundation
import GRDB
import OpenSwiftData

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
}

let allCases: [BenchCase] = [
    BenchCase(id: "A1", title: "Insert 10-integer items in one transaction", drivers: ["raw", "grdb", "grdb-record", "ours"],
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
    BenchCase(id: "B4", title: "Fetch all users", drivers: ["raw", "raw-class", "raw-observable", "grdb", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B5", title: "Rename every Jane to Wendy + save", drivers: ["raw", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B6", title: "Update every user's age + save", drivers: ["raw", "grdb-record", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "B7", title: "Delete all users", drivers: ["raw", "grdb", "grdb-record", "ours", "ours-each"],
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
    BenchCase(id: "E1", title: "Commit cost: 1 000 single-object saves", drivers: ["raw", "grdb", "ours"],
              quick: [1_000], full: [1_000]),
    BenchCase(id: "G1", title: "Migration: add optional + defaulted attribute (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], constantTime: true),
    BenchCase(id: "G2", title: "Migration: rename attribute (originalName) (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], constantTime: true),
    BenchCase(id: "G4", title: "Migration: custom per-row transform fullName = first + \" \" + surname", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G3", title: "Migration: add an index on firstName (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G5", title: "Migration: age becomes optional, table rebuilt (open included)", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "G6", title: "Launch with G1 + G4 pending: open, migrate, first 50 users by age", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000]),
    BenchCase(id: "F1", title: "Open a store and answer the first query: 50 users by age", drivers: ["raw", "grdb", "ours"],
              quick: [10_000, 100_000], full: [10_000, 100_000, 1_000_000], launches: 20),
]

let userColumns = #""_pk", "id", "firstName", "surname", "age""#
let janeSQL = #"SELECT "_pk", "id", "firstName", "surname", "age" FROM "User" WHERE "firstName" = ? ORDER BY "age", "_pk""#
let janeCountSQL = #"SELECT COUNT(*) FROM "User" WHERE "firstName" = ?"#
/// B9 by hand: SQLite's byte search, which agrees with Swift's `contains` on this ASCII data.
let surnameSearchSQL = #"SELECT COUNT(*) FROM "User" WHERE instr("surname", ?) > 0"#
let surnameNeedle = "e42"
/// D2's query by hand: the join the relationship stands for.
let physicsASQL = #"SELECT "Student"."name" FROM "Grade" JOIN "Student" ON "Student"."_pk" = "Grade"."student" WHERE "Grade"."subject" = 'Physics' AND "Grade"."letter" = 'A'"#
/// F1 and G6's first query, in the plan our sorted, limited fetch uses.
let firstUsersSQL = #"SELECT "_pk", "id", "firstName", "surname", "age" FROM "User" ORDER BY "age", "_pk" LIMIT 50"#

func makeJob(case id: String, driver: String, size n: Int, dir: URL) throws -> Job {
    let url = dir.appendingPathComponent("\(id)-\(driver)-\(n).store")
    var container: ModelContainer?
    var raw: RawDB?
    var queue: DatabaseQueue?
    let closeAll = { container = nil; raw = nil; queue = nil }
    /// The number of schools D1's graph spreads its students over; D4 puts them all in one.
    let schools = id == "D4" ? 1 : GraphSeed.schools
    /// A fresh V1 store holding n users.
    let seedUsers = { try Stores.fresh(UsersV1.self, at: url); try Stores.seedUsers(url, count: n) }

    switch (id, driver) {
    // MARK: A1 insert items
    case ("A1", "raw"):
        return Job(before: { try Stores.fresh(ItemsV1.self, at: url); raw = try RawDB(path: url.path) }, body: {
            let db = raw!
            try db.exec("BEGIN")
            let insert = try db.prepare(Stores.itemInsertSQL)
            for i in 0..<n {
                for c in Int32(1)...10 { insert.bind(c, i) }
                try insert.run()
            }
            try db.exec("COMMIT")
            return n
        }, after: closeAll)
    case ("A1", "grdb"):
        return Job(before: { try Stores.fresh(ItemsV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            try queue!.write { db in
                let statement = try db.makeStatement(sql: Stores.itemInsertSQL)
                for i in 0..<n {
                    try statement.execute(arguments: [i, i, i, i, i, i, i, i, i, i])
                }
            }
            return n
        }, after: closeAll)
    case ("A1", "grdb-record"):
        return Job(before: { try Stores.fresh(ItemsV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            try queue!.write { db in
                for i in 0..<n { try ItemRecord(i).insert(db) }
            }
            return n
        }, after: closeAll)
    case ("A1", "ours"):
        return Job(before: { try Stores.fresh(ItemsV1.self, at: url); container = try Stores.container(ItemsV1.self, at: url) }, body: {
            let context = Stores.context(container!)
            for i in 0..<n { context.insert(Item(i)) }
            try context.save()
            return n
        }, after: closeAll)

    // MARK: A2 fetch items
    case ("A2", _):
        let once = { try Stores.fresh(ItemsV1.self, at: url); try Stores.seedItems(url, count: n) }
        let itemSQL = #"SELECT "_pk", "i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9" FROM "Item""#
        switch driver {
        case "raw", "raw-class", "raw-observable":
            return Job(once: { try once(); raw = try RawDB(path: url.path) }, body: {
                let select = try raw!.prepare(itemSQL)
                return try RowObjects.keep(as: driver, reading: { try select.step() ? ItemValue(raw: select) : nil }, checksum: \.i0)
            })
        case "grdb":
            return Job(once: { try once(); queue = try Stores.grdb(url) }, body: {
                try queue!.read { db in
                    var items: [ItemValue] = []
                    let rows = try Row.fetchCursor(db, sql: itemSQL)
                    while let row = try rows.next() {
                        items.append(ItemValue(
                            i0: row[1], i1: row[2], i2: row[3], i3: row[4], i4: row[5],
                            i5: row[6], i6: row[7], i7: row[8], i8: row[9], i9: row[10]))
                    }
                    return items.reduce(0) { $0 &+ $1.i0 }
                }
            })
        case "grdb-record":
            return Job(once: { try once(); queue = try Stores.grdb(url) }, body: {
                try queue!.read { db in
                    try ItemRecord.fetchAll(db, sql: itemSQL).reduce(0) { $0 &+ $1.i0 }
                }
            })
        default:
            return Job(once: { try once(); container = try Stores.container(ItemsV1.self, at: url) }, body: {
                let items = try Stores.context(container!).fetch(FetchDescriptor<Item>())
                return items.reduce(0) { $0 &+ $1.i0 }
            })
        }

    // MARK: B1 construct
    case ("B1", "raw"):
        return Job(body: {
            var users: [PlainUser] = []
            users.reserveCapacity(n)
            for i in 0..<n {
                users.append(PlainUser(id: Seed.uuid(i), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i)))
            }
            return users.count
        })
    case ("B1", "ours"):
        return Job(body: {
            var users: [User] = []
            users.reserveCapacity(n)
            for i in 0..<n {
                users.append(User(id: Seed.uuid(i), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i)))
            }
            return users.count
        })

    // MARK: B2 insert users
    case ("B2", "raw"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); raw = try RawDB(path: url.path) }, body: {
            let db = raw!
            try db.exec("BEGIN")
            let insert = try db.prepare(Stores.userInsertSQL)
            for i in 0..<n {
                insert.bind(1, UUID())
                insert.bind(2, Seed.firstName(i))
                insert.bind(3, Seed.surname(i))
                insert.bind(4, Seed.age(i))
                try insert.run()
            }
            try db.exec("COMMIT")
            return n
        }, after: closeAll)
    case ("B2", "grdb"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            try queue!.write { db in
                let statement = try db.makeStatement(sql: Stores.userInsertSQL)
                for i in 0..<n {
                    try statement.execute(arguments: [UUID(), Seed.firstName(i), Seed.surname(i), Seed.age(i)])
                }
            }
            return n
        }, after: closeAll)
    case ("B2", "grdb-record"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            try queue!.write { db in
                for i in 0..<n {
                    var user = UserRecord(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i))
                    try user.insert(db)
                }
            }
            return n
        }, after: closeAll)
    case ("B2", "ours"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); container = try Stores.container(UsersV1.self, at: url) }, body: {
            let context = Stores.context(container!)
            for i in 0..<n {
                context.insert(User(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i)))
            }
            try context.save()
            return n
        }, after: closeAll)

    // MARK: B3, B3i, B8, B4 reads of users
    case ("B3", _), ("B3i", _), ("B8", _), ("B9", _), ("B4", _):
        let allSQL = "SELECT \(userColumns) FROM \"User\""
        let fetchesJanes = id.hasPrefix("B3")
        /// B3i's store comes from the schema that indexes `firstName`.
        let seedStore = id == "B3i" ? { try Stores.fresh(UsersV5.self, at: url); try Stores.seedUsers(url, count: n) } : seedUsers
        switch driver {
        case "raw", "raw-class", "raw-observable":
            return Job(once: { try seedStore(); raw = try RawDB(path: url.path) }, body: {
                if id == "B8" || id == "B9" {
                    let count = try raw!.prepare(id == "B8" ? janeCountSQL : surnameSearchSQL)
                    count.bind(1, id == "B8" ? "Jane" : surnameNeedle)
                    _ = try count.step()
                    return count.int(0)
                }
                let select = try raw!.prepare(fetchesJanes ? janeSQL : allSQL)
                if fetchesJanes { select.bind(1, "Jane") }
                return try RowObjects.keep(as: driver, reading: { try select.step() ? UserValue(raw: select) : nil }, checksum: \.age)
            })
        case "grdb":
            return Job(once: { try seedStore(); queue = try Stores.grdb(url) }, body: {
                try queue!.read { db in
                    if id == "B8" { return try Int.fetchOne(db, sql: janeCountSQL, arguments: ["Jane"]) ?? 0 }
                    if id == "B9" { return try Int.fetchOne(db, sql: surnameSearchSQL, arguments: [surnameNeedle]) ?? 0 }
                    var users: [UserValue] = []
                    let rows = try (fetchesJanes
                        ? Row.fetchCursor(db, sql: janeSQL, arguments: ["Jane"]) : Row.fetchCursor(db, sql: allSQL))
                    while let row = try rows.next() {
                        users.append(UserValue(id: row[1], firstName: row[2], surname: row[3], age: row[4]))
                    }
                    return users.reduce(0) { $0 &+ $1.age }
                }
            })
        case "grdb-record":
            return Job(once: { try seedStore(); queue = try Stores.grdb(url) }, body: {
                try queue!.read { db in try UserRecord.fetchAll(db, sql: allSQL).reduce(0) { $0 &+ $1.age } }
            })
        default:
            return Job(once: { try seedStore(); container = try Stores.container(id == "B3i" ? UsersV5.self : UsersV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                let jane = #Predicate<User> { $0.firstName == "Jane" }
                switch id {
                case "B8":
                    return try context.fetchCount(FetchDescriptor<User>(predicate: jane))
                case "B9":
                    let needle = surnameNeedle
                    return try context.fetchCount(FetchDescriptor<User>(predicate: #Predicate { $0.surname.contains(needle) }))
                case "B3":
                    let users = try context.fetch(FetchDescriptor<User>(predicate: jane, sortBy: [SortDescriptor(\.age)]))
                    return users.reduce(0) { $0 &+ $1.age }
                case "B3i":
                    let users = try context.fetch(FetchDescriptor<UsersV5.User>(
                        predicate: #Predicate { $0.firstName == "Jane" }, sortBy: [SortDescriptor(\.age)]))
                    return users.reduce(0) { $0 &+ $1.age }
                default:
                    return try context.fetch(FetchDescriptor<User>()).reduce(0) { $0 &+ $1.age }
                }
            })
        }

    // MARK: B5 rename through objects
    case ("B5", _):
        switch driver {
        case "raw":
            return Job(before: { try seedUsers(); raw = try RawDB(path: url.path) }, body: {
                try raw!.exec(#"UPDATE "User" SET "firstName" = 'Wendy' WHERE "firstName" = 'Jane'"#)
                return try raw!.scalarInt("SELECT changes()")
            }, after: closeAll)
        case "grdb-record":
            return Job(before: { try seedUsers(); queue = try Stores.grdb(url) }, body: {
                try queue!.write { db in
                    let janes = try UserRecord.fetchAll(db, sql: janeSQL, arguments: ["Jane"])
                    for var jane in janes {
                        jane.firstName = "Wendy"
                        try jane.update(db)
                    }
                    return janes.count
                }
            }, after: closeAll)
        default:
            return Job(before: { try seedUsers(); container = try Stores.container(UsersV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                let janes = try context.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.firstName == "Jane" }))
                for jane in janes { jane.firstName = "Wendy" }
                try context.save()
                return janes.count
            }, after: closeAll)
        }

    // MARK: B6 update all
    case ("B6", _):
        switch driver {
        case "raw":
            return Job(once: { try seedUsers(); raw = try RawDB(path: url.path) }, body: {
                let db = raw!
                try db.exec("BEGIN")
                let select = try db.prepare(#"SELECT "_pk", "age" FROM "User""#)
                let update = try db.prepare(#"UPDATE "User" SET "age" = ? WHERE "_pk" = ?"#)
                var count = 0
                while try select.step() {
                    update.bind(1, select.int(1) &+ 1)
                    update.bind(2, select.int(0))
                    try update.run()
                    count += 1
                }
                select.reset()
                try db.exec("COMMIT")
                return count
            })
        case "grdb-record":
            return Job(once: { try seedUsers(); queue = try Stores.grdb(url) }, body: {
                try queue!.write { db in
                    let users = try UserRecord.fetchAll(db, sql: "SELECT \(userColumns) FROM \"User\"")
                    for var user in users {
                        user.age += 1
                        try user.update(db)
                    }
                    return users.count
                }
            })
        default:
            return Job(once: { try seedUsers(); container = try Stores.container(UsersV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                let users = try context.fetch(FetchDescriptor<User>())
                for user in users { user.age += 1 }
                try context.save()
                return users.count
            })
        }

    // MARK: B7 delete all
    case ("B7", _):
        switch driver {
        case "raw":
            return Job(before: { try seedUsers(); raw = try RawDB(path: url.path) }, body: {
                try raw!.exec(#"DELETE FROM "User""#)
                return n
            }, after: closeAll)
        case "grdb":
            return Job(before: { try seedUsers(); queue = try Stores.grdb(url) }, body: {
                try queue!.write { db in try UserRecord.deleteAll(db) }
            }, after: closeAll)
        case "grdb-record":
            return Job(before: { try seedUsers(); queue = try Stores.grdb(url) }, body: {
                try queue!.write { db in
                    let users = try UserRecord.fetchAll(db, sql: "SELECT \(userColumns) FROM \"User\"")
                    for user in users { try user.delete(db) }
                    return users.count
                }
            }, after: closeAll)
        case "ours":
            return Job(before: { try seedUsers(); container = try Stores.container(UsersV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                try context.delete(model: User.self)
                try context.save()
                return n
            }, after: closeAll)
        default:
            return Job(before: { try seedUsers(); container = try Stores.container(UsersV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                let users = try context.fetch(FetchDescriptor<User>())
                for user in users { context.delete(user) }
                try context.save()
                return users.count
            }, after: closeAll)
        }

    // MARK: D1–D3 object graph (n students)
    case ("D1", "raw"), ("D4", "raw"):
        return Job(before: { try Stores.fresh(SchoolsV1.self, at: url); raw = try RawDB(path: url.path) }, body: {
            let db = raw!
            try db.exec("BEGIN")
            try Stores.insertGraph(db, students: n, schools: schools)
            try db.exec("COMMIT")
            return n
        }, after: closeAll)
    case ("D1", "grdb"), ("D4", "grdb"):
        return Job(before: { try Stores.fresh(SchoolsV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            try queue!.write { db in
                let school = try db.makeStatement(sql: #"INSERT INTO "School" ("name") VALUES (?)"#)
                var schoolKeys: [Int64] = []
                for i in 0..<schools {
                    try school.execute(arguments: [GraphSeed.schoolName(i)])
                    schoolKeys.append(db.lastInsertedRowID)
                }
                let student = try db.makeStatement(sql: #"INSERT INTO "Student" ("name", "school") VALUES (?, ?)"#)
                let grade = try db.makeStatement(sql: #"INSERT INTO "Grade" ("subject", "letter", "student") VALUES (?, ?, ?)"#)
                for i in 0..<n {
                    try student.execute(arguments: [GraphSeed.studentName(i), schoolKeys[i % schools]])
                    let key = db.lastInsertedRowID
                    for (s, subject) in GraphSeed.subjects.enumerated() {
                        try grade.execute(arguments: [subject, GraphSeed.letter(student: i, subject: s), key])
                    }
                }
            }
            return n
        }, after: closeAll)
    case ("D1", "ours"), ("D4", "ours"):
        return Job(before: { try Stores.fresh(SchoolsV1.self, at: url); container = try Stores.container(SchoolsV1.self, at: url) }, body: {
            let context = Stores.context(container!)
            var schoolModels: [School] = []
            for i in 0..<schools {
                let school = School(name: GraphSeed.schoolName(i))
                context.insert(school)
                schoolModels.append(school)
            }
            for i in 0..<n {
                let student = Student(name: GraphSeed.studentName(i), school: schoolModels[i % schools])
                context.insert(student)
                for (s, subject) in GraphSeed.subjects.enumerated() {
                    context.insert(Grade(subject: subject, letter: GraphSeed.letter(student: i, subject: s), student: student))
                }
            }
            try context.save()
            return n
        }, after: closeAll)
    case ("D2", _), ("D3", _):
        let seedGraph = { try Stores.fresh(SchoolsV1.self, at: url); try Stores.seedGraph(url, students: n) }
        // D2 reads the same graph every run; D3 needs it back before each.
        let once = id == "D2" ? seedGraph : {}
        let seed = id == "D2" ? {} : seedGraph
        switch driver {
        case "raw":
            return Job(once: once, before: { try seed(); raw = try RawDB(path: url.path) }, body: {
                let db = raw!
                if id == "D2" {
                    let select = try db.prepare(physicsASQL)
                    var names: [String] = []
                    while try select.step() { names.append(select.text(0)) }
                    return names.count
                }
                try db.exec("BEGIN")
                try db.exec(#"DELETE FROM "Grade""#)
                try db.exec(#"DELETE FROM "Student""#)
                try db.exec(#"DELETE FROM "School""#)
                try db.exec("COMMIT")
                return n
            }, after: closeAll)
        case "grdb":
            return Job(once: once, before: { try seed(); queue = try Stores.grdb(url) }, body: {
                if id == "D2" {
                    return try queue!.read { db in
                        var names: [String] = []
                        let rows = try Row.fetchCursor(db, sql: physicsASQL)
                        while let row = try rows.next() { names.append(row[0]) }
                        return names.count
                    }
                }
                try queue!.write { db in
                    try db.execute(sql: #"DELETE FROM "Grade"; DELETE FROM "Student"; DELETE FROM "School""#)
                }
                return n
            }, after: closeAll)
        default:
            return Job(once: once, before: { try seed(); container = try Stores.container(SchoolsV1.self, at: url) }, body: {
                let context = Stores.context(container!)
                if id == "D2" {
                    var physicsA = FetchDescriptor<Grade>(predicate: #Predicate { $0.subject == "Physics" && $0.letter == "A" })
                    physicsA.relationshipKeyPathsForPrefetching = [\.student]
                    let names = try context.fetch(physicsA).compactMap { $0.student?.name }
                    return names.count
                }
                try context.delete(model: School.self)
                try context.save()
                return n
            }, after: closeAll)
        }

    // MARK: E1 commit cost
    case ("E1", "raw"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); raw = try RawDB(path: url.path) }, body: {
            let db = raw!
            let insert = try db.prepare(Stores.userInsertSQL)
            for i in 0..<n {
                try db.exec("BEGIN")
                insert.bind(1, UUID())
                insert.bind(2, Seed.firstName(i))
                insert.bind(3, Seed.surname(i))
                insert.bind(4, Seed.age(i))
                try insert.run()
                try db.exec("COMMIT")
            }
            return n
        }, after: closeAll)
    case ("E1", "grdb"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); queue = try Stores.grdb(url) }, body: {
            for i in 0..<n {
                try queue!.write { db in
                    var user = UserRecord(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i))
                    try user.insert(db)
                }
            }
            return n
        }, after: closeAll)
    case ("E1", "ours"):
        return Job(before: { try Stores.fresh(UsersV1.self, at: url); container = try Stores.container(UsersV1.self, at: url) }, body: {
            let context = Stores.context(container!)
            for i in 0..<n {
                context.insert(User(id: UUID(), firstName: Seed.firstName(i), surname: Seed.surname(i), age: Seed.age(i)))
                try context.save()
            }
            return n
        }, after: closeAll)

    // MARK: G1–G5 migrations: a V1 store of n users opened by the new version
    case ("G1", _), ("G2", _), ("G3", _), ("G4", _), ("G5", _):
        switch driver {
        case "raw":
            return Job(before: seedUsers, body: {
                let db = try RawDB(path: url.path)
                try db.exec("BEGIN IMMEDIATE")
                switch id {
                case "G1":
                    try Stores.addNicknameAndScore(db)
                case "G2":
                    try db.exec(#"ALTER TABLE "User" RENAME COLUMN "surname" TO "lastName""#)
                case "G3":
                    try db.exec(#"CREATE INDEX "User_firstName" ON "User" ("firstName")"#)
                case "G5":
                    for sql in Stores.optionalAgeRebuildSQL { try db.exec(sql) }
                default:
                    try Stores.addFullName(db)
                }
                try db.exec("COMMIT")
                return n
            })
        case "grdb":
            return Job(before: seedUsers, body: {
                let queue = try Stores.grdb(url)
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v2") { db in
                    switch id {
                    case "G1":
                        try Stores.addNicknameAndScore(db)
                    case "G2":
                        try db.alter(table: "User") { t in t.rename(column: "surname", to: "lastName") }
                    case "G3":
                        try db.create(index: "User_firstName", on: "User", columns: ["firstName"])
                    case "G5":
                        for sql in Stores.optionalAgeRebuildSQL { try db.execute(sql: sql) }
                    default:
                        try Stores.addFullName(db)
                    }
                }
                try migrator.migrate(queue)
                return n
            })
        default:
            return Job(before: seedUsers, body: {
                let opened: ModelContainer
                switch id {
                case "G1": opened = try Stores.container(UsersV2.self, at: url, plan: PlanG1.self)
                case "G2": opened = try Stores.container(UsersV3.self, at: url, plan: PlanG2.self)
                case "G3": opened = try Stores.container(UsersV5.self, at: url, plan: PlanG3.self)
                case "G5": opened = try Stores.container(UsersV6.self, at: url, plan: PlanG5.self)
                default: opened = try Stores.container(UsersV4.self, at: url, plan: PlanG4.self)
                }
                // Opening the container migrates the store; the migration is the work measured.
                _ = opened
                return n
            })
        }

    // MARK: C1 fetch all orders, 50 times
    case ("C1", _):
        return try makeOrdersJob(driver: driver, size: n, url: url)

    // MARK: F1 open and first query; G6 the same with G1 + G4 pending
    case ("F1", _), ("G6", _):
        let pending = id == "G6"
        // F1 opens the same store every run; G6 needs a V1 store before each.
        let once = pending ? {} : seedUsers
        let before = pending ? seedUsers : {}
        switch driver {
        case "raw":
            return Job(once: once, before: before, body: {
                let db = try RawDB(path: url.path)
                if pending {
                    try db.exec("BEGIN IMMEDIATE")
                    try Stores.addNicknameAndScore(db)
                    try Stores.addFullName(db)
                    try db.exec("COMMIT")
                }
                let select = try db.prepare(firstUsersSQL)
                var users: [UserValue] = []
                while try select.step() {
                    users.append(UserValue(id: select.uuid(1), firstName: select.text(2), surname: select.text(3), age: select.int(4)))
                }
                return users.count
            })
        case "grdb":
            return Job(once: once, before: before, body: {
                let queue = try Stores.grdb(url)
                if pending {
                    var migrator = DatabaseMigrator()
                    migrator.registerMigration("v2") { db in try Stores.addNicknameAndScore(db) }
                    migrator.registerMigration("v7") { db in try Stores.addFullName(db) }
                    try migrator.migrate(queue)
                }
                return try queue.read { db in
                    var users: [UserValue] = []
                    let rows = try Row.fetchCursor(db, sql: firstUsersSQL)
                    while let row = try rows.next() {
                        users.append(UserValue(id: row[1], firstName: row[2], surname: row[3], age: row[4]))
                    }
                    return users.count
                }
            })
        default:
            return Job(once: once, before: before, body: {
                if pending {
                    let opened = try Stores.container(UsersV7.self, at: url, plan: PlanG6.self)
                    var first = FetchDescriptor<UsersV7.User>(sortBy: [SortDescriptor(\.age)])
                    first.fetchLimit = 50
                    let users = try Stores.context(opened).fetch(first)
                    return users.count
                }
                let opened = try Stores.container(UsersV1.self, at: url)
                var first = FetchDescriptor<User>(sortBy: [SortDescriptor(\.age)])
                first.fetchLimit = 50
                let users = try Stores.context(opened).fetch(first)
                return users.count
            })
        }

    default:
        throw ValidationErrorText("no driver \(driver) for case \(id)")
    }
}

struct ValidationErrorText: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
