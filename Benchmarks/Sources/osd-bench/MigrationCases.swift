import Foundation
import GRDB
import OpenSwiftData
import Synchronization

extension JobSetup {
    /// G1–G5 migrations: a V1 store of n users opened by the new version.
    func migrationJob() throws -> Job {
        switch (id, driver) {
        case ("G7", "grdb-backup"):
            let copy = url.deletingLastPathComponent().appendingPathComponent("G7-copy-\(n).store")
            return Job(before: { try seedUsers(); try? FileManager.default.removeItem(at: copy) }, body: {
                let source = try DatabaseQueue(path: url.path)
                try source.backup(to: try DatabaseQueue(path: copy.path))
                return n
            })
        case ("G4", "ours-progress"):
            return Job(before: seedUsers, body: {
                let reports = Mutex(0)
                let opened = try ModelContainer(
                    for: Schema(versionedSchema: UsersV4.self), migrationPlan: PlanG4.self,
                    configurations: [ModelConfiguration(url: url)]) { progress in
                        reports.withLock { $0 += progress.rowsDone > 0 ? 1 : 0 }
                    }
                _ = opened
                guard reports.withLock({ $0 }) >= n / 1000 else { throw ValidationErrorText("the migration reported no progress") }
                return n
            })
        case ("G7", "ours-preview"):
            return Job(before: seedUsers, body: {
                let preview = try ModelContainer.previewMigration(
                    for: Schema(versionedSchema: UsersV4.self), migrationPlan: PlanG4.self, configurations: ModelConfiguration(url: url))
                guard preview.wouldSucceed, preview.stores.first?.steps.first?.rowChanges.first?.updated == n else {
                    throw ValidationErrorText("the dry run did not transform \(n) users: \(preview)")
                }
                return n
            })
        case ("G1", _), ("G2", _), ("G3", _), ("G4", _), ("G5", _), ("G7", _):
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// F1 open and first query; G6 the same with G1 + G4 pending.
    func launchJob() throws -> Job {
        switch (id, driver) {
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

    /// H1: every version's sample store migrated to the newest and checked.
    func verifyEveryPathJob() throws -> Job {
        Job(body: {
            let checks = try MigrationTester(for: PlanH1.self).verifyEveryPath(sampleRowsPerEntity: n)
            guard checks.count == 4 else { throw ValidationErrorText("verifyEveryPath checked \(checks.count) paths, not 4") }
            return checks.count
        })
    }
}
