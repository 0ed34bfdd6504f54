import Foundation
import GRDB
import OpenSwiftData

extension JobSetup {
    /// A1 insert items.
    func insertItemsJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B1 construct.
    func constructUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B2 insert users.
    func insertUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// E1 commit cost.
    func commitJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }
}
