import Foundation
@testable import OpenSwiftData
import PostgresNIO
import TestSupport
@testable import OpenSwiftDataPostgres

/// The harness's samples in a PostgreSQL table, written as the PostgreSQL store writes its
/// columns (``StorageType/postgresType``, strings in byte order, values bound by
/// ``PostgresValues``), so that every predicate and sort the harness checks on SQLite is also
/// checked in PostgreSQL's SQL, rendered by ``PostgresDialect``.
///
/// A fragment PostgreSQL cannot run (a function or collation its dialect lacks) is not checked
/// there: the PostgreSQL store answers such a fetch in memory with `Predicate.evaluate`, which
/// is what the harness compares with.
final class PostgresSampleTable: Sendable {
    /// The table of ``QueryFixtures/samples``, when the run has a PostgreSQL server.
    static let shared: PostgresSampleTable? = PostgresTestServer.isAvailable ? try! PostgresSampleTable(QueryFixtures.samples) : nil

    /// Each test process's own schema, so that runs sharing a server (`OSD_POSTGRES_URL`)
    /// never meet.
    private static let schema = "predicate_harness_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()

    /// Creates the schema once: `CREATE SCHEMA IF NOT EXISTS` run by two tests at once can
    /// still fail on the catalog's unique index.
    private static let schemaCreated: Void = {
        let session = try! PostgresSession(PostgresEndpoint(PostgresTestServer.url!, configuration: "predicate harness"))
        try! session.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(PostgresNames.quoted(schema))"))
    }()

    private let session: PostgresSession
    private let table: String

    /// A table of `samples`; `nil` without a server, or when a sample holds a value the
    /// PostgreSQL store refuses to write (NaN, a string with NUL), so there is nothing to query.
    static func of(_ samples: [QuerySample]) throws -> PostgresSampleTable? {
        guard PostgresTestServer.isAvailable else { return nil }
        do {
            return try PostgresSampleTable(samples)
        } catch let error as SwiftDataError where error == .modelValidationFailure {
            return nil
        }
    }

    private init(_ samples: [QuerySample]) throws {
        let url = PostgresTestServer.url!
        session = try PostgresSession(PostgresEndpoint(url, configuration: "predicate harness"))
        table = PostgresNames.qualified("sample_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased(), in: Self.schema)
        _ = Self.schemaCreated
        let definitions = QuerySampleColumns.entries.map { entry in
            let storage = entry.codec.storage
            return "\(PostgresNames.quoted(entry.name)) \(storage.postgresType)\(storage == .string ? " COLLATE \"C\"" : "")\(entry.codec.isOptional ? "" : " NOT NULL")"
        }
        do {
            try session.transaction {
                try session.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id bigint PRIMARY KEY, \(definitions.joined(separator: ", ")))"))
                let names = QuerySampleColumns.entries.map { PostgresNames.quoted($0.name) }.joined(separator: ", ")
                for sample in samples {
                    var binds = PostgresBindings()
                    binds.append(sample.id)
                    var placeholders = ["$1"]
                    for entry in QuerySampleColumns.entries {
                        let storage = entry.codec.storage
                        try PostgresValues.bind(
                            entry.codec.encode(sample[keyPath: entry.keyPath]), as: storage, into: &binds,
                            attribute: entry.name, entity: "QuerySample")
                        placeholders.append(PostgresValues.placeholder(placeholders.count + 1, for: storage))
                    }
                    try session.query(PostgresQuery(
                        unsafeSQL: "INSERT INTO \(table) (id, \(names)) VALUES (\(placeholders.joined(separator: ", ")))", binds: binds))
                }
            }
        } catch {
            _ = try? session.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"))
            throw error
        }
    }

    deinit {
        _ = try? session.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"))
    }

    /// The ids of the samples `predicate`'s SQL selects, in id order, with the SQL it ran;
    /// `nil` when PostgreSQL cannot run it.
    func selectedIDs(where predicate: SQLFragment) throws -> (ids: [Int], sql: String)? {
        guard PostgresSQL.canRun(predicate) else { return nil }
        return try ids { binds in "SELECT id FROM \(table) WHERE \(try PostgresSQL.render(predicate, into: &binds, entity: "QuerySample")) ORDER BY id" }
    }

    /// The ids of every sample ordered by `orderBy`, ties by id; `nil` when PostgreSQL cannot
    /// order so.
    func orderedIDs(by orderBy: SQLFragment) throws -> (ids: [Int], sql: String)? {
        guard PostgresSQL.canRun(orderBy) else { return nil }
        return try ids { binds in "SELECT id FROM \(table) ORDER BY \(try PostgresSQL.render(orderBy, into: &binds, entity: "QuerySample")), id" }
    }

    private func ids(_ statement: (inout PostgresBindings) throws -> String) throws -> (ids: [Int], sql: String) {
        var binds = PostgresBindings()
        let sql = try statement(&binds)
        let rows = try session.query(PostgresQuery(unsafeSQL: sql, binds: binds))
        return (try rows.map { try $0.decode(Int.self) }, sql)
    }
}
