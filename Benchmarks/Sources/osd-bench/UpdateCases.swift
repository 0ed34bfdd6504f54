import Foundation
import GRDB
import OpenSwiftData

extension JobSetup {
    /// B5 rename through objects.
    func renameUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B6 update all.
    func updateUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B7 delete all.
    func deleteUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }
}
