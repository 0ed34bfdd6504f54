import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// A PostgreSQL schema of its own for one test, dropped with everything in it when the test is
/// done: tests run in parallel on one server without seeing each other's tables.
struct ThrowAwaySchema: Sendable {
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

    /// What a test compares before and after something that must change nothing: every
    /// column (type, nullability, default), index, recorded metadata entry, and every row of
    /// `tables`, in key order.
    func dump(rowsOf tables: [String]) throws -> [String] {
        let session = try session()
        let columns = try session.query(
            "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = \(name) ORDER BY 1"
        ).map { try $0.decode(String.self) }
        let indices = try session.query("SELECT indexdef FROM pg_indexes WHERE schemaname = \(name) ORDER BY 1").map { try $0.decode(String.self) }
        let metadata = try session.query(PostgresQuery(unsafeSQL: "SELECT key || '=' || value FROM \(PostgresNames.qualified("_osd_metadata", in: name)) ORDER BY 1")).map { try $0.decode(String.self) }
        let rows = try tables.flatMap { table in
            try session.query(PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM \(PostgresNames.qualified(table, in: name)) t ORDER BY \"_pk\"")).map { try $0.decode(String.self) }
        }
        return columns + indices + metadata + rows
    }

    /// The columns of `table`, in order.
    func columns(of table: String) throws -> [String] {
        try session().query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = \(name) AND table_name = \(table) ORDER BY ordinal_position"
        ).map { try $0.decode(String.self) }
    }

    /// Runs `body`, then drops the schema.
    func use<T>(_ body: (Self) throws -> T) throws -> T {
        defer { _ = try? session().query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(name)) CASCADE") }
        return try body(self)
    }
}
