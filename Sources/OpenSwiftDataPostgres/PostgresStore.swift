import Crypto
import Foundation
import OpenSwiftData
import PostgresNIO

/// The store a ``PostgresConfiguration`` opens: a schema's entities as tables in one
/// PostgreSQL schema of a database, with the store's metadata (its identifier, the schema its
/// tables follow) in `_osd_metadata` beside them.
///
/// Opening creates the PostgreSQL schema and the tables when the store does not exist yet, and
/// otherwise checks that its tables follow the models. It does so in one transaction holding a
/// transaction-level advisory lock keyed to the PostgreSQL schema, so that servers starting
/// together create the store once, and the others find it made.
public final class PostgresStore: DataStore, Sendable {
    public typealias Configuration = PostgresConfiguration

    public final let identifier: String
    public final let schema: Schema
    public final let configuration: PostgresConfiguration
    /// The store's connections.
    let sessions: PostgresSessionPool
    let postgresTables: PostgresTables
    /// The layout of each entity's table, by entity name, as contexts read and write them.
    package let tables: [String: TableLayout]
    package let otherClassTables = OtherClassTables()
    /// Who listens to the commits of this process's contexts to the store.
    let commitListeners = CommitListeners()
    /// What each table layout's rows are read as, made on first read.
    let readPlans = ReadPlans()
    /// The identity sequence of each table's keys, looked up on first insert.
    let keySequences = KeySequences()
    /// For a custom stage's old models: each entity's columns the step renamed, by the name the
    /// old version reads to the name they have now. Empty for every other store.
    let currentColumnNames: [String: [String: String]]
    /// Whether a `NULL` in a non-optional column reads as no value: for a custom stage's new
    /// models, whose new `Codable` attributes start that way for the stage to fill.
    let readsNullAsUnfilled: Bool
    /// What the migration run while opening did; `nil` when none ran.
    let migrationReport: MigrationReport?
    /// Whether the store is a migration stage's, over the migration's transaction: its saves
    /// record no history.
    let isMigrating: Bool
    /// The store's persistent history.
    let history: PostgresHistory
    /// What this store's saves send with their commit notice, so that its own are not heard twice.
    let commitSender = UUID().uuidString
    /// The connection that hears other containers' and servers' commits, once something watches.
    let commitNotifications = PostgresCommitNotifications()

