import Foundation

/// Tests a migration plan the way its stores will meet it: stores written by each version's
/// models, migrated (on copies) to the newest version, with the values checked on the way.
///
/// ```swift
/// @Test func everyVersionMigratesToTheNewest() throws {
///     let tester = MigrationTester(for: FilmsMigrationPlan.self)
///     try tester.verifyEveryPath(sampleRowsPerEntity: 200)
///     try tester.verifyFixtures(in: fixturesFolder)   // stores copied from shipped builds
/// }
///
/// @Test func titlesSurviveTheSplit() throws {
///     let tester = MigrationTester(for: FilmsMigrationPlan.self)
///     let url = FileManager.default.temporaryDirectory.appending(path: "v1.store")
///     try tester.makeStore(at: FilmsSchemaV1.self, url: url) { context in
///         context.insert(FilmsSchemaV1.Film(title: "Up"))
///     }
///     let report = try tester.migrate(storeAt: url, to: FilmsSchemaV3.self)
///     #expect(report.succeeded)
/// }
/// ```
///
/// Stores it migrates are copies in a temporary folder of its own, removed with the tester:
/// the files you give it stay as they were.
public final class MigrationTester {
    /// The plan under test.
    public let plan: any SchemaMigrationPlan.Type
    /// The CloudKit database the app's stores sync with: a named container makes
    /// ``verifyEveryPath(sampleRowsPerEntity:sampleValue:)`` check every version against
    /// CloudKit's rules as well.
    public let cloudKitDatabase: ModelConfiguration.CloudKitDatabase
    private let folder: URL

