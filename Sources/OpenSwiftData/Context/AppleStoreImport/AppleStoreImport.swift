import Foundation

/// Brings the data of a store Apple's SwiftData (or Core Data) wrote into a new OpenSwiftData
/// store, for the app's current models: every row, value and relationship, then checked
/// against the Apple store value by value. The Apple store and the files beside it are read
/// from a copy and left as they are.
///
/// Entities match by name; attributes and relationships by name or, for one renamed since,
/// `originalName`. What cannot be brought over (an entity or property the models do not
/// declare that holds values, a type the store keeps in a way not read here, a required
/// property the store has no value for) is refused before anything is written, each naming
/// entity and property, unless the caller accepts dropping it.
///
/// On an app's first launch after it moved to OpenSwiftData:
///
/// ```swift
/// let old = URL.applicationSupportDirectory.appending(path: "default.store")
/// let new = URL.applicationSupportDirectory.appending(path: "Trips.store")
/// if !FileManager.default.fileExists(atPath: new.path), AppleStoreInspection.isAppleStore(at: old) {
///     let report = try AppleStoreImport(storeAt: old, schema: Schema([Trip.self, Place.self]))
///         .importStore(to: new)
///     print(report)
/// }
/// let container = try ModelContainer(for: Trip.self, Place.self, configurations: ModelConfiguration(url: new))
/// ```
///
/// ``plan()`` says what an import would do without writing anything (a dry run).
public struct AppleStoreImport {
    /// The store Apple's SwiftData or Core Data wrote.
    public let appleStoreURL: URL
    /// The app's models, which the new store is written with; `nil` for the model the Apple
    /// store keeps (``init(storeAt:dropping:dropsEverythingUnmapped:)``).
    public let schema: Schema?
    /// The app's migration plan, when it has one: the new store is written at the plan's last
    /// version.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// What the caller accepts losing: `"Entity"` for an entity's rows, `"Entity.property"`
    /// for one property's values.
    public var dropping: Set<String>
    /// Whether everything the models do not declare may be dropped without naming it.
    public var dropsEverythingUnmapped: Bool

    /// - Parameters:
    ///   - url: The store Apple's SwiftData or Core Data wrote (`default.store`).
    ///   - schema: The app's current models.
    ///   - migrationPlan: The app's migration plan, when it has one.
    ///   - dropping: What may be left behind: `"Entity"` or `"Entity.property"`.
    ///   - dropsEverythingUnmapped: Whether everything the models do not declare may be left
    ///     behind.
    public init(
        storeAt url: URL, schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        dropping: Set<String> = [], dropsEverythingUnmapped: Bool = false
    ) {
        appleStoreURL = url
        self.schema = schema
        self.migrationPlan = migrationPlan
        self.dropping = dropping
        self.dropsEverythingUnmapped = dropsEverythingUnmapped
    }

    /// An import with the model the Apple store keeps (`Z_MODELCACHE`), for when the app's
    /// model classes are not at hand (`osd import`): each Core Data type becomes the Swift type
    /// SwiftData keeps that way (Integer 64 `Int`, Binary Data `Data`, …), and the new store
    /// records that schema, at the version the Apple store records. Attributes whose Swift type
    /// only the app knows (transformable and composite ones: `Codable` values) are refused
    /// unless dropping them is accepted; import with the app's models to keep them.
    public init(storeAt url: URL, dropping: Set<String> = [], dropsEverythingUnmapped: Bool = false) {
        appleStoreURL = url
        schema = nil
        migrationPlan = nil
        self.dropping = dropping
        self.dropsEverythingUnmapped = dropsEverythingUnmapped
    }

    /// What an import would do, read from a copy of the Apple store; nothing is written.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is not a store in Core
    ///   Data's layout or keeps no model.
    public func plan() throws -> Plan {
        try AppleStoreTables.read(appleStoreURL) { tables in
            guard let schema else { return try AppleStoreOwnModel(self, tables: tables).plan }
            return try AppleStoreImportMapping(self, schema: schema, tables: tables).plan
        }
    }

    /// Writes the Apple store's data into a new OpenSwiftData store at `url`, then reads it
    /// back and compares it with the Apple store: row counts, every value and every link.
    ///
    /// The new store appears at `url` only once it is complete and checked; when anything fails
    /// nothing is left there. The Apple store is never written to.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming what is refused (see
    ///   ``plan()``), a value that cannot be read (entity, property, row), a file already at
    ///   `url`, or a difference found in the check.
    @discardableResult
    public func importStore(to url: URL) throws -> Report {
        let started = ContinuousClock.now
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "there is already a file at \(url.path + suffix); the import writes a new store and never replaces one: move it away or choose another place")
        }
        // An app's Application Support folder may not exist yet on its first launch.
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).importing-\(UUID().uuidString)")
        defer { Self.removeStore(at: staging) }
        let report = try AppleStoreTables.read(appleStoreURL) { tables in
            guard let schema else {
                let ownModel = try AppleStoreOwnModel(self, tables: tables)
                try refuse(ownModel.plan)
                return try ownModel.write(to: staging, tables: tables, importing: self)
            }
            let mapping = try AppleStoreImportMapping(self, schema: schema, tables: tables)
            try refuse(mapping.plan)
            return try AppleStoreImportRun(mapping: mapping, tables: tables, importing: self).run(into: staging, plan: mapping.plan)
        }
        try Self.moveStore(from: staging, to: url)
        return report.finished(in: ContinuousClock.now - started)
    }

    /// Throws the plan's refusals, when it has any.
    private func refuse(_ plan: Plan) throws {
        guard !plan.refusals.isEmpty else { return }
        throw SwiftDataError.loadIssueModelContainer.explaining(
            "the store at \(appleStoreURL.path) cannot be imported without losing data; nothing was written:\n"
                + plan.refusals.map { "  \($0)" }.joined(separator: "\n"))
    }

    /// The files of a store: the database and its write-ahead log and index.
    private static let storeFileSuffixes = ["", "-wal", "-shm"]

    private static func removeStore(at url: URL) {
        for suffix in storeFileSuffixes { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// Moves a closed store's files to `url`, the database last: a store appears there whole.
    private static func moveStore(from staging: URL, to url: URL) throws {
        for suffix in storeFileSuffixes.reversed() where FileManager.default.fileExists(atPath: staging.path + suffix) {
            try FileManager.default.moveItem(atPath: staging.path + suffix, toPath: url.path + suffix)
        }
    }
}
