import ArgumentParser
import Foundation

/// A server answering TechEmpower's database tests (`/db`, `/queries?queries=N`,
/// `/updates?queries=N`, `/fortunes`) through one driver, for `Benchmarks/techempower.sh`, which
/// loads each driver's server with wrk in turn:
///
/// - `ours`: OpenSwiftData's PostgreSQL store on Hummingbird, through the request's models;
/// - `postgres-nio`: postgres-nio's `PostgresClient` on Hummingbird, the SQL written by hand;
/// - `fluent`: Fluent's PostgreSQL driver on Vapor.
///
/// Each uses at most `--pool` connections to PostgreSQL.
@main struct TechEmpowerServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "techempower")

    @Option(help: "ours, postgres-nio or fluent.") var driver: String
    @Option(help: "The PostgreSQL server.") var databaseURL: String
    @Option(help: "The port to serve on.") var port = 8080
    @Option(help: "Connections to PostgreSQL, at most.") var pool = 32
    @Flag(help: "Create and fill the driver's tables, then exit.") var seed = false

    func run() async throws {
        guard let url = URL(string: databaseURL) else { throw ValidationError("not a URL: \(databaseURL)") }
        switch driver {
        case "ours":
            if seed { try await OursDriver.seed(url) } else { try await OursDriver.serve(url, port: port, pool: pool) }
        case "postgres-nio":
            if seed { try await RawDriver.seed(url) } else { try await RawDriver.serve(url, port: port, pool: pool) }
        case "fluent":
            if !seed { try await FluentDriver.serve(url, port: port, pool: pool) }
        default:
            throw ValidationError("unknown driver \(driver): ours, postgres-nio or fluent")
        }
    }
}

/// What the tests answer with, as TechEmpower specifies.
struct WorldReply: Codable, Sendable {
    var id: Int
    var randomNumber: Int
}

enum TechEmpower {
    static let worldCount = 10_000

    static func randomID() -> Int { Int.random(in: 1...worldCount) }

    /// `queries` clamped to 1...500; 1 when absent or not a number.
    static func queryCount(_ text: Substring?) -> Int {
        min(max(text.flatMap { Int($0) } ?? 1, 1), 500)
    }

    /// The fixed fortunes of the benchmark.
    static let fortunes: [(Int, String)] = [
        (1, "fortune: No such file or directory"),
        (2, "A computer scientist is someone who fixes things that aren't broken."),
        (3, "After enough decimal places, nobody gives a damn."),
        (4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
        (5, "A computer program does what you tell it to do, not what you want it to do."),
        (6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"),
        (7, "Any program that runs right is obsolete."),
        (8, "A list is only as strong as its weakest link. — Donald Knuth"),
        (9, "Feature: A bug with seniority."),
        (10, "Computers make very fast, very accurate mistakes."),
        (11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
        (12, "フレームワークのベンチマーク"),
    ]

    /// The fortunes page: every fortune and the one added at request time, sorted by message,
    /// escaped.
    static func fortunesPage(_ rows: [(Int, String)]) -> String {
        var all = rows
        all.append((0, "Additional fortune added at request time."))
        all.sort { $0.1 < $1.1 }
        var html = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>"
        for (id, message) in all {
            html += "<tr><td>\(id)</td><td>\(escaped(message))</td></tr>"
        }
        return html + "</table></body></html>"
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
