import Foundation
import GRDB
import OpenSwiftData

// C1: the "Orders" table of the published Lighter/SQLiteData fetch tables (15 889 rows of 14
// columns: integers, text, a real, nullable text dates), generated here rather than downloaded,
// each driver fetching all of it 50 times.

/// The orders of C1, shaped like Northwind's `Orders`.
enum OrdersV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Order.self] }

    @Model final class Order {
        var orderID: Int
        var customerID: String
        var employeeID: Int
        var orderDate: String?
        var requiredDate: String?
        var shippedDate: String?
        var shipVia: Int
        var freight: Double
        var shipName: String
        var shipAddress: String
        var shipCity: String
        var shipRegion: String?
        var shipPostalCode: String?
        var shipCountry: String
        init(_ value: OrderValue) {
            orderID = value.orderID
            customerID = value.customerID
            employeeID = value.employeeID
            orderDate = value.orderDate
            requiredDate = value.requiredDate
            shippedDate = value.shippedDate
            shipVia = value.shipVia
            freight = value.freight
            shipName = value.shipName
            shipAddress = value.shipAddress
            shipCity = value.shipCity
            shipRegion = value.shipRegion
            shipPostalCode = value.shipPostalCode
            shipCountry = value.shipCountry
        }
    }
}

typealias Order = OrdersV1.Order

/// One order as the raw and GRDB drivers read it.
struct OrderValue {
    var orderID: Int
    var customerID: String
    var employeeID: Int
    var orderDate: String?
    var requiredDate: String?
    var shippedDate: String?
    var shipVia: Int
    var freight: Double
    var shipName: String
    var shipAddress: String
    var shipCity: String
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String

    /// What the checksum adds up, the same for every driver: one integer, one nullable column.
    static func checksum(employeeID: Int, shipRegion: String?) -> Int {
        employeeID &+ (shipRegion == nil ? 0 : 1)
    }

    var checksum: Int { Self.checksum(employeeID: employeeID, shipRegion: shipRegion) }
}

extension OrderValue {
    init(raw row: RawStatement) {
        self.init(
            orderID: row.int(1), customerID: row.text(2), employeeID: row.int(3), orderDate: row.optionalText(4),
            requiredDate: row.optionalText(5), shippedDate: row.optionalText(6), shipVia: row.int(7),
            freight: row.double(8), shipName: row.text(9), shipAddress: row.text(10), shipCity: row.text(11),
            shipRegion: row.optionalText(12), shipPostalCode: row.optionalText(13), shipCountry: row.text(14))
    }

    init(grdb row: Row) {
        self.init(
            orderID: row[1], customerID: row[2], employeeID: row[3], orderDate: row[4], requiredDate: row[5],
            shippedDate: row[6], shipVia: row[7], freight: row[8], shipName: row[9], shipAddress: row[10],
            shipCity: row[11], shipRegion: row[12], shipPostalCode: row[13], shipCountry: row[14])
    }
}

/// GRDB's record path for C1: `init(row:)` by index.
struct OrderRecord: FetchableRecord {
    var value: OrderValue
    init(row: Row) { value = OrderValue(grdb: row) }
}

/// C1's data: deterministic, with Northwind's mix of short codes, names, dates as text, and
/// `NULL`s in the shipped date, region and postal code.
enum OrdersSeed {
    /// Northwind's number of orders, as in the published tables.
    static let count = 15_889
    /// Fetches per timed run; C1 reports the time per fetch.
    static let fetches = 50

    static let selectSQL = #"SELECT "_pk", "orderID", "customerID", "employeeID", "orderDate", "requiredDate", "shippedDate", "shipVia", "freight", "shipName", "shipAddress", "shipCity", "shipRegion", "shipPostalCode", "shipCountry" FROM "Order""#
    static let insertSQL = #"INSERT INTO "Order" ("orderID", "customerID", "employeeID", "orderDate", "requiredDate", "shippedDate", "shipVia", "freight", "shipName", "shipAddress", "shipCity", "shipRegion", "shipPostalCode", "shipCountry") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#

    static let cities = ["Reims", "Münster", "Rio de Janeiro", "Lyon", "Charleroi", "Bern", "Genève", "Resende", "San Cristóbal", "Graz"]
    static let countries = ["France", "Germany", "Brazil", "Belgium", "Switzerland", "Venezuela", "Austria", "Mexico", "USA", "Sweden"]