    /// A tester of `plan`.
    ///
    /// - Parameters:
    ///   - plan: the migration plan whose versions and stages are tested.
    ///   - cloudKitDatabase: the CloudKit database the app's stores sync with; with a named
    ///     container (`.private("iCloud.…")`) every version's models are checked against what
    ///     CloudKit requires (every attribute optional or defaulted, no unique constraint,
    ///     optional relationships, no `.deny`).
    public init(for plan: any SchemaMigrationPlan.Type, cloudKitDatabase: ModelConfiguration.CloudKitDatabase = .none) {
        self.plan = plan
        self.cloudKitDatabase = cloudKitDatabase
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("osd-migration-tester-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Stores of a version

    /// Writes a new store at `url` with `version`'s models, as a build of the app that shipped
    /// that version would have: `fill` inserts the models, which are then saved.
    ///
    /// - Parameters:
    ///   - version: one of the plan's versions.
    ///   - url: where the store goes; nothing may be there yet.
    ///   - fill: inserts the version's models into the context it is given.
    /// - Throws: ``SwiftDataError`` when the version is not in the plan, a file is at `url`, or
    ///   the store cannot be written; what `fill` throws.
    public func makeStore(at version: any VersionedSchema.Type, url: URL, fill: (ModelContext) throws -> Void) throws {
        try checkListed(version)
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(url.path) already exists; makeStore writes a new store only, so that no store is overwritten. Remove it first")
        }
        let container = try ModelContainer(for: Schema(versionedSchema: version), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        try fill(context)
        if context.hasChanges { try context.save() }
    }

    /// Writes a new store at `url` with `version`'s models, filled with generated rows:
    /// `sampleRowsPerEntity` of each entity, every attribute given a value derived from its row
    /// (so unique attributes differ; optionals are `nil` on odd rows), relationships linked
    /// both ways.
    ///
    /// - Parameters:
    ///   - version: one of the plan's versions.
    ///   - url: where the store goes; nothing may be there yet.
    ///   - sampleRowsPerEntity: the rows of each entity.
    ///   - sampleValue: values of types the tester cannot invent (a custom `Codable` struct, an
    ///     enum that is not `CaseIterable`), of exactly the request's type.
    /// - Throws: ``SwiftDataError`` naming the attribute when a value is missing or of the wrong
    ///   type, or when the rows cannot be saved.
    public func makeStore(
        at version: any VersionedSchema.Type, url: URL, sampleRowsPerEntity: Int,
        sampleValue: ((SampleValueRequest) -> Any?)? = nil
    ) throws {
        let writer = SampleStoreWriter(schema: Schema(versionedSchema: version), rowsPerEntity: sampleRowsPerEntity, ask: sampleValue)
        try makeStore(at: version, url: url) { try writer.fill($0) }
    }

    // MARK: Migrating

    /// Migrates a copy of the store at `url` to `version` with the plan, and reports each step.
    ///
    /// - Parameters:
    ///   - url: the store; it stays as it was.
    ///   - version: the version to migrate to.
    /// - Returns: the migration's report; its `storeURL` is the migrated copy, which lives as
    ///   long as the tester. No steps when the store was at `version` already.
    /// - Throws: ``SwiftDataError`` when the plan refuses the store or a step fails.
    public func migrate(storeAt url: URL, to version: any VersionedSchema.Type) throws -> MigrationReport {
        try checkListed(version)
        let copy = try copyOf(url)
        return try migrateCopy(copy, to: version)
    }

    /// For every version of the plan, a store of generated rows migrated to the newest version;
    /// fails when a migration throws or when values of an attribute the newest version declares
    /// are lost on the way by the structure (dropped by a version and declared again by a
    /// later one, for example). Values and rows the stages' own code changes or deletes are
    /// reported in the result, not failed.
    ///
    /// - Parameters:
    ///   - sampleRowsPerEntity: the rows of each entity in each version's store.
    ///   - sampleValue: values of types the tester cannot invent, as for
    ///     ``makeStore(at:url:sampleRowsPerEntity:sampleValue:)``.
    /// - Returns: one check per version older than the newest, with its report and the changes
    ///   the stages made.
    /// - Throws: ``MigrationVerificationError`` listing every failure, naming the version,
    ///   entity and attribute.
    @discardableResult
    public func verifyEveryPath(
        sampleRowsPerEntity: Int = 100, sampleValue: ((SampleValueRequest) -> Any?)? = nil
    ) throws -> [MigrationPathCheck] {
        try verifyEveryPath(sampleRowsPerEntity: sampleRowsPerEntity, sampleValue: sampleValue, in: SampleStoreFiles(tester: self))
    }

    /// ``verifyEveryPath(sampleRowsPerEntity:sampleValue:)`` with its sample stores in `stores`
    /// (another database's).
    package func verifyEveryPath<Stores: SampleStores>(
        sampleRowsPerEntity: Int, sampleValue: ((SampleValueRequest) -> Any?)?, in stores: Stores
    ) throws -> [MigrationPathCheck] {
        let versions = try checkedVersions()
        var problems = MigrationVerificationError.Problem.cloudKit(versions, cloudKitDatabase)
        var checks: [MigrationPathCheck] = []
        let newest = versions[versions.count - 1]
        for (index, version) in versions.enumerated().dropLast() {
            let writer = SampleStoreWriter(schema: version.schema, rowsPerEntity: sampleRowsPerEntity, ask: sampleValue)
            let place: Stores.Place
            do {
                place = try stores.makeStore(at: version.type) { try writer.fill($0) }
            } catch {
                problems.append(.init(version: version.name, message: "a sample store could not be written: \(Self.explanation(of: error))"))
                continue
            }
            defer { stores.remove(place) }
            let outcome = check(named: version.name, writtenBy: index, versions: versions) {
                try stores.migrated(place, writtenBy: version.schema, to: newest.type, plan: plan)
            }
            problems += outcome.problems
            if let check = outcome.check { checks.append(check) }
        }
        if !problems.isEmpty { throw MigrationVerificationError(problems: problems) }
        return checks
    }

    /// Every store file in `folder` (copies of real stores from shipped builds: files that begin
    /// as SQLite databases do, other than `-wal`, `-shm` and backups) migrated, on a copy, to the
    /// newest version, with the checks of ``verifyEveryPath(sampleRowsPerEntity:sampleValue:)``.
    ///
    /// - Parameter folder: the folder of fixture stores; they stay as they were.
    /// - Returns: one check per fixture.
    /// - Throws: ``MigrationVerificationError`` listing every failure, naming the fixture.
    @discardableResult
    public func verifyFixtures(in folder: URL) throws -> [MigrationPathCheck] {
        let versions = try checkedVersions()
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter(Self.isStoreFile).sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else {
            throw MigrationVerificationError(problems: [.init(version: nil, message:
                "\(folder.path) holds no store file; copy stores written by shipped builds there (makeStore writes one)")])
        }
        var problems: [MigrationVerificationError.Problem] = []
        var checks: [MigrationPathCheck] = []
        for file in files {
            let name = "the fixture \(file.lastPathComponent)"
            let copy: URL
            let metadata: StoreMetadata?
            do {
                copy = try copyOf(file)
                metadata = try SQLiteStore.inspectFile(at: copy, readOnly: true)
            } catch {
                problems.append(.init(version: name, message: "cannot be read: \(Self.explanation(of: error))"))
                continue
            }
            guard let metadata else {
                problems.append(.init(version: name, message: "is an empty database, not a store written by a build of the app"))
                continue
            }
            guard let index = versions.lastIndex(where: { $0.schema.fingerprint == metadata.fingerprint && $0.schema.version.description == metadata.versionIdentifier })
                ?? versions.lastIndex(where: { $0.schema.fingerprint == metadata.fingerprint })
            else {
                let stored = (try? metadata.schema().entities) ?? []
                let nearest = PlanVersions.nearest(to: stored, in: versions)
                problems.append(.init(version: name, message:
                    "records version \(metadata.versionIdentifier) but matches no version of \(plan); it differs from the nearest, \(nearest.version.name), by: \(nearest.difference). Declare the version it was written with as it shipped"))
                continue
            }
            let outcome = check(named: "\(name) (\(versions[index].name))", writtenBy: index, versions: versions) {
                try migratedCopy(of: copy, writtenBy: versions[index].schema, to: versions[versions.count - 1].type)
            }
            problems += outcome.problems
            if let check = outcome.check { checks.append(check) }
        }
        if !problems.isEmpty { throw MigrationVerificationError(problems: problems) }
        return checks
    }

    // MARK: Checking one path

    /// The values of the store file at `url`, written by `version`, and of a copy of it migrated
    /// to `newest`, with the migration's report.
    func migratedCopy(
        of url: URL, writtenBy version: Schema, to newest: any VersionedSchema.Type
    ) throws -> (before: StoredRows, report: MigrationReport, after: StoredRows) {
        let before = try StoredRows.read(url, entities: version.entities.map(\.name))
        let copy = try copyOf(url)
        let report = try migrateCopy(copy, to: newest)
        return (before, report, try StoredRows.read(copy, entities: Schema(versionedSchema: newest).entities.map(\.name)))
    }

    /// Where sample store files go: the tester's folder, removed with it.
    func sampleStoreURL(for version: any VersionedSchema.Type) -> URL {
        folder.appendingPathComponent("samples-\(UUID().uuidString)/\(version).store")
    }

    /// Compares the values a store written by the version at `index` held with those it holds
    /// once `migrate` has migrated it to the newest version.
    private func check(
        named name: String, writtenBy index: Int, versions: [PlanVersions.Version],
        migrate: () throws -> (before: StoredRows, report: MigrationReport, after: StoredRows)
    ) -> (problems: [MigrationVerificationError.Problem], check: MigrationPathCheck?) {
        do {
            let (before, report, after) = try migrate()
            let comparison = ValueLineage(versions: versions, from: index, plan: plan).compare(before, after)
            return (comparison.losses.map { .init(version: name, message: $0) },
                    MigrationPathCheck(source: name, report: report, changesByStages: comparison.changesByStages))
        } catch {
            return ([.init(version: name, message: "migrating to \(versions[versions.count - 1].name) failed: \(Self.explanation(of: error))")], nil)
        }
    }

    func migrateCopy(_ copy: URL, to version: any VersionedSchema.Type) throws -> MigrationReport {
        let container = try ModelContainer(
            for: Schema(versionedSchema: version), migrationPlan: plan, configurations: ModelConfiguration(url: copy))
        if let report = container.migrationReports.first { return report }
        return MigrationReport(storeURL: copy, storeVersion: version.versionIdentifier.description, targetVersion: version.versionIdentifier.description)
    }

    func copyOf(_ url: URL) throws -> URL {
        let copy = folder.appendingPathComponent("copy-\(UUID().uuidString)").appendingPathComponent(url.lastPathComponent)
        try StoreCopy.copy(storeAt: url, to: copy)
        return copy
    }

    private func checkListed(_ version: any VersionedSchema.Type) throws {
        guard plan.schemas.contains(where: { $0 == version }) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(version) is not one of \(plan).schemas; list it there, or test it with the plan that lists it")
        }
    }

    func checkedVersions() throws -> [PlanVersions.Version] {
        do {
            return try PlanVersions(validating: plan).versions
        } catch {
            throw MigrationVerificationError(problems: [.init(version: nil, message: Self.explanation(of: error))])
        }
    }

    private static func explanation(of error: any Error) -> String {
        (error as? SwiftDataError)?.explanation ?? "\(error)"
    }

    private static func isStoreFile(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        guard !name.hasSuffix("-wal"), !name.hasSuffix("-shm"), !name.hasSuffix(".backup"),
              !name.hasSuffix(".backup-in-progress"), !name.hasPrefix(".")
        else { return false }
        return SQLiteStore.isSQLiteDatabase(url)
    }
}

/// One store migrated to the newest version by ``MigrationTester``.
public struct MigrationPathCheck: Sendable, CustomStringConvertible {
    /// The version (or fixture) the store was written by.
    public let source: String
    /// What the migration did.
    public let report: MigrationReport
    /// Values and rows that the stages' own code changed or deleted on the way, by entity and
    /// attribute: reported, not failed.
    public let changesByStages: [String]

    public var description: String {
        (["From \(source):"] + changesByStages.map { "  changed by the stages' code: \($0)" } + [report.description])
            .joined(separator: "\n")
    }
}
