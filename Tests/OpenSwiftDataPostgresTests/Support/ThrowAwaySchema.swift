import Foundation
import OpenSwiftData
import Testing
@testable import OpenSwiftDataPostgres

/// A PostgreSQL schema of its own for one test, dropped with everything in it when the test is
/// done: tests run in parallel on one server without seeing each other's tables.
struct ThrowAwaySchema {
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    let url: URL

    init() throws {
        url = try #require(PostgresTestServer.url)
    }

    func configuration(_ models: any PersistentModel.Type..., isReadOnly: Bool = false) -> PostgresConfiguration {
        PostgresConfiguration(schema: Schema(models), url: url, databaseSchema: name, isReadOnly: isReadOnly)
    }

    /// A connection of the tests' own, to look at what a store made.
    func session() throws -> PostgresSession {
        try PostgresSession(PostgresEndpoint(url, configuration: "tests"))
    }

    /// Runs `body`, then drops the schema.
    func use<T>(_ body: (Self) throws -> T) throws -> T {
        defer { _ = try? session().query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(name)) CASCADE") }
        return try body(self)
    }
}
