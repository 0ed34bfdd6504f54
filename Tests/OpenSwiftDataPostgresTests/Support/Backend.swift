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
final class TestStore: Sendable {
    let backend: Backend
    let schema: Schema
    private let place: Place

    private enum Place: Sendable {
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

    /// The configuration of an app that lets its migrations drop stored values: SQLite copies
    /// the file beside it first; PostgreSQL, which has no file to copy, asks for the opt-in.
    var droppingConfiguration: any DataStoreConfiguration {
        switch place {
        case .file(let url):
            return ModelConfiguration(url: url)
        case .schema(let schema):
            var configuration = PostgresConfiguration(url: schema.url, databaseSchema: schema.name)
            configuration.allowsDestructiveMigration = true
            return configuration
        }
    }

    /// A new container on the store: a second one sees what the first saved, as another
    /// process or server would.
    func container() throws -> ModelContainer {
        try ModelContainer(for: schema, configurations: [configuration])
    }

    /// A new container of one version of a plan, migrating the store to it (allowed to drop
    /// values, see ``droppingConfiguration``).
    func container(
        _ version: any VersionedSchema.Type, plan: any SchemaMigrationPlan.Type,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> ModelContainer {
        let schema = Schema(versionedSchema: version)
        if let progress {
            return try ModelContainer(for: schema, migrationPlan: plan, configurations: [droppingConfiguration], migrationProgress: progress)
        }
        return try ModelContainer(for: schema, migrationPlan: plan, configurations: [droppingConfiguration])
    }

    /// What the migration of the store to `version` would do, run and rolled back (PostgreSQL)
    /// or run on a copy (SQLite).
    func previewMigration(to version: any VersionedSchema.Type, plan: any SchemaMigrationPlan.Type) throws -> MigrationReport {
        switch place {
        case .file(let url):
            let preview = try ModelContainer.previewMigration(
                for: Schema(versionedSchema: version), migrationPlan: plan, configurations: ModelConfiguration(url: url))
            return try #require(preview.stores.first, "\(preview)")
        case .schema:
            return try PostgresStore.previewMigration(
                of: droppingConfiguration as! PostgresConfiguration, to: Schema(versionedSchema: version), migrationPlan: plan)
        }
    }

    /// Everything the store holds, as text a test compares before and after something that
    /// must change nothing: each table's definition (columns, types, nullability, indices) and
    /// every row, in key order.
    func contents() throws -> [String] {
        switch place {
        case .file(let url):
            var configuration = Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                let definitions = try String.fetchAll(db, sql: "SELECT coalesce(sql, name) FROM sqlite_master ORDER BY name")
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                let rows = try tables.flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map { "\(table) \($0)" }.sorted()
                }
                return definitions + rows
            }
        case .schema(let schema):
            let tables = try schema.session().query(
                "SELECT table_name FROM information_schema.columns WHERE table_schema = \(schema.name) AND column_name = '_pk' ORDER BY 1"
            ).map { try $0.decode(String.self) }
            return try schema.dump(rowsOf: tables)
        }
    }

    /// The columns of `table`, in order.
    func columns(of table: String) throws -> [String] {
        switch place {
        case .file(let url):
            var configuration = Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                try db.columns(in: table).map(\.name)
            }
        case .schema(let schema):
            return try schema.columns(of: table)
        }
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
