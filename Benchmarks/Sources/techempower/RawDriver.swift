import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PostgresNIO

/// postgres-nio's `PostgresClient` on Hummingbird, the SQL written by hand (as TechEmpower's
/// hummingbird2-postgres entry does), updates batched into one statement.
enum RawDriver {
    static func client(_ url: URL, pool: Int) throws -> PostgresClient {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host else {
            throw ValidationError("not a PostgreSQL URL: \(url)")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
        configuration.options.maximumConnections = pool
        return PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "postgres-nio"))
    }

    static func seed(_ url: URL) async throws {
        let client = try client(url, pool: 1)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let logger = Logger(label: "seed")
            try await client.query("DROP SCHEMA IF EXISTS te_raw CASCADE", logger: logger)
            try await client.query("CREATE SCHEMA te_raw", logger: logger)
            try await client.query("CREATE TABLE te_raw.\"World\" (id integer PRIMARY KEY, randomnumber integer NOT NULL)", logger: logger)
            try await client.query("CREATE TABLE te_raw.\"Fortune\" (id integer PRIMARY KEY, message text NOT NULL)", logger: logger)
            try await client.query(
                "INSERT INTO te_raw.\"World\" SELECT g, 1 + floor(random() * \(unescaped: "\(TechEmpower.worldCount)"))::integer FROM generate_series(1, \(unescaped: "\(TechEmpower.worldCount)")) AS g",
                logger: logger)
            for (id, message) in TechEmpower.fortunes {
                try await client.query("INSERT INTO te_raw.\"Fortune\" (id, message) VALUES (\(id), \(message))", logger: logger)
            }
            group.cancelAll()
        }
    }

    static func serve(_ url: URL, port: Int, pool: Int) async throws {
        let client = try client(url, pool: pool)
        let logger = Logger(label: "techempower")
        let router = Router()
        @Sendable func world(_ id: Int) async throws -> WorldReply {
            let rows = try await client.query("SELECT id, randomnumber FROM te_raw.\"World\" WHERE id = \(id)", logger: logger)
            for try await (id, number) in rows.decode((Int32, Int32).self) { return WorldReply(id: Int(id), randomNumber: Int(number)) }
            throw HTTPError(.notFound)
        }
        router.get("db") { _, _ in try await world(TechEmpower.randomID()) }
        router.get("queries") { request, _ -> [WorldReply] in
            var replies: [WorldReply] = []
            for _ in 0..<TechEmpower.queryCount(request.uri.queryParameters["queries"]) { replies.append(try await world(TechEmpower.randomID())) }
            return replies
        }
        router.get("updates") { request, _ -> [WorldReply] in
            var replies: [WorldReply] = []
            for _ in 0..<TechEmpower.queryCount(request.uri.queryParameters["queries"]) {
                var reply = try await world(TechEmpower.randomID())
                var number = TechEmpower.randomID()
                while number == reply.randomNumber { number = TechEmpower.randomID() }
                reply.randomNumber = number
                replies.append(reply)
            }
            let ids = replies.map { Int32($0.id) }, numbers = replies.map { Int32($0.randomNumber) }
            try await client.query(
                "UPDATE te_raw.\"World\" AS w SET randomnumber = v.r FROM (SELECT unnest(\(ids)) AS id, unnest(\(numbers)) AS r) AS v WHERE w.id = v.id",
                logger: logger)
            return replies
        }
        router.get("fortunes") { _, _ -> HTML in
            var rows: [(Int, String)] = []
            for try await (id, message) in try await client.query("SELECT id, message FROM te_raw.\"Fortune\"", logger: logger).decode((Int32, String).self) {
                rows.append((Int(id), message))
            }
            return HTML(TechEmpower.fortunesPage(rows))
        }
        var app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        app.addServices(client)
        try await app.runService()
    }
}
