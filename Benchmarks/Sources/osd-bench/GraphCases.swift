import Foundation
import GRDB
import OpenSwiftData

extension JobSetup {
    /// D1–D3 object graph (n students).
    func objectGraphJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }
}
