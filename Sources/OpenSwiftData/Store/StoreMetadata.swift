import Foundation
import GRDB

/// What a store records about itself, in its `_osd_metadata` table: who it is, which schema
/// its tables follow, and which version of the store format it uses.
///
/// The recorded schema is the truth about what is on disk: it lets a store be recognised,
/// migrated and inspected without the app's code.
struct StoreMetadata {
    static let tableName = "_osd_metadata"
    /// The format this build writes; a store with a higher number is refused.
    static let currentFormatVersion = 1

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
    func schema() throws -> Schema {
        try JSONDecoder().decode(Schema.self, from: Data(schemaJSON.utf8))
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

    /// The metadata the store records; `nil` when it is incomplete. `expectedFingerprint`, the
    /// fingerprint of the models the store is opened with, spares decoding the recorded schema
    /// when the recorded fingerprint is that one already.
    static func read(from db: Database, expectedFingerprint: String? = nil) throws -> StoreMetadata? {
        let pairs = try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(tableName.quotedDatabaseIdentifier)")
        var values: [String: String] = [:]
        for row in pairs { values[row[0]] = row[1] }
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

    private init(
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
