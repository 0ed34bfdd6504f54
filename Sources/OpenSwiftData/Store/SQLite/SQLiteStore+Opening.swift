import Foundation
import GRDB

// Opening a store file: refusing what is not one of our stores before SQLite writes to it,
// reading its metadata, and creating a new store's tables.
extension SQLiteStore {
    /// Refuses, before SQLite touches it, a file that is not an SQLite database, and makes the
    /// folder of a new store.
    static func checkFile(at url: URL, readOnly: Bool) throws {
        let fileManager = FileManager.default
        let path = url.path
        if fileManager.fileExists(atPath: path) {
            guard let header = fileHeader(url) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the store file \(path) cannot be read; check its permissions")
            }
            if !header.isEmpty, !header.starts(with: sqliteHeader) {
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

    static func openError(_ url: URL, _ error: any Error) -> SwiftDataError {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB:
                return .loadIssueModelContainer.explaining(
                    "\(url.path) is not an SQLite database, so it is not a store; it was left untouched")
            case .SQLITE_CORRUPT:
                return .loadIssueModelContainer.explaining(
                    "the store \(url.path) is corrupt (\(error.message ?? "")); it was left untouched. Restore it from a backup")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .loadIssueModelContainer.explaining(
                    "the store \(url.path) stayed locked by another connection (another process migrating it, or writing) for longer than opening waits (the configuration's migrationWaitTimeout); it was left untouched. Open it again once that process is done, or raise migrationWaitTimeout")
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
    static func inspectFile(at url: URL, readOnly: Bool, expected: Schema? = nil) throws -> StoreMetadata? {
        try checkFile(at: url, readOnly: readOnly)
        guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > 0 else {
            return nil
        }
        return try readWithoutWriting(url) { db in
            try readMetadata(db, location: .file(url), expected: expected)
        }
    }

    /// What an SQLite database file begins with.
    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// The first 20 bytes of the file at `url` (fewer for a shorter file); `nil` when it cannot
    /// be read. An SQLite database begins with ``sqliteHeader``, and its bytes 18 and 19 are 2 in
    /// WAL mode.
    static func fileHeader(_ url: URL) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 20)) ?? Data()
    }

    /// Whether the file at `url` begins as an SQLite database does.
    static func isSQLiteDatabase(_ url: URL) -> Bool {
        fileHeader(url)?.starts(with: sqliteHeader) == true
    }

    /// `configuration` for a connection that SQLite would let write but `query_only` keeps from
    /// writing: as the last connection to close, it deletes the write-ahead log that reading
    /// made, where a read-only one would leave it beside the store.
    static func queryOnly(_ configuration: Configuration = defensive()) -> Configuration {
        var configuration = configuration
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        // Another process creating the store holds a lock that reading waits for.
        if case .immediateError = configuration.busyMode { configuration.busyMode = .timeout(busyTimeout) }
        return configuration
    }

    /// Runs `body` in a read of the file at `url` through a ``queryOnly(_:)`` connection, closed
    /// afterwards; SQLite's errors become explanations naming the file.
    static func readWithoutWriting<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: queryOnly())
            defer { try? queue.close() }
            return try queue.read(body)
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw openError(url, error)
        }
    }

    /// The store's metadata; `nil` for an empty database; an error for a database that is not
    /// one of our stores, or a store holding schema objects OpenSwiftData did not make
    /// (``ForeignSchemaObjects``) unless `refusingForeignObjects` is `false`.
    ///
    /// - Parameter expected: the schema of the models the store is opened with, if any: when the
    ///   store records its structure, the recorded schema is not decoded.
    static func readMetadata(
        _ db: Database, location: Location, expected: Schema? = nil, refusingForeignObjects: Bool = true
    ) throws -> StoreMetadata? {
        if try StoreMetadata.exists(in: db) {
            guard let metadata = try StoreMetadata.read(from: db, expectedFingerprint: expected?.fingerprint, store: describe(location)) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(describe(location)) has an incomplete \(StoreMetadata.tableName) table; it was left untouched")
            }
            // Checked here, before anything (a migration included) can rewrite the metadata.
            if metadata.formatVersion > StoreMetadata.currentFormatVersion {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(describe(location)) was written by a newer OpenSwiftData (store format \(metadata.formatVersion), this build reads up to \(StoreMetadata.currentFormatVersion)); it was left untouched. Update the app")
            }
            if refusingForeignObjects {
                let recorded = if let expected, expected.fingerprint == metadata.fingerprint { expected } else {
                    try metadata.schema(of: describe(location))
                }
                let foreign = try ForeignSchemaObjects(in: db, schema: recorded)
                if !foreign.isEmpty { throw foreign.refusal(describe(location)) }
                if !foreign.missingTables.isEmpty { throw foreign.missingTablesRefusal(describe(location)) }
            }
            return metadata
        }
        let otherObjects = try Row.fetchAll(
            db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).map { "\($0[0] as String) \($0[1] as String)" }
        if !otherObjects.isEmpty {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(describe(location)) is an SQLite database but not an OpenSwiftData store (it has \(otherObjects.joined(separator: ", ")) and no \(StoreMetadata.tableName) table); it was left untouched. Point the ModelConfiguration at another URL")
        }
        return nil
    }

    /// Creates a new store's metadata and tables in one transaction; returns its identifier.
    /// When another process created the store since it was found empty, that store is the one
    /// opened, if it has the schema's structure.
    static func create(
        in database: any DatabaseWriter, schema: Schema, tables: [String: TableLayout], location: Location = .inMemory
    ) throws -> String {
        let metadata = try StoreMetadata(schema: schema)
        return try database.write { db in
            if let created = try readMetadata(db, location: location, expected: schema) {
                try check(created, against: schema, location: location)
                return created.storeIdentifier
            }
            try StoreMetadata.createTable(in: db)
            try metadata.write(to: db)
            for table in tables.values.sorted(by: TableLayout.creationOrder) {
                for sql in table.creationSQL { try db.execute(sql: sql) }
            }
            return metadata.storeIdentifier
        }
    }

    static func check(_ metadata: StoreMetadata, against schema: Schema, location: Location) throws {
        guard metadata.fingerprint == schema.fingerprint else {
            let stored = (try? metadata.schema()).map(\.entities) ?? []
            let difference = SchemaComparison(from: stored, to: schema.entities)
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(describe(location)) was written with a different schema (version \(metadata.versionIdentifier)) than the models it is opened with (version \(schema.version)): \(difference). Opening it needs a migration")
        }
        if DecimalTextUpgrade.isNeeded(metadata, recorded: schema.entities) {
            let columns = DecimalTextUpgrade.columns(of: schema.entities).map { "\($0.table).\($0.column)" }
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(describe(location)) holds Decimal values (\(columns.joined(separator: ", "))) as store format 1 wrote them, which SQL cannot compare; it was left untouched. Open it once with a configuration that allows saving, which rewrites them (a lightweight migration step), then read-only")
        }
    }

    static func describe(_ location: Location) -> String {
        switch location {
        case .file(let url): "the store \(url.path)"
        case .inMemory: "the in-memory store"
        }
    }
}
