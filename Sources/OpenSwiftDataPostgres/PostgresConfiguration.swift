import Foundation
import OpenSwiftData

/// A store in a PostgreSQL database: the server and database (a `postgres://` URL), and the
/// PostgreSQL schema its tables live in.
///
/// ```swift
/// let configuration = PostgresConfiguration(
///     url: URL(string: "postgres://app:secret@db.internal:5432/films")!, databaseSchema: "catalog")
/// let container = try ModelContainer(for: Film.self, configurations: configuration)
/// ```
///
/// Several containers, in one server process or many, open the same configuration: PostgreSQL
/// keeps their saves apart, one transaction each. Two configurations with different
/// `databaseSchema`s are two stores in one database.
public struct PostgresConfiguration: DataStoreConfiguration, Sendable {
    public typealias Store = PostgresStore

    /// The configuration's name, unique among a container's configurations.
    public let name: String
    /// The entities the store holds; `nil` for all of the container's.
    public var schema: Schema?
    /// The database: `postgres://user:password@host:port/database`. The port defaults to 5432,
    /// the database to the user's name. Its parameters are libpq's: `sslmode`, `sslrootcert`,
    /// `sslcert`, `sslkey` (see ``PostgresTLS``), `connect_timeout` and `application_name`.
    public let url: URL
    /// How connections use TLS, in place of the URL's `sslmode`, `sslrootcert`, `sslcert` and
    /// `sslkey`; `nil` (the default) for what the URL says, which is `sslmode=prefer` when it
    /// says nothing.
    public var tls: PostgresTLS?
    /// The PostgreSQL schema (namespace) the store's tables live in; created when missing.
    public let databaseSchema: String
    /// Whether the store refuses saves: for a read replica, or a reporting process.
    public let isReadOnly: Bool
    /// How many connections to the server the store opens at most, shared by the contexts of
    /// its container: as many contexts (threads, actors, `perform` calls) save or fetch at
    /// once; more wait for a free one. The default is 4.
    public var maximumConnections = 4
    /// Whether opening the store may run a migration step that drops stored values (an entity,
    /// an attribute, a relationship the new version no longer has). Off by default: a
    /// PostgreSQL store has no file to copy beside it before migrating, as a SQLite store has;
    /// take a dump of the schema first (`pg_dump --schema=…`), then turn this on.
    public var allowsDestructiveMigration = false
    /// How long, in seconds, a migration's statement waits for a table another connection is
    /// using (an old server's open transaction) before the opening is rolled back and tried
    /// again, three more times, each waiting longer; then the error names those connections.
    /// The default is 5.
    public var migrationLockTimeout: TimeInterval = 5
    /// Whether the statements the store repeats (its reads, its history statement) are
    /// prepared on each connection from their second run on, so the server plans them once.
    /// On by default; turn it off behind a connection pooler in transaction mode that does not
    /// keep prepared statements per client (PgBouncer before 1.21, or without
    /// `max_prepared_statements`).
    public var preparesRepeatedStatements = true

    /// A PostgreSQL store.
    ///
    /// - Parameters:
    ///   - name: The configuration's name; "default" when `nil`.
    ///   - schema: The entities the store holds; `nil` for all of the container's.
    ///   - url: The database, as `postgres://user:password@host:port/database`.
    ///   - databaseSchema: The PostgreSQL schema its tables live in; `public` when `nil`.
    ///   - isReadOnly: Whether saves are refused.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, databaseSchema: String? = nil, isReadOnly: Bool = false) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.databaseSchema = databaseSchema ?? "public"
        self.isReadOnly = isReadOnly
    }

    /// Throws, saying what to write instead, for a URL that does not name a PostgreSQL
    /// database, or an empty schema name.
    public func validate() throws {
        _ = try PostgresEndpoint(self)
        guard !databaseSchema.isEmpty, !databaseSchema.utf8.contains(0) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(name) names an empty database schema (or one with a NUL); give databaseSchema a name, or nil for public")
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.tls == rhs.tls && lhs.databaseSchema == rhs.databaseSchema
            && lhs.isReadOnly == rhs.isReadOnly
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(databaseSchema)
    }
}

extension PostgresConfiguration: ModelStoreConfiguration {
    package var storeKey: String {
        "\(PostgresEndpoint.redacted(url)) schema \(databaseSchema)"
    }

    package func openModelStore(
        schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> (any ModelStore, MigrationReport?) {
        try validate()
        let store = try PostgresStore(self, schema: schema, migrationPlan: migrationPlan, progress: progress)
        return (store, store.migrationReport)
    }

    package func previewMigration(schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> MigrationReport {
        try PostgresStore.previewMigration(of: self, to: schema, migrationPlan: migrationPlan)
    }

    /// The store as migration reports and progress name it: the server's URL without its
    /// password.
    var reportURL: URL {
        URL(string: PostgresEndpoint.redacted(url)) ?? url
    }
}
