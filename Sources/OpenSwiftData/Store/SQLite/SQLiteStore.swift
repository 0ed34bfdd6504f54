import Foundation
import GRDB
import Synchronization

/// One SQLite database holding a schema's entities: a file in WAL mode, or memory.
///
/// The store is the only place that runs SQL. Contexts ask it for rows and hand it the changes
/// to save; every save is one transaction. Several stores (in several containers, or several
/// processes) may open the same file: each sees what the others saved, and readers never wait
/// for a writer.
final class SQLiteStore: ModelStore {
    enum Location: Sendable, Equatable {
        case file(URL)
        case inMemory
    }

    /// The identifier recorded in the store, part of every identifier of its models.
    let identifier: String
    let location: Location
    let schema: Schema
    let isReadOnly: Bool
    let tables: [String: TableLayout]
    let otherClassTables = OtherClassTables()
    /// Every connection has OpenSwiftData's SQL functions and collations (``QueryFunctions``).
    func canRun(_ sql: SQLFragment) -> Bool { true }
    func narrowed(_ condition: SQLFragment, toward bound: SQLBound) -> SQLFragment? { condition }

    /// Readers run side by side (WAL); writes take turns on one connection.
    var concurrentUses: Int { 4 }

    /// ``CascadingDelete`` applies the rules in SQL.
    var appliesDeleteRules: Bool { true }
    /// The file's schema cookie (`PRAGMA schema_version`, which every change to a table bumps)
    /// when the store's tables were last known to be the schema's; -1 before it is read.
    private let knownSchemaVersion = Atomic<Int>(-1)
    /// Whether the history's tables are known to exist (they are never dropped), so a save
    /// records without asking.
    let historyTablesExist = Atomic<Bool>(false)
    /// Who listens to an in-memory store's commits (``watchCommits(_:)``).
    let commitListeners = CommitListeners()
    private let connection: Connection
    private let statementCounter: StatementCounter

    /// How many queries the store's connections have run, when ``countsQueries`` was on as the
    /// store opened: what shows that a fetch with prefetching runs one query per relationship,
    /// not one per model. Off by default, since tracing every statement is costly.
    var executedQueryCount: Int { statementCounter.value }

    /// Whether stores opened from now on count their queries.
    static let countsQueries = Atomic<Bool>(false)

    /// How long a save waits for another connection (another container on the same file, or
    /// another process) to finish writing before it fails, in seconds. Saves through one
    /// container never wait on this: its writes take turns on one connection.
    static let busyTimeout: TimeInterval = 10

    /// Opens the store at `location`, creating it when there is nothing there yet. `metadata`,
    /// when given, is the file's metadata as the caller has just read (and perhaps migrated) it,
    /// so that the file is not read again.
    ///
    /// Throws, leaving any file as it was, when the file is not an SQLite database, is an SQLite
    /// database that is not one of our stores, was written with another schema, or cannot be
    /// created or opened.
    ///
    /// - Parameter openingWait: how long opening waits for another process holding the store's
    ///   lock (migrating it, most likely), reporting the wait about once a second; the busy
    ///   timeout when `nil`. Saves wait the busy timeout either way.
    init(
        location: Location, schema: Schema, allowsSave: Bool, metadata: StoreMetadata? = nil,
        openingWait: OpeningWait? = nil
    ) throws {
        self.location = location
        self.schema = schema
        self.isReadOnly = !allowsSave
        let readOnly = !allowsSave && location != .inMemory
        let tables = TableLayout.layouts(of: schema)
        self.tables = tables

        let statementCounter = StatementCounter()
        self.statementCounter = statementCounter
        let busyWait = BusyWait()
        let configuration = Self.configuration(counting: statementCounter, busyWait: busyWait)
        do {
            switch location {
            case .inMemory:
                let database = try DatabaseQueue(configuration: configuration)
                connection = .memory(database)
                identifier = try Self.create(in: database, schema: schema, tables: tables)
            case .file(let url):
                let existing = try metadata ?? Self.inspectFile(at: url, readOnly: readOnly, expected: schema)
                if let existing {
                    try Self.check(existing, against: schema, location: location)
                } else if readOnly {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "\(url.path) is empty and the configuration is read-only (allowsSave: false), so no store can be created there")
                }
                if readOnly {
                    connection = try Self.openReadOnly(url, configuration: configuration)
                    identifier = existing!.storeIdentifier
                } else {
                    // A new store is written anyway; an empty log beside a file SQLite has not made
                    // a database yet is one another process creating it at the same time would
                    // find in an unknown state.
                    let placedLog = existing != nil && EmptyWriteAheadLog.place(beside: url)
                    let pool: DatabasePool
                    do {
                        pool = try busyWait.opening(openingWait) { try DatabasePool(path: url.path, configuration: configuration) }
                    } catch {
                        if placedLog { EmptyWriteAheadLog.remove(beside: url, after: error) }
                        throw Self.openError(url, error)
                    }
                    connection = .pool(pool)
                    identifier = try existing?.storeIdentifier ?? busyWait.opening(openingWait) {
                        try Self.create(in: pool, schema: schema, tables: tables, location: location)
                    }
                }
                // The file as this store now knows it: another process may migrate it later.
                try busyWait.retryingTransientFailures {
                    try read { db in
                        let schemaVersion = try Self.schemaVersion(db)
                        try checkStructure(db, url: url)
                        knownSchemaVersion.store(schemaVersion, ordering: .relaxed)
                    }
                }
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(Self.describe(location)) could not be opened: \(error)")
        }
    }