    /// Opens (creating it first when there is none) the store the configuration describes.
    ///
    /// - Parameters:
    ///   - configuration: The store, with the models it holds as its `schema`.
    ///   - migrationPlan: The plan that migrates a store an earlier version wrote.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the server cannot be reached,
    ///   the configuration has no schema, the PostgreSQL schema holds other tables of the same
    ///   names, or the store's tables follow other models; nothing is created or changed then.
    public convenience init(_ configuration: PostgresConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        try configuration.validate()
        guard let schema = configuration.schema else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration.name) has no schema: a store opened on its own needs the models it holds (PostgresConfiguration(schema:))")
        }
        try schema.validate()
        try self.init(configuration, schema: schema, migrationPlan: migrationPlan)
    }

    /// Opens the store holding `schema`, the part of a container's schema the configuration holds.
    init(
        _ configuration: PostgresConfiguration, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.schema = schema
        let postgresTables = PostgresTables(databaseSchema: configuration.databaseSchema, schema: schema)
        let session = try PostgresSession(try PostgresEndpoint(configuration))
        (identifier, migrationReport) = try Self.retryingLockTimeouts(configuration, session: session) {
            try session.transaction {
                try Self.openOrCreate(
                    configuration, schema: schema, migrationPlan: migrationPlan, tables: postgresTables, session: session, progress: progress)
            }
        }
        currentColumnNames = [:]
        readsNullAsUnfilled = false
        isMigrating = false
        history = PostgresHistory(databaseSchema: configuration.databaseSchema, prepared: configuration.preparesRepeatedStatements)
        // The Query layer's SQL names tables unqualified.
        let searchPath = PostgresQuery(unsafeSQL: "SET search_path TO \(PostgresNames.quoted(configuration.databaseSchema))")
        sessions = try PostgresSessionPool(first: session, maximum: configuration.maximumConnections) { try $0.query(searchPath) }
        self.postgresTables = postgresTables
        tables = TableLayout.layouts(of: schema)
    }

    /// A store over the transaction of a migration that `session` is in, for a custom stage's
    /// context: its saves are savepoints of that transaction, and it reads the tables as they
    /// are at that point of the migration.
    ///
    /// - Parameter currentColumnNames: for the old version's models, the columns the step
    ///   renamed (see ``currentColumnNames``).
    init(
        migrating session: PostgresSession, configuration: PostgresConfiguration, schema: Schema, identifier: String,
        currentColumnNames: [String: [String: String]] = [:], readsNullAsUnfilled: Bool = false
    ) {
        self.readsNullAsUnfilled = readsNullAsUnfilled
        isMigrating = true
        history = PostgresHistory(databaseSchema: configuration.databaseSchema, prepared: configuration.preparesRepeatedStatements)
        self.configuration = configuration
        self.schema = schema
        self.identifier = identifier
        self.currentColumnNames = currentColumnNames
        migrationReport = nil
        sessions = PostgresSessionPool(borrowing: session)
        postgresTables = PostgresTables(databaseSchema: configuration.databaseSchema, schema: schema)
        tables = TableLayout.layouts(of: schema)
    }

    /// What the store records about itself.
    struct Metadata {
        var storeIdentifier: String
        var fingerprint: String
        var versionIdentifier: String
        /// The canonical JSON of the schema the tables follow.
        var schemaJSON: String
        /// Whether the models were versioned (a `VersionedSchema`): the app's plan then decides
        /// the store's migrations.
        var isVersioned: Bool
    }

    /// The store's identifier, creating the store first when the PostgreSQL schema has none, and
    /// the report of the migration it ran, if any.
    private static func openOrCreate(
        _ configuration: PostgresConfiguration, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, tables: PostgresTables,
        session: PostgresSession, progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> (String, MigrationReport?) {
        let databaseSchema = configuration.databaseSchema
        let place = "the PostgreSQL schema \(databaseSchema) of \(PostgresEndpoint.redacted(configuration.url))"
        try session.query("SELECT pg_advisory_xact_lock(\(unescaped: String(lockKey(databaseSchema))))")
        if let metadata = try readMetadata(in: databaseSchema, session: session) {
            // Decided under the lock, from what is recorded now: servers starting together
            // wait here, and all but the first find nothing to do.
            let steps = try MigrationPlanner.schemaSteps(
                of: place, recordedSchemaJSON: metadata.schemaJSON, fingerprint: metadata.fingerprint,
                versionIdentifier: metadata.versionIdentifier, isVersioned: metadata.isVersioned, to: schema, migrationPlan: migrationPlan)
            guard !steps.isEmpty else { return (metadata.storeIdentifier, nil) }
            guard !configuration.isReadOnly else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(place) is at version \(metadata.versionIdentifier) and the models at \(schema.version), and the configuration is read-only (isReadOnly: true), so it cannot be migrated; nothing was changed. Open it with the models it was written with, or migrate it from a writable configuration first")
            }
            var report = MigrationReport(
                storeURL: configuration.reportURL, storeVersion: metadata.versionIdentifier, targetVersion: schema.version.description)
            let run = PostgresMigrationRun(
                steps: steps, configuration: configuration, storeIdentifier: metadata.storeIdentifier, place: place, session: session,
                progress: progress.map { MigrationProgressReporter(storeURL: configuration.reportURL, stepCount: steps.count, report: $0) })
            try run.run(into: &report)
            try recordSchema(schema, in: tables.table("_osd_metadata"), session: session)
            return (metadata.storeIdentifier, report)
        }
        guard !configuration.isReadOnly else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(place) holds no store, and the configuration is read-only (isReadOnly: true), so none can be created there")
        }
        let existing = try tableNames(in: databaseSchema, session: session)
        let clashes = tables.tableNames.filter(existing.contains) + (existing.contains("_osd_metadata") ? ["_osd_metadata"] : [])
        guard clashes.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(place) already has tables named \(clashes.sorted().joined(separator: ", ")), which OpenSwiftData did not make; nothing was created. Give the configuration a databaseSchema of its own")
        }
        try session.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: PostgresNames.quoted(databaseSchema))")
        for statement in tables.creationSQL { try session.query(PostgresQuery(unsafeSQL: statement)) }
        let metadataTable = tables.table("_osd_metadata")
        try session.query("CREATE TABLE \(unescaped: metadataTable) (\"key\" text PRIMARY KEY, \"value\" text NOT NULL)")
        let storeIdentifier = UUID().uuidString
        try session.query("INSERT INTO \(unescaped: metadataTable) (\"key\", \"value\") VALUES ('storeIdentifier', \(storeIdentifier)), ('formatVersion', '1')")
        try recordSchema(schema, in: metadataTable, session: session)
        return (storeIdentifier, nil)
    }

    /// Records `schema` as the one the tables follow, in the same transaction as the change.
    private static func recordSchema(_ schema: Schema, in metadataTable: String, session: PostgresSession) throws {
        let pairs = [
            ("schema", String(decoding: try schema.canonicalJSON(), as: UTF8.self)),
            ("fingerprint", schema.fingerprint),
            ("versionIdentifier", schema.version.description),
            ("versioned", schema.isVersioned ? "true" : "false"),
        ]
        for (key, value) in pairs {
            try session.query(
                "INSERT INTO \(unescaped: metadataTable) (\"key\", \"value\") VALUES (\(key), \(value)) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\"")
        }
    }

    /// The store's metadata; `nil` when the PostgreSQL schema holds no store.
    static func readMetadata(in databaseSchema: String, session: PostgresSession) throws -> Metadata? {
        let table = PostgresNames.qualified("_osd_metadata", in: databaseSchema)
        let exists = try session.query("SELECT to_regclass(\(table)) IS NOT NULL")
        guard try exists.first?.decode(Bool.self) == true else { return nil }
        var values: [String: String] = [:]
        for row in try session.query("SELECT \"key\", \"value\" FROM \(unescaped: table)") {
            let (key, value) = try row.decode((String, String).self)
            values[key] = value
        }
        guard let storeIdentifier = values["storeIdentifier"], let fingerprint = values["fingerprint"], let schemaJSON = values["schema"] else {
            return nil
        }
        return Metadata(
            storeIdentifier: storeIdentifier, fingerprint: fingerprint, versionIdentifier: values["versionIdentifier"] ?? "", schemaJSON: schemaJSON,
            isVersioned: values["versioned"] == "true")
    }

    /// The tables of a PostgreSQL schema.
    static func tableNames(in databaseSchema: String, session: PostgresSession) throws -> Set<String> {
        Set(try session.query("SELECT tablename FROM pg_tables WHERE schemaname = \(databaseSchema)").map { try $0.decode(String.self) })
    }

    /// The advisory lock of a PostgreSQL schema's store: what servers opening it take in turn.
    static func lockKey(_ databaseSchema: String) -> Int64 {
        let digest = SHA256.hash(data: Data(("openswiftdata\u{0}" + databaseSchema).utf8))
        return digest.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
