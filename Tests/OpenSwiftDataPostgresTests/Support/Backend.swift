import Foundation
import GRDB
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// A database the behaviour suites run on: every test taking a `Backend` runs once on an SQLite
/// file and once in a throw-away PostgreSQL schema (when the run has a server).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// The backends of this run: PostgreSQL when a server is available.
    static var available: [Backend] {
        PostgresTestServer.isAvailable ? [.sqlite, .postgres] : [.sqlite]
    }

    var testDescription: String { rawValue }

    /// A new, empty store of `models` on this backend, removed when the test ends.
    func store(_ models: [any PersistentModel.Type]) throws -> TestStore {
        try TestStore(self, models: models)
    }
}

/// One store of a behaviour test: what each container of the test opens.
final class TestStore {
    let backend: Backend
    let schema: Schema
    private let place: Place

    private enum Place {
        case file(URL)
        case schema(ThrowAwaySchema)
    }

    init(_ backend: Backend, models: [any PersistentModel.Type]) throws {
        self.backend = backend
        schema = Schema(models)
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-both-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            place = .file(folder.appendingPathComponent("store.sqlite"))
        case .postgres:
            place = .schema(try ThrowAwaySchema())
        }
    }

    /// The configuration of the store.
    var configuration: any DataStoreConfiguration {
        switch place {
        case .file(let url): ModelConfiguration(url: url)
        case .schema(let schema): PostgresConfiguration(url: schema.url, databaseSchema: schema.name)
        }
    }

    /// A new container on the store: a second one sees what the first saved, as another
    /// process or server would.
    func container() throws -> ModelContainer {
        try ModelContainer(for: schema, configurations: [configuration])
    }

    /// The number of rows in one of the store's own tables (the history's, for example),
    /// counted beside the store as a tool would; `nil` when the store has no such table.
    func rowCount(of table: String) throws -> Int? {
        switch place {
        case .file(let url):
            var configuration = Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                try db.tableExists(table) ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") : nil
            }
        case .schema(let schema):
            let session = try schema.session()
            let exists = try session.query("SELECT 1 FROM information_schema.tables WHERE table_schema = \(schema.name) AND table_name = \(table)")
            guard !exists.isEmpty else { return nil }
            return try session.query(PostgresQuery(unsafeSQL: "SELECT COUNT(*)::bigint FROM \(PostgresNames.qualified(table, in: schema.name))"))
                .first.map { try $0.decode(Int.self) }
        }
    }

    deinit {
        switch place {
        case .file(let url): try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
        case .schema(let schema): _ = try? schema.session().query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(schema.name)) CASCADE")
        }
    }
}