    static func date(day: Int) -> String {
        String(format: "%04d-%02d-%02d 00:00:00.000", 2012 + day / 336, 1 + (day / 28) % 12, 1 + day % 28)
    }

    static func order(_ i: Int) -> OrderValue {
        OrderValue(
            orderID: 10_248 + i, customerID: String(format: "C%04d", i % 91), employeeID: 1 + i % 9,
            orderDate: date(day: i / 5), requiredDate: date(day: i / 5 + 14),
            shippedDate: i % 37 == 0 ? nil : date(day: i / 5 + 3), shipVia: 1 + i % 3,
            freight: Double(i % 10_000) / 7, shipName: "Ship to customer \(i % 91)", shipAddress: "\(i % 500) Main Street",
            shipCity: cities[i % cities.count], shipRegion: i % 3 == 0 ? "RJ" : nil,
            shipPostalCode: i % 50 == 0 ? nil : "\(10_000 + i % 9_000)", shipCountry: countries[i % countries.count])
    }

    /// A fresh store with our layout holding `count` orders, written through the C API.
    static func seed(_ url: URL, count: Int) throws {
        try Stores.fresh(OrdersV1.self, at: url)
        let db = try RawDB(path: url.path)
        try db.exec("BEGIN")
        let insert = try db.prepare(insertSQL)
        for i in 0..<count {
            let order = order(i)
            insert.bind(1, order.orderID)
            insert.bind(2, order.customerID)
            insert.bind(3, order.employeeID)
            insert.bind(4, order.orderDate)
            insert.bind(5, order.requiredDate)
            insert.bind(6, order.shippedDate)
            insert.bind(7, order.shipVia)
            insert.bind(8, order.freight)
            insert.bind(9, order.shipName)
            insert.bind(10, order.shipAddress)
            insert.bind(11, order.shipCity)
            insert.bind(12, order.shipRegion)
            insert.bind(13, order.shipPostalCode)
            insert.bind(14, order.shipCountry)
            try insert.run()
        }
        try db.exec("COMMIT")
        try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// C1: fetch all orders `OrdersSeed.fetches` times. Ours fetches each time in a new context, so
/// every fetch makes its models (a context already holding them would hand the same objects back).
func makeOrdersJob(driver: String, size n: Int, url: URL) throws -> Job {
    var container: ModelContainer?
    var raw: RawDB?
    var queue: DatabaseQueue?
    let seed = { try OrdersSeed.seed(url, count: n) }
    switch driver {
    case "raw", "raw-class", "raw-observable":
        return Job(once: { try seed(); raw = try RawDB(path: url.path) }, body: {
            var checksum = 0
            for _ in 0..<OrdersSeed.fetches {
                let select = try raw!.prepare(OrdersSeed.selectSQL)
                checksum &+= try RowObjects.keep(as: driver, reading: { try select.step() ? OrderValue(raw: select) : nil }, checksum: \.checksum)
            }
            return checksum
        })
    case "grdb":
        return Job(once: { try seed(); queue = try Stores.grdb(url) }, body: {
            try queue!.read { db in
                var checksum = 0
                for _ in 0..<OrdersSeed.fetches {
                    var orders: [OrderValue] = []
                    let rows = try Row.fetchCursor(db, sql: OrdersSeed.selectSQL)
                    while let row = try rows.next() { orders.append(OrderValue(grdb: row)) }
                    checksum &+= orders.reduce(0) { $0 &+ $1.checksum }
                }
                return checksum
            }
        })
    case "grdb-record":
        return Job(once: { try seed(); queue = try Stores.grdb(url) }, body: {
            try queue!.read { db in
                var checksum = 0
                for _ in 0..<OrdersSeed.fetches {
                    checksum &+= try OrderRecord.fetchAll(db, sql: OrdersSeed.selectSQL).reduce(0) { $0 &+ $1.value.checksum }
                }
                return checksum
            }
        })
    default:
        return Job(once: { try seed(); container = try Stores.container(OrdersV1.self, at: url) }, body: {
            var checksum = 0
            for _ in 0..<OrdersSeed.fetches {
                let orders = try Stores.context(container!).fetch(FetchDescriptor<Order>())
                checksum &+= orders.reduce(0) { $0 &+ OrderValue.checksum(employeeID: $1.employeeID, shipRegion: $1.shipRegion) }
            }
            return checksum
        })
    }
}
