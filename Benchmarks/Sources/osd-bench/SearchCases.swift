import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import PostgresNIO

/// A customer list as a server's list and search screens read it.
enum CustomersV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Customer.self] }

    @Model final class Customer {
        var name: String
        var tags: [String]
        init(name: String, tags: [String]) {
            self.name = name
            self.tags = tags
        }
    }
}

/// P10-P13: list and search queries on a table of N customers, made on the server (no rows
/// cross to the process, so its peak memory is the query's): names "First Last i" from 20
/// first and 20 last names, 2 of each with letters beyond ASCII (about 19 % of the names),
/// NFC as typed; two tags each, "t" + i % 50 and "c" + i % 7. postgres-nio runs the SQL a
/// developer would write for the same answer (ORDER BY name, ILIKE, strpos, jsonb @>).
enum SearchBench {
    static let firstNames = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Grace", "Hannah", "Isaac", "Joanna",
                             "Karl", "Laura", "Marc", "Nina", "Oscar", "Paula", "Quinn", "Ruth", "José", "Zoë"]
    static let lastNames = ["Smith", "Johnson", "Brown", "Taylor", "Anderson", "Wilson", "Martin", "Thompson", "White", "Harris",
                            "Clark", "Lewis", "Walker", "Hall", "Young", "King", "Wright", "Scott", "Müller", "Ångström"]

    static func seed(_ connection: PostgresConnection, schema: String, count: Int) throws {
        func array(_ names: [String]) -> String { "ARRAY[" + names.map { "'\($0)'" }.joined(separator: ", ") + "]" }
        let sql = """
            INSERT INTO "\(schema)"."Customer" ("name", "tags")
            SELECT (\(array(firstNames)))[1 + g % 20] || ' ' || (\(array(lastNames)))[1 + (g / 20) % 20] || ' ' || g,
                   jsonb_build_array('t' || (g % 50), 'c' || (g % 7))
            FROM generate_series(0, \(count - 1)) AS g
            """
        _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresBench.logger).wait()
        // Hint bits and the visibility map set now, not by the first timed scans or an autovacuum beside them.
        _ = try connection.query(PostgresQuery(unsafeSQL: "VACUUM (FREEZE, ANALYZE) \"\(schema)\".\"Customer\""), logger: PostgresBench.logger).wait()
    }

    static func job(case id: String, driver: String, size n: Int, url: URL) throws -> Job {
        let schema = "bench_\(id.lowercased())_\(driver.replacingOccurrences(of: "-", with: "_"))_\(n)"
        let models = Schema(versionedSchema: CustomersV1.self)
        let configuration = PostgresConfiguration(schema: models, url: url, databaseSchema: schema)
        var container: ModelContainer?
        var connection: PostgresConnection?
        let once = {
            let setup = try PostgresBench.connect(url)
            _ = try setup.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"), logger: PostgresBench.logger).wait()
            container = try ModelContainer(for: models, configurations: [configuration])
            try seed(setup, schema: schema, count: n)
            try setup.close().wait()
            if driver == "postgres-nio" {
                connection = try PostgresBench.connect(url)
                _ = try connection!.query(PostgresQuery(unsafeSQL: "SET search_path TO \"\(schema)\""), logger: PostgresBench.logger).wait()
            }
        }
        func rows(_ sql: String) throws -> Int {
            // The page's customers, made values as a handler would before encoding them.
            var checksum = 0
            for row in try connection!.query(PostgresQuery(unsafeSQL: sql), logger: PostgresBench.logger).wait() {
                let (pk, name, tags) = try row.decode((Int, String, String).self)
                let customer = (pk: pk, name: name, tags: try JSONDecoder().decode([String].self, from: Data(tags.utf8)))
                checksum &+= customer.name.hashValue &+ customer.tags.count
            }
            return checksum
        }
        func count(_ sql: String) throws -> Int {
            try connection!.query(PostgresQuery(unsafeSQL: sql), logger: PostgresBench.logger).wait().first!.decode(Int.self)
        }
        func page(_ models: [CustomersV1.Customer]) -> Int {
            models.reduce(0) { sum, customer in
                sum &+ customer.name.hashValue &+ customer.tags.count
            }
        }
        let columns = "\"_pk\", \"name\", \"tags\"::text"
        let body: () throws -> Int
        switch (id, driver) {
        case ("P10", "ours"):
            body = {
                var descriptor = FetchDescriptor<CustomersV1.Customer>(sortBy: [SortDescriptor(\.name)])
                descriptor.fetchOffset = 1_000
                descriptor.fetchLimit = 20
                return page(try ModelContext(container!).fetch(descriptor))
            }
        case ("P10", _):
            body = { try rows("SELECT \(columns) FROM \"Customer\" ORDER BY \"name\", \"_pk\" LIMIT 20 OFFSET 1000") }
        case ("P11", "ours"):
            body = {
                var descriptor = FetchDescriptor<CustomersV1.Customer>(
                    predicate: #Predicate { $0.name.localizedStandardContains("ann") }, sortBy: [SortDescriptor(\.name)])
                descriptor.fetchLimit = 50
                return page(try ModelContext(container!).fetch(descriptor))
            }
        case ("P11", _):
            body = { try rows("SELECT \(columns) FROM \"Customer\" WHERE \"name\" ILIKE '%ann%' ORDER BY \"name\", \"_pk\" LIMIT 50") }
        case ("P12", "ours"):
            body = { try ModelContext(container!).fetchCount(FetchDescriptor<CustomersV1.Customer>(predicate: #Predicate { $0.name.contains("son") })) }
        case ("P12", _):
            body = { try count("SELECT count(*) FROM \"Customer\" WHERE strpos(\"name\", 'son') > 0") }
        case ("P13", "ours"):
            body = { try ModelContext(container!).fetchCount(FetchDescriptor<CustomersV1.Customer>(predicate: #Predicate { $0.tags.contains("t7") })) }
        case ("P13", _):
            body = { try count("SELECT count(*) FROM \"Customer\" WHERE \"tags\" @> '[\"t7\"]'") }
        default:
            throw ValidationErrorText("no driver \(driver) for \(id)")
        }
        return Job(once: once, body: body, after: {})
    }
}
