import Foundation
import GRDB
import Synchronization

/// One SQLite database holding a schema's entities: a file in WAL mode, or memory.
///
/// The store is the only place that runs SQL. Contexts ask it for rows and hand it the changes
/// to save; every save is one transaction. Several stores (in several containers, or several
/// processes) may open the same file: each sees what the others saved, and readers never wait
/// for a writer.
final class SQLiteStore: Sendable {
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

    /// Opens the store at `location`, creating it when there is nothing there yet.
    ///
    /// Throws, leaving any file as it was, when the file is not an SQLite database, is an SQLite
    /// database that is not one of our stores, was written with another schema, or cannot be
    /// created or opened.
    init(location: Location, schema: Schema, allowsSave: Bool) throws {
        self.location = location
        self.schema = schema
        self.isReadOnly = !allowsSave
        let readOnly = !allowsSave && location != .inMemory
        let tables = Self.tables(of: schema)
        self.tables = tables

        let statementCounter = StatementCounter()
        self.statementCounter = statementCounter
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            QueryFunctions.install(in: db)
            if Self.countsQueries.load(ordering: .relaxed) {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") {
                        statementCounter.increment()
                    }
                }
            }
        }
        do {
            switch location {
            case .inMemory:
                let database = try DatabaseQueue(configuration: configuration)
                connection = .memory(database)
                identifier = try Self.create(in: database, schema: schema, tables: tables)
            case .file(let url):
                let existing = try Self.inspectFile(at: url, readOnly: readOnly)
                if let existing {
                    try Self.check(existing, against: schema, location: location)
                } else if readOnly {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "\(url.path) is empty and the configuration is read-only (allowsSave: false), so no store can be created there")
                }
                // A read-only store has a writer too, which SQLite keeps from writing: being able
                // to write is what lets the last connection to close delete the write-ahead log.
                let writer: DatabaseQueue
                var writerConfiguration = configuration
                writerConfiguration.readonly = false
                writerConfiguration.prepareDatabase { db in
                    try db.execute(sql: readOnly ? "PRAGMA query_only = ON" : "PRAGMA synchronous = NORMAL")
                }
                do {
                    writer = try DatabaseQueue(path: url.path, configuration: writerConfiguration)
                    if !readOnly { try Self.useWriteAheadLog(writer) }
                } catch {
                    throw Self.openError(url, error)
                }
                if let existing {
                    identifier = existing.storeIdentifier
                } else {
                    identifier = try Self.create(in: writer, schema: schema, tables: tables)
                }
                var readerConfiguration = configuration
                readerConfiguration.readonly = true
                do {
                    connection = .file(readers: try DatabasePool(path: url.path, configuration: readerConfiguration), writer: writer)
                } catch {
                    throw Self.openError(url, error)
                }
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(Self.describe(location)) could not be opened: \(error)")
        }
    }

    /// Lets go of the readers before the writer: the last connection to close checkpoints the
    /// write-ahead log into the file and deletes it, which only a connection that may write can.
    deinit {
        if case .file(let readers, let writer) = connection {
            try? readers.close()
            try? writer.close()
        }
    }

    /// Puts the file in write-ahead-log mode, so that readers never wait for a writer. A store
    /// already in that mode (every store this build creates) is only read: GRDB's own set-up of
    /// the mode (`DatabasePool`'s writer) writes a table and drops it on every open, which would
    /// change the file each time the app launches.
    private static func useWriteAheadLog(_ writer: DatabaseQueue) throws {
        try writer.writeWithoutTransaction { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
    }

    // MARK: Opening

    /// Refuses, before SQLite touches it, a file that is not an SQLite database, and makes the
    /// folder of a new store.
    private static func checkFile(at url: URL, readOnly: Bool) throws {
        let fileManager = FileManager.default
        let path = url.path
        if fileManager.fileExists(atPath: path) {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the store file \(path) cannot be read; check its permissions")
            }
            defer { try? handle.close() }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            if !header.isEmpty, header != Data("SQLite format 3\0".utf8) {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(path) is not an SQLite database, so it is not a store; it was left untouched. Point the ModelConfiguration at another URL, or move the file away")
            }
        } else if readOnly {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "there is no store at \(path) to open read-only (allowsSave: false); create it with a configuration that allows saving first")
        } else {
            let folder = url.deletingLastPathComponent()
            do {
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the folder \(folder.path) for the store cannot be created: \(error.localizedDescription); choose a writable location with ModelConfiguration(url:)")
            }
        }
    }

    private static func openError(_ url: URL, _ error: any Error) -> SwiftDataError {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB:
                return .loadIssueModelContainer.explaining(
                    "\(url.path) is not an SQLite database, so it is not a store; it was left untouched")
            case .SQLITE_CORRUPT:
                return .loadIssueModelContainer.explaining(
                    "the store \(url.path) is corrupt (\(error.message ?? "")); it was left untouched. Restore it from a backup")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
                return .loadIssueModelContainer.explaining(
                    "the store \(url.path) cannot be opened (\(error.message ?? "")); check that its folder is writable, or choose another location with ModelConfiguration(url:)")
            default: break
            }
        }
        return .loadIssueModelContainer.explaining("the store \(url.path) cannot be opened: \(error)")
    }

    /// Reads an existing store's metadata through a read-only connection, so that a file which
    /// turns out not to be a store, or to be another schema's store, is never written to.
    /// Returns `nil` when there is no store there yet.
    static func inspectFile(at url: URL, readOnly: Bool) throws -> StoreMetadata? {
        try checkFile(at: url, readOnly: readOnly)
        guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > 0 else {
            return nil
        }
        // A connection that SQLite would let write (but keeps from writing): as the last
        // connection to close, it deletes the write-ahead log that reading made, where a
        // read-only one would leave it beside the store.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        let reader: DatabaseQueue
        do {
            reader = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw openError(url, error)
        }
        do {
            return try reader.read { db in try readMetadata(db, location: .file(url)) }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw openError(url, error)
        }
    }

    /// The store's metadata; `nil` for an empty database; an error for a database that is not
    /// one of our stores.
    private static func readMetadata(_ db: Database, location: Location) throws -> StoreMetadata? {
        if try StoreMetadata.exists(in: db) {
            guard let metadata = try StoreMetadata.read(from: db) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(describe(location)) has an incomplete \(StoreMetadata.tableName) table; it was left untouched")
            }
            // Checked here, before anything (a migration included) can rewrite the metadata.
            if metadata.formatVersion > StoreMetadata.currentFormatVersion {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(describe(location)) was written by a newer OpenSwiftData (store format \(metadata.formatVersion), this build reads up to \(StoreMetadata.currentFormatVersion)); it was left untouched. Update the app")
            }
            return metadata
        }
        let otherTables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if !otherTables.isEmpty {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(describe(location)) is an SQLite database but not an OpenSwiftData store (it has the tables \(otherTables.joined(separator: ", ")) and no \(StoreMetadata.tableName)); it was left untouched. Point the ModelConfiguration at another URL")
        }
        return nil
    }

    /// Creates a new store's metadata and tables in one transaction; returns its identifier.
    private static func create(in database: any DatabaseWriter, schema: Schema, tables: [String: TableLayout]) throws -> String {
        let metadata = try StoreMetadata(schema: schema)
        try database.write { db in
            try StoreMetadata.createTable(in: db)
            try metadata.write(to: db)
            for table in tables.values.sorted(by: { $0.entity.name < $1.entity.name }) {
                for sql in table.creationSQL { try db.execute(sql: sql) }
            }
        }
        return metadata.storeIdentifier
    }

    private static func check(_ metadata: StoreMetadata, against schema: Schema, location: Location) throws {
        guard metadata.fingerprint == schema.fingerprint else {
            let stored = (try? metadata.schema()).map(\.entities) ?? []
            let difference = SchemaDifference(from: stored, to: schema.entities)
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(describe(location)) was written with a different schema (version \(metadata.versionIdentifier)) than the models it is opened with (version \(schema.version)): \(difference). Opening it needs a migration")
        }
    }

    static func describe(_ location: Location) -> String {
        switch location {
        case .file(let url): "the store \(url.path)"
        case .inMemory: "the in-memory store"
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
        tables = Self.tables(of: schema, storedNames: storedNames)
    }

    /// The layout of each entity's table, by entity name.
    private static func tables(of schema: Schema, storedNames: [String: String] = [:]) -> [String: TableLayout] {
        var tables: [String: TableLayout] = [:]
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name] else { continue }
            tables[entity.name] = TableLayout(entity: entity, layout: layout, schema: schema, storedName: storedNames[entity.name])
        }
        return tables
    }

    /// The store's database: its own connections, or a migration's connection.
    private enum Connection: Sendable {
        /// An in-memory database, read and written through one connection.
        case memory(DatabaseQueue)
        /// A file, read through read-only connections, so that opening it writes nothing, and
        /// written through one connection of its own.
        case file(readers: DatabasePool, writer: DatabaseQueue)
        case migration(UncheckedSendable<Database>)
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        switch connection {
        case .memory(let database): try database.read(body)
        case .file(let readers, _): try readers.read(body)
        case .migration(let db): try body(db.value)
        }
    }

    /// The connection saves go through; `nil` for a read-only store.
    private var writer: (any DatabaseWriter)? {
        guard !isReadOnly else { return nil }
        switch connection {
        case .memory(let database): return database
        case .file(_, let writer): return writer
        case .migration: return nil
        }
    }

    /// Runs `body` in one write transaction, committed when it returns and rolled back when it
    /// throws.
    ///
    /// The transaction's `BEGIN` and `COMMIT` come from the connection's statement cache:
    /// GRDB's `write` prepares both anew for every transaction, which cost as much as the
    /// insert itself in a save of one model (a main context autosaving after each change).
    private func write<T>(_ body: (Database) throws -> T) throws -> T {
        switch connection {
        case .memory, .file:
            guard let writer else {
                throw SwiftDataError.modelValidationFailure.explaining(
                    "\(Self.describe(location)) is read-only (its configuration has allowsSave: false); nothing was written")
            }
            return try writer.writeWithoutTransaction { db in
                // Immediate, as GRDB's own: the write lock is taken at once, so a writer in
                // another process makes this one wait its busy timeout instead of failing
                // when a deferred transaction would upgrade.
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    // SQLite rolls some failures back by itself (a busy or full database).
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                    throw error
                }
            }
        case .migration(let db):
            var result: T?
            try db.value.inSavepoint {
                result = try body(db.value)
                return .commit
            }
            return result!
        }
    }

    // MARK: Reading

    /// Calls `body` with each row of an entity, in order: its primary key and its model values.
    func forEachRow(
        _ table: TableLayout, where condition: SQLFragment?, orderBy: String?, limit: Int?, offset: Int?,
        _ body: (Int64, ModelValues) throws -> Void
    ) throws {
        try forEachSelectedRow(table, where: condition, orderBy: orderBy, limit: limit, offset: offset) { rowID, row in
            try body(rowID, try modelValues(table, row, rowID: rowID))
        }
    }

    /// Calls `body` with each row of an entity, in order, as SQLite has it: its primary key and
    /// the statement on the row, whose columns are `columns` (by default the table's
    /// `selectList`), the key first.
    private func forEachSelectedRow(
        _ table: TableLayout, columns: String? = nil, where condition: SQLFragment?, orderBy: String?, limit: Int?,
        offset: Int?, reusable: Bool = false, _ body: (Int64, RawStatement) throws -> Void
    ) throws {
        let (sql, arguments) = selectSQL(
            table, columns: columns ?? table.selectList, where: condition, orderBy: orderBy, limit: limit, offset: offset)
        try read { db in
            try RawStatement(sql: sql, in: db, reusable: reusable).forEachRow(arguments) { row in
                try body(row.int64(at: 0) ?? 0, row)
            }
        }
    }

    /// Calls `body` with each row of an entity that has one of the keys, in key order; keys
    /// with no row are skipped.
    func forEachRow(_ table: TableLayout, rowIDs: [Int64], _ body: (Int64, ModelValues) throws -> Void) throws {
        let placeholders = TableLayout.placeholders(rowIDs.count)
        let condition = SQLFragment(
            sql: "\(table.qualifiedKeyColumn) IN (\(placeholders))",
            arguments: rowIDs.map(\.databaseValue))
        try forEachRow(table, where: condition, orderBy: nil, limit: nil, offset: nil, body)
    }

    /// Calls `body` with each row of an entity whose key is in `range`, in key order: a walk
    /// through a table in slices needs no list of keys, and one prepared statement, kept on
    /// the connection, serves every slice.
    func forEachRow(_ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, _ body: (Int64, ModelValues) throws -> Void) throws {
        try forEachSelectedRow(
            table, where: Self.keys(of: table, in: range), orderBy: nil, limit: nil, offset: nil, reusable: true
        ) { rowID, row in
            try body(rowID, try modelValues(table, row, rowID: rowID))
        }
    }

    /// ``forEachRow(_:rowIDsIn:_:)`` that also reads each row as `other` does (a decoder
    /// ``TableLayout/rowDecoder(readingRowsOf:)`` made for this table), handing `body` both
    /// values: a transform's old and new model of one row, from one read.
    func forEachRow(
        _ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, alsoReadAs other: RowDecoder,
        _ body: (_ rowID: Int64, _ values: ModelValues, _ otherValues: ModelValues) throws -> Void
    ) throws {
        try forEachSelectedRow(
            table, where: Self.keys(of: table, in: range), orderBy: nil, limit: nil, offset: nil, reusable: true
        ) { rowID, row in
            let values = try modelValues(table, row, rowID: rowID)
            try body(rowID, values, try other.values(of: row, sharing: values))
        }
    }

    /// The condition that the key of a row of `table` is in `range`.
    private static func keys(of table: TableLayout, in range: ClosedRange<Int64>) -> SQLFragment {
        SQLFragment(
            sql: "\(table.qualifiedKeyColumn) BETWEEN ? AND ?",
            arguments: [range.lowerBound.databaseValue, range.upperBound.databaseValue])
    }

    /// A fetched row's model values, with `.externalStorage` attributes left to load on access.
    private func modelValues(_ table: TableLayout, _ row: RawStatement, rowID: Int64) throws -> ModelValues {
        var values = try table.rowDecoder.values(of: row)
        for column in table.externalColumns {
            values[column.propertyIndex] = ExternalValueFault { [self] in
                try readExternalValue(table, column, rowID: rowID)
            }
        }
        return values
    }

    /// The value of an `.externalStorage` attribute of one row.
    func readExternalValue(_ table: TableLayout, _ column: TableLayout.Column, rowID: Int64) throws -> Any? {
        let stored = try read { db in
            try DatabaseValue.fetchOne(db.cachedStatement(sql: table.readExternalValueSQL(column)), arguments: [rowID])
        }
        return try column.codec.decode(stored ?? .null)
    }

    /// The primary keys of an entity's matching rows.
    func fetchRowIDs(
        _ table: TableLayout, where condition: SQLFragment?, orderBy: String?, limit: Int?, offset: Int?
    ) throws -> [Int64] {
        // Read through the C API: GRDB's cursor cost twice SQLite's own step per key, and a
        // transform or `fetch(_:batchSize:)` over a large table reads a key for every row.
        var rowIDs: [Int64] = []
        try forEachSelectedRow(
            table, columns: TableLayout.primaryKeyColumn.quotedDatabaseIdentifier, where: condition, orderBy: orderBy,
            limit: limit, offset: offset
        ) { rowID, _ in rowIDs.append(rowID) }
        return rowIDs
    }

    /// The number of an entity's matching rows.
    func count(_ table: TableLayout, where condition: SQLFragment?) throws -> Int {
        let (sql, arguments) = selectSQL(table, columns: "COUNT(*)", where: condition, orderBy: nil, limit: nil, offset: nil, ordered: false)
        return try read { db in
            try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) ?? 0
        }
    }

    private func selectSQL(
        _ table: TableLayout, columns: String, where condition: SQLFragment?, orderBy: String?, limit: Int?, offset: Int?,
        ordered: Bool = true
    ) -> (String, [DatabaseValue]) {
        var sql = "SELECT \(columns) FROM \(table.tableName)"
        var arguments: [DatabaseValue] = []
        if let condition {
            sql += " WHERE \(condition.sql)"
            arguments += condition.arguments
        }
        if ordered {
            // Rows come in key order, and ties of a sort keep it, as a stable sort in memory would.
            let key = table.qualifiedKeyColumn
            sql += " ORDER BY " + (orderBy.map { "\($0), \(key)" } ?? key)
        }
        if limit != nil || offset != nil {
            sql += " LIMIT ? OFFSET ?"
            arguments += [(limit ?? -1).databaseValue, (offset ?? 0).databaseValue]
        }
        return (sql, arguments)
    }

    // MARK: Writing

    /// The changes of one save.
    struct Changes {
        var inserted: [ModelState] = []
        var updated: [ModelState] = []
        var deleted: [ModelState] = []
        /// Every row of the table the condition selects (all rows for `nil`), deleted by SQL
        /// without loading models, the way `kind` says.
        var batchDeletes: [(table: TableLayout, condition: SQLFragment?, kind: BatchDeleteKind)] = []
    }

    /// How the rows of a batch delete go.
    enum BatchDeleteKind {
        /// One `DELETE`, for a table no relationship involves. With `reportingKeys`, the keys of
        /// the deleted rows come back in ``Saved/deletedRowIDs``.
        case oneStatement(reportingKeys: Bool)
        /// With the delete rules of the relationships involved applied in SQL (``CascadingDelete``).
        case applyingDeleteRules
    }

    /// What a save wrote.
    struct Saved {
        /// The primary key of each inserted model, in order.
        var insertedRowIDs: [Int64] = []
        /// The keys of the rows batch deletes removed, by entity, for those that report them.
        var deletedRowIDs: [String: [Int64]] = [:]
    }

    /// Writes the changes in one transaction and returns the primary key of each inserted
    /// model, in order, and the keys of rows batch deletes removed. An inserted model whose
    /// unique values match a stored row updates that row and gets its key. Relationships are
    /// written after every new row has its key, so new models may refer to each other. Nothing
    /// is written when anything fails.
    func save(_ changes: Changes) throws -> Saved {
        guard !isReadOnly else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(Self.describe(location)) is read-only (its configuration has allowsSave: false); nothing was saved")
        }
        do {
            return try write { db in
                var writer = RowWriter(db: db, tables: tables)
                var saved = Saved()
                for batch in changes.batchDeletes {
                    switch batch.kind {
                    case .oneStatement(let reportingKeys):
                        let deleted = try writer.deleteRows(of: batch.table, where: batch.condition, reportingKeys: reportingKeys)
                        saved.deletedRowIDs[batch.table.entity.name, default: []] += deleted
                    case .applyingDeleteRules:
                        var cascade = CascadingDelete(db: db, tables: tables)
                        try cascade.run(from: batch.table, where: batch.condition)
                    }
                }
                // Deletes and updates go table by table in key order: the context hands them over
                // in hash order, and a million of them in that order would jump around the
                // table and its indices, through far more pages than SQLite's cache holds.
                try writer.delete(changes.deleted.sorted(by: Self.tableAndKeyOrder))
                // Updates before inserts: an insert that upserts over a changed stored row must
                // have the last word, since the inserted object is the one that stands for it.
                for state in changes.updated.sorted(by: Self.tableAndKeyOrder) { try writer.update(state) }
                saved.insertedRowIDs.reserveCapacity(changes.inserted.count)
                for state in changes.inserted {
                    saved.insertedRowIDs.append(try writer.insert(state))
                }
                for state in changes.inserted {
                    try writer.writeRelationships(of: state, onlyChanged: false)
                }
                for state in changes.updated {
                    try writer.writeRelationships(of: state, onlyChanged: true)
                }
                return saved
            }
        } catch let error as SwiftDataError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(Self.describe(location)) was locked by another connection's write for longer than the busy timeout (\(Int(Self.busyTimeout)) seconds), so the save was rolled back and nothing was written; save again, and keep other writers' transactions short (SQLite: \(error.message ?? "database is locked"))")
        } catch let error as DatabaseError {
            throw SwiftDataError.modelValidationFailure.explaining(
                "the save was rolled back, nothing was written: \(error.message ?? "\(error)") (SQL: \(error.sql ?? ""))")
        }
    }

    private static func tableAndKeyOrder(_ first: ModelState, _ second: ModelState) -> Bool {
        (ObjectIdentifier(first.layout), first.rowID ?? 0) < (ObjectIdentifier(second.layout), second.rowID ?? 0)
    }

    /// The rows of `destination` that a to-many relationship holds for each of the rows
    /// `owners`, as (owner, row) pairs, in one query.
    func fetchRelatedRows(
        _ relationship: StoredRelationship, ofRows owners: [Int64], in destination: TableLayout
    ) throws -> [(owner: Int64, row: (rowID: Int64, values: ModelValues))] {
        let placeholders = TableLayout.placeholders(owners.count)
        let arguments = owners.map(\.databaseValue)
        let ownerColumn: String
        var sql = "SELECT \(destination.selectList), "
        switch relationship.storage {
        case .foreignKey(let column), .inverseForeignKey(let column):
            ownerColumn = "\(destination.tableName).\(column.quotedDatabaseIdentifier)"
            sql += "\(ownerColumn) FROM \(destination.tableName) WHERE \(ownerColumn) IN (\(placeholders))"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let join = table.quotedDatabaseIdentifier
            ownerColumn = "\(join).\(ownColumn.quotedDatabaseIdentifier)"
            sql += "\(ownerColumn) FROM \(destination.tableName) JOIN \(join) ON \(join).\(otherColumn.quotedDatabaseIdentifier) = \(destination.qualifiedKeyColumn) WHERE \(ownerColumn) IN (\(placeholders))"
        }
        let ownerIndex = Int32(1 + destination.columns.count + destination.foreignKeys.count)
        return try read { db in
            var pairs: [(owner: Int64, row: (rowID: Int64, values: ModelValues))] = []
            try RawStatement(sql: sql, in: db).forEachRow(arguments) { row in
                let rowID = row.int64(at: 0) ?? 0
                pairs.append((row.int64(at: ownerIndex) ?? 0, (rowID, try modelValues(destination, row, rowID: rowID))))
            }
            return pairs
        }
    }

    /// Deletes every row of every entity, keeping the tables.
    func eraseAllRows() throws {
        try write { db in
            for table in tables.values {
                for relationship in table.relationships where relationship.createsJoinTable {
                    if case .joinTable(let joinTable, _, _) = relationship.storage {
                        try db.execute(sql: "DELETE FROM \(joinTable.quotedDatabaseIdentifier)")
                    }
                }
                for column in table.externalColumns {
                    try db.execute(sql: "DELETE FROM \(table.externalTableName(column))")
                }
                try db.execute(sql: "DELETE FROM \(table.tableName)")
            }
        }
    }
}
