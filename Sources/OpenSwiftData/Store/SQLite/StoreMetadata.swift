import Foundation
import GRDB
import GRDBSQLite

/// What a store records about itself, in its `_osd_metadata` table: who it is, which schema
/// its tables follow, and which version of the store format it uses.
///
/// The recorded schema is the truth about what is on disk: it lets a store be recognised,
/// migrated and inspected without the app's code.
struct StoreMetadata {
    static let tableName = "_osd_metadata"
    /// The format this build writes; a store with a higher number is refused. Format 2 stores
    /// decimals as ``OrderedDecimalText``; format 1 stored their `description`, and is brought
    /// to format 2 by ``DecimalTextUpgrade``.
    static let currentFormatVersion = 2

    var storeIdentifier: String
    var formatVersion: Int
    /// The canonical JSON of the schema the tables follow.
    var schemaJSON: String
    /// The schema's structural fingerprint (``Schema/fingerprint``).
    var fingerprint: String
    /// The version identifier of the schema, when it was declared.
    var versionIdentifier: String
    /// Whether the store was written through a `VersionedSchema` or a migration plan: the
    /// app's plan then decides its migrations, and a container without one opens it only at
    /// its own structure. Stores written before this was recorded count as versioned when they
    /// record a version other than 1.0.0.
    var isVersioned: Bool

    init(storeIdentifier: String = UUID().uuidString, schema: Schema) throws {
        self.storeIdentifier = storeIdentifier
        formatVersion = Self.currentFormatVersion
        schemaJSON = String(decoding: try schema.canonicalJSON(), as: UTF8.self)
        fingerprint = schema.fingerprint
        versionIdentifier = schema.version.description
        isVersioned = schema.isVersioned
    }

    /// The schema the tables follow, decoded from the snapshot.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` saying what is wrong with a snapshot
    ///   that is not a schema's JSON (too deeply nested, not JSON, a field missing or of another
    ///   type).
    func schema(of store: String = "the store") throws -> Schema {
        do {
            return try JSONDecoder().decode(Schema.self, from: Data(schemaJSON.utf8))
        } catch let error as DecodingError {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the schema \(store) records cannot be read (\(Self.describe(error))); the file was not written by this version of OpenSwiftData, or was changed since, and was left untouched")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : " at \(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))"
        }
        switch error {
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        case .keyNotFound(let key, let context): return "\(key.stringValue) is missing\(path(context))"
        case .typeMismatch(let type, let context): return "a value is not a \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "a \(type) is null\(path(context))"
        @unknown default: return "\(error)"
        }
    }

    static func exists(in db: Database) throws -> Bool {
        try db.tableExists(tableName)
    }

    static func createTable(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE \(tableName.quotedDatabaseIdentifier) (
                "key" TEXT PRIMARY KEY NOT NULL,
                "value" TEXT NOT NULL)
            """)
    }

    /// The largest value the metadata table may hold, in bytes: a recorded schema of thousands
    /// of entities is a few megabytes.
    static let maximumValueBytes: Int32 = 64 << 20
    /// The most rows the metadata table may hold; a store writes at most six.
    static let maximumRows = 64

    /// The metadata the store records; `nil` when it is incomplete. `expectedFingerprint`, the
    /// fingerprint of the models the store is opened with, spares decoding the recorded schema
    /// when the recorded fingerprint is that one already.
    ///
    /// The table is read from a file that may come from anywhere, so what it holds is bounded
    /// before it is loaded: a value larger than ``maximumValueBytes`` is refused by SQLite as it
    /// is read (the connection's length limit is lowered meanwhile), a table of more than
    /// ``maximumRows`` rows or with values that are not text is refused.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what is wrong with the table.
    static func read(from db: Database, expectedFingerprint: String? = nil, store: String = "the store") throws -> StoreMetadata? {
        let table = tableName.quotedDatabaseIdentifier
        let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
        guard rows <= maximumRows else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the \(tableName) table of \(store) has \(rows) rows, where a store writes at most six; the file was not written by OpenSwiftData, and was left untouched")
        }
        let connection = db.sqliteConnection
        let previousLimit = sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, maximumValueBytes)
        defer { sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, previousLimit) }
        var values: [String: String] = [:]
        do {
            for row in try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(table)") {
                guard case .string(let key) = (row[0] as DatabaseValue).storage, case .string(let value) = (row[1] as DatabaseValue).storage else {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "the \(tableName) table of \(store) holds a key or value that is not text, which OpenSwiftData never writes; the file was left untouched")
                }
                values[key] = value
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_TOOBIG {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the \(tableName) table of \(store) holds a value of more than \(maximumValueBytes >> 20) MB, far more than any recorded schema; it was not read, and the file was left untouched")
        }
        guard let storeIdentifier = values["storeIdentifier"],
              let formatVersion = values["formatVersion"].flatMap(Int.init),
              let schemaJSON = values["schema"],
              let fingerprint = values["fingerprint"]
        else { return nil }
        var metadata = StoreMetadata(
            storeIdentifier: storeIdentifier, formatVersion: formatVersion, schemaJSON: schemaJSON,
            fingerprint: fingerprint, versionIdentifier: values["versionIdentifier"] ?? "",
            isVersioned: values["versioned"] == "true" || (values["versionIdentifier"] ?? "1.0.0") != "1.0.0")
        // Recomputed from the snapshot, so a fingerprint that learns to tell more structures
        // apart still recognises stores written before. A recorded fingerprint equal to the
        // models' own names their structure whichever way it was computed.
        if fingerprint != expectedFingerprint, let schema = try? metadata.schema() { metadata.fingerprint = schema.fingerprint }
        return metadata
    }

    func write(to db: Database) throws {
        let pairs = [
            ("storeIdentifier", storeIdentifier),
            ("formatVersion", String(formatVersion)),
            ("schema", schemaJSON),
            ("fingerprint", fingerprint),
            ("versionIdentifier", versionIdentifier),
        ] + (isVersioned ? [("versioned", "true")] : [])
        for (key, value) in pairs {
            try db.execute(
                sql: "INSERT INTO \(Self.tableName.quotedDatabaseIdentifier) (\"key\", \"value\") VALUES (?, ?) ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
                arguments: [key, value])
        }
    }

    init(
        storeIdentifier: String, formatVersion: Int, schemaJSON: String, fingerprint: String, versionIdentifier: String,
        isVersioned: Bool
    ) {
        self.storeIdentifier = storeIdentifier
        self.formatVersion = formatVersion
        self.schemaJSON = schemaJSON
        self.fingerprint = fingerprint
        self.versionIdentifier = versionIdentifier
        self.isVersioned = isVersioned
    }
}
