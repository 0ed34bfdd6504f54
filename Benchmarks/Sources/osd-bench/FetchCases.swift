import Foundation
import GRDB
import OpenSwiftData

extension JobSetup {
    /// A2 fetch items.
    func fetchItemsJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B3, B3i, B8, B4 reads of users.
    func readUsersJob() throws -> Job {
        switch (id, driver) {
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
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }

    /// B10: a range over a `Decimal` (ours) against the same range over an `Int`.
    func paymentRangeJob() throws -> Job {
        let seed = { [url, n] in
            Stores.remove(url)
            let container = try Stores.container(PaymentsV1.self, at: url)
            let context = Stores.context(container)
            // Spread over 0.00 ..< 10 000.00, so the range holds 1 row in 1 000.
            for i in 0..<n { context.insert(Payment(cents: i &* 7_919 % 1_000_000)) }
            try context.save()
        }
        switch driver {
        case "raw":
            return Job(once: { try seed(); raw = try RawDB(path: url.path) }, body: {
                let count = try raw!.prepare(centsRangeSQL)
                count.bind(1, 1_000)
                count.bind(2, 2_000)
                _ = try count.step()
                return count.int(0)
            })
        case "grdb":
            return Job(once: { try seed(); queue = try Stores.grdb(url) }, body: {
                try queue!.read { db in try Int.fetchOne(db, sql: centsRangeSQL, arguments: [1_000, 2_000]) ?? 0 }
            })
        case "ours-int":
            return Job(once: { try seed(); container = try Stores.container(PaymentsV1.self, at: url) }, body: {
                try Stores.context(container!).fetchCount(FetchDescriptor<Payment>(predicate: #Predicate { $0.cents >= 1_000 && $0.cents < 2_000 }))
            })
        default:
            let (low, high) = (Decimal(10), Decimal(20))
            return Job(once: { try seed(); container = try Stores.container(PaymentsV1.self, at: url) }, body: {
                try Stores.context(container!).fetchCount(FetchDescriptor<Payment>(predicate: #Predicate { $0.amount >= low && $0.amount < high }))
            })
        }
    }

    /// I1: a fetch of a parent class whose rows are of three subclasses, beside the same rows
    /// as one flat entity.
    func tripHierarchyJob() throws -> Job {
        if driver == "ours-flat" {
            let seed = { [url, n] in
                Stores.remove(url)
                let context = Stores.context(try Stores.container(FlatTripsV1.self, at: url))
                for i in 0..<n {
                    let trip = FlatTripsV1.FlatTrip(name: "trip \(i)", days: i % 14)
                    switch i % 3 {
                    case 0: trip.perDiem = Double(i % 200)
                    case 1: trip.guide = "guide \(i % 50)"
                    default: trip.language = "lang \(i % 20)"
                    }
                    context.insert(trip)
                }
                try context.save()
            }
            return Job(once: { try seed(); container = try Stores.container(FlatTripsV1.self, at: url) }, body: {
                try Stores.context(container!).fetch(FetchDescriptor<FlatTripsV1.FlatTrip>()).reduce(0) { $0 &+ $1.days }
            })
        }
        let seed = { [url, n] in
            Stores.remove(url)
            let context = Stores.context(try Stores.container(TripHierarchyV1.self, at: url))
            for i in 0..<n {
                switch i % 3 {
                case 0: context.insert(TripHierarchyV1.BusinessTrip(name: "trip \(i)", days: i % 14, perDiem: Double(i % 200)))
                case 1: context.insert(TripHierarchyV1.GuidedTrip(name: "trip \(i)", days: i % 14, guide: "guide \(i % 50)"))
                default: context.insert(TripHierarchyV1.AudioTrip(name: "trip \(i)", days: i % 14, language: "lang \(i % 20)"))
                }
            }
            try context.save()
        }
        return Job(once: { try seed(); container = try Stores.container(TripHierarchyV1.self, at: url) }, body: {
            try Stores.context(container!).fetch(FetchDescriptor<TripHierarchyV1.Trip>()).reduce(0) { $0 &+ $1.days }
        })
    }

    /// C1 fetch all orders, 50 times.
    func ordersJob() throws -> Job {
        switch (id, driver) {
        case ("C1", _):
            return try makeOrdersJob(driver: driver, size: n, url: url)
        default:
            throw ValidationErrorText("no driver \(driver) for case \(id)")
        }
    }
}