    /// The connections' configuration: the busy timeout, the SQL functions, and the query count.
    private static func configuration(counting statementCounter: StatementCounter, busyWait: BusyWait) -> Configuration {
        var configuration = defensive()
        configuration.busyMode = .callback { busyWait.shouldRetry(afterTries: $0) }
        configuration.prepareDatabase { db in
            SQLiteFunctions.install(in: db)
            if Self.countsQueries.load(ordering: .relaxed) {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") {
                        statementCounter.increment()
                    }
                }
            }
        }
        return configuration
    }

    private init(url: URL, schema: Schema, pool: DatabasePool, identifier: String, statementCounter: StatementCounter) {
        location = .file(url)
        self.schema = schema
        isReadOnly = false
        tables = TableLayout.layouts(of: schema)
        self.statementCounter = statementCounter
        connection = .pool(pool)
        self.identifier = identifier
    }

    /// Opens an existing store file that saves with its pool, and reads its metadata through
    /// the pool: an up-to-date store then opens with no other connection. The caller checks the
    /// metadata against its models, and lets go of the store to migrate it first.
    ///
    /// Returns `nil` for a file that is not in WAL mode (every store is), empty or missing:
    /// opening a pool would change such a file, so it is inspected first through a connection
    /// that cannot write (`init(location:schema:allowsSave:metadata:)`).
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is not one of our
    ///   stores or cannot be opened; the files are then as they were.
    static func openExisting(
        at url: URL, schema: Schema, openingWait: OpeningWait? = nil
    ) throws -> (store: SQLiteStore, metadata: StoreMetadata)? {
        guard isInWALMode(url) else { return nil }
        let statementCounter = StatementCounter()
        let busyWait = BusyWait()
        let placedLog = EmptyWriteAheadLog.place(beside: url)
        let pool: DatabasePool
        do {
            // A pool whose write-ahead log is empty writes as it opens (GRDB makes sure the log
            // is not empty), which waits for another process's migration.
            pool = try busyWait.opening(openingWait) {
                try DatabasePool(path: url.path, configuration: configuration(counting: statementCounter, busyWait: busyWait))
            }
        } catch {
            if placedLog { EmptyWriteAheadLog.remove(beside: url, after: error) }
            throw openError(url, error)
        }
        let metadata: StoreMetadata?
        let schemaVersion: Int
        do {
            (metadata, schemaVersion) = try busyWait.retryingTransientFailures {
                try pool.read { db in
                    (try readMetadata(db, location: .file(url), expected: schema), try Self.schemaVersion(db))
                }
            }
        } catch {
            // Let go of, not closed: `DatabasePool.close()` closes the writer first, and a
            // read-only reader closing last would leave the write-ahead log behind.
            throw (error as? SwiftDataError) ?? openError(url, error)
        }
        guard let metadata else { return nil }
        let store = SQLiteStore(url: url, schema: schema, pool: pool, identifier: metadata.storeIdentifier, statementCounter: statementCounter)
        store.knownSchemaVersion.store(schemaVersion, ordering: .relaxed)
        return (store, metadata)
    }

    /// Whether the file at `url` is an SQLite database in WAL mode (its header's read and
    /// write versions are 2).
    private static func isInWALMode(_ url: URL) -> Bool {
        guard let header = fileHeader(url), header.count == 20, header.starts(with: sqliteHeader) else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// Opens a store that is not to be written: readers that SQLite opens read-only, and one
    /// connection that SQLite would let write but that `query_only` keeps from writing, so that
    /// as the last connection to close it can delete the write-ahead log that reading made.
    private static func openReadOnly(_ url: URL, configuration: Configuration) throws -> Connection {
        var readerConfiguration = configuration
        readerConfiguration.readonly = true
        do {
            let lastToClose = try DatabaseQueue(path: url.path, configuration: queryOnly(configuration))
            return .readOnly(readers: try DatabasePool(path: url.path, configuration: readerConfiguration), lastToClose: lastToClose)
        } catch {
            throw openError(url, error)
        }
    }

    /// A read-only store lets go of its readers before the connection that can delete the
    /// write-ahead log.
    deinit {
        if case .readOnly(let readers, let lastToClose) = connection {
            try? readers.close()
            try? lastToClose.close()
        }
    }

    /// Opens the store over a connection that is migrating it, inside the migration's
    /// transaction: what a migration stage's contexts read and save through. Saves become
    /// savepoints of that transaction.
    /// - Parameter storedNames: tables to read under another name than their entity's.
    init(migrating db: Database, schema: Schema, identifier: String, location: Location, storedNames: [String: String] = [:]) {
        self.location = location
        self.schema = schema
        self.identifier = identifier
        isReadOnly = false
        statementCounter = StatementCounter()
        connection = .migration(UncheckedSendable(db))
        tables = TableLayout.layouts(of: schema, storedNames: storedNames)
    }

    /// How long opening a store waits for another process that holds its lock, and what it
    /// calls about once a second meanwhile.
    struct OpeningWait {
        let seconds: TimeInterval
        let report: (@Sendable (TimeInterval) -> Void)?
    }

    /// Whether the store is a migration's, over its transaction.
    var isMigrating: Bool {
        if case .migration = connection { return true }
        return false
    }

    /// The store's database: its own connections, or a migration's connection.
    private enum Connection: Sendable {
        /// An in-memory database, read and written through one connection.
        case memory(DatabaseQueue)
        /// A file: a WAL-mode pool, opened beside an ``EmptyWriteAheadLog`` so that opening it
        /// writes nothing.
        case pool(DatabasePool)
        /// A file that is not to be written (``openReadOnly(_:configuration:)``).
        case readOnly(readers: DatabasePool, lastToClose: DatabaseQueue)
        case migration(UncheckedSendable<Database>)
    }

    /// Runs `body` in one read transaction. On a file, the transaction first checks that no
    /// other process migrated the store since it was opened (``checkNotMigratedElsewhere(_:)``).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        switch connection {
        case .memory(let database): try database.read(body)
        case .pool(let pool): try pool.read { db in try checkNotMigratedElsewhere(db); return try body(db) }
        case .readOnly(let readers, _): try readers.read { db in try checkNotMigratedElsewhere(db); return try body(db) }
        case .migration(let db): try body(db.value)
        }
    }

    /// The file's schema cookie, which SQLite bumps with every change to a table or index.
    private static func schemaVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0
    }

    /// Throws when another process has migrated the file since the store was opened: its
    /// tables may then have other columns than the ones every statement of the store names,
    /// and a read would decode rows with the wrong columns, a save write the old shape. Called
    /// in every read and write transaction on a file, where it costs one pragma while the
    /// schema cookie is the one known; when the cookie changed, the recorded schema decides.
    private func checkNotMigratedElsewhere(_ db: Database) throws {
        let known = knownSchemaVersion.load(ordering: .relaxed)
        guard known >= 0, case .file(let url) = location else { return }
        let schemaVersion = try Self.schemaVersion(db)
        guard schemaVersion != known else { return }
        try checkStructure(db, url: url)
        knownSchemaVersion.store(schemaVersion, ordering: .relaxed)
    }

    /// Throws when the file's recorded schema is no longer the store's, or the file holds schema
    /// objects OpenSwiftData did not make (a trigger added while the store was open).
    private func checkStructure(_ db: Database, url: URL) throws {
        guard let metadata = try Self.readMetadata(db, location: location, expected: schema) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store \(url.path) no longer has its metadata: another process replaced or emptied the file since this container opened it; nothing was read or written. Open a new ModelContainer")
        }
        guard metadata.fingerprint != schema.fingerprint else { return }
        let difference = (try? metadata.schema()).map { SchemaComparison(from: schema.entities, to: $0.entities).description } ?? "its recorded schema differs"
        throw SwiftDataError.loadIssueModelContainer.explaining(
            "the store \(url.path) was migrated to version \(metadata.versionIdentifier) by another process since this container opened it at version \(schema.version) (\(difference)); nothing was read or written. Open a new ModelContainer, with the models (and plan) of version \(metadata.versionIdentifier)")
    }

    /// The connection saves go through; `nil` for a read-only store.
    var writer: (any DatabaseWriter)? {
        guard !isReadOnly else { return nil }
        switch connection {
        case .memory(let database): return database
        case .pool(let pool): return pool
        case .readOnly, .migration: return nil
        }
    }

    /// Runs `body` in one write transaction, committed when it returns and rolled back when it
    /// throws.
    ///
    /// The transaction's `BEGIN` and `COMMIT` come from the connection's statement cache:
    /// GRDB's `write` prepares both anew for every transaction, which cost as much as the
    /// insert itself in a save of one model (a main context autosaving after each change).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        switch connection {
        case .memory, .pool, .readOnly:
            guard let writer else {
                throw SwiftDataError.modelValidationFailure.explaining(
                    "\(Self.describe(location)) is read-only (its configuration has allowsSave: false); nothing was written")
            }
            let result = try writer.writeWithoutTransaction { db in
                // Immediate, as GRDB's own: the write lock is taken at once, so a writer in
                // another process makes this one wait its busy timeout instead of failing
                // when a deferred transaction would upgrade.
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    try checkNotMigratedElsewhere(db)
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    // SQLite rolls some failures back by itself (a busy or full database).
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                    throw error
                }
            }
            // Announced once the connection is free again: a listener may read the store.
            signalCommit()
            return result
        case .migration(let db):
            var result: T?
            try db.value.inSavepoint {
                result = try body(db.value)
                return .commit
            }
            return result!
        }
    }
}
