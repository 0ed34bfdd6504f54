import Foundation
import Synchronization

/// The stores of an app's models and the schema they follow.
///
/// Create one container when the app starts and keep it; create contexts from it to read and
/// write models.
///
/// ```swift
/// let container = try ModelContainer(for: Film.self, Studio.self)
/// let context = ModelContext(container)
/// context.insert(Film(title: "Up", releaseYear: 2009))
/// try context.save()
/// ```
///
/// Creating a container opens each configuration's store, creating the file when it does not
/// exist yet, and throws ``SwiftDataError/loadIssueModelContainer`` with an explanation when it
/// cannot: the file is not a store, is corrupt, cannot be written, or holds another schema. A
/// store that cannot be opened is left exactly as it was.
///
/// Containers are `Sendable`: share one between actors, and give each actor its own context.
public class ModelContainer: Equatable, @unchecked Sendable {
    public final let schema: Schema
    public final let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The configurations of the container's stores.
    public var configurations: Set<ModelConfiguration> { Set(orderedConfigurations) }
    /// What the migrations run as the container opened did, one report per store migrated;
    /// empty when every store was up to date or new.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Schema(versionedSchema: SchemaV2.self), migrationPlan: Plan.self)
    /// for report in container.migrationReports { logger.info("\(report)") }
    /// ```
    public let migrationReports: [MigrationReport]

    let orderedConfigurations: [ModelConfiguration]
    let stores: [any ModelStore]
    /// The name of the configuration each store was opened for, by store identifier.
    let configurationNameByStore: [String: String]
    /// How many observers want ``remoteChange`` posted, and the watches of the stores' commits
    /// that post it while there is one.
    let remoteChangeWatch = Mutex<(observers: Int, watches: [CommitWatcher.Watch])>((0, []))
    /// Whether this is a migration's container over its transaction, made while the app's
    /// container opens: nothing observes the models read through it.
    let isMigrating: Bool
    /// The migration whose `didMigrate` this container serves, for typed transforms.
    let migrationSession: MigrationSession?
    /// How many migration containers exist, on any thread. While there are none, a model
    /// read for the first time can be observed without a look at its context.
    static let migratingCount = Atomic<Int>(0)
    private let storeByEntity: [String: any ModelStore]
    /// The threads ``perform(_:)`` runs its work on: as many as the stores serve at once.
    let workerThreads: WorkerThreads
    /// The ``perform(_:)`` calls running, and whether ``close()`` was called.
    let performing = PerformedWork()
    /// The relationships a fetch of a model class would reach and could not read.
    let unreadableRelationships: UnreadableRelationships
    /// The identifier each model got at its first save, by the key of the temporary identifier
    /// it had before, for the models whose temporary identifier was handed out.
    private let savedTemporaryIdentifiers = Mutex<[UUID: PersistentIdentifier]>([:])
    private let mainContextLock = NSLock()
    nonisolated(unsafe) private var mainContextStorage: ModelContext?

    /// A container for these models, opening (and, with a plan, migrating) each configuration's
    /// store; with no configuration, one store at the default location.
    ///
    /// - Parameters:
    ///   - forTypes: the models; the models they reach through relationships are included.
    ///   - migrationPlan: the plan that migrates stores written by earlier versions.
    ///   - configurations: the stores.
    /// - Throws: ``SwiftDataError`` naming the store, the entity or the version and the fix
    ///   when a store cannot be opened: not a store, corrupt, unwritable, another schema's
    ///   without a plan that migrates it, or a migration the plan refuses. Stores that cannot
    ///   be opened are left as they were.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema's models, opening (and, with a plan, migrating) each
    /// configuration's store.
    ///
    /// - Parameters:
    ///   - givenSchema: the models.
    ///   - migrationPlan: the plan that migrates stores written by earlier versions.
    ///   - configurations: the stores.
    /// - Throws: ``SwiftDataError`` naming the store, the entity or the version and the fix
    ///   when a store cannot be opened: not a store, corrupt, unwritable, another schema's
    ///   without a plan that migrates it, or a migration the plan refuses. Stores that cannot
    ///   be opened are left as they were.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema's models, opening (and, with a plan, migrating) each
    /// configuration's store; ``migrationReports`` then says what each migration did.
    ///
    /// - Parameters:
    ///   - givenSchema: the models.
    ///   - migrationPlan: the plan that migrates stores written by earlier versions.
    ///   - configurations: the stores; with none, one store at the default location.
    /// - Throws: ``SwiftDataError`` naming the store, the entity or the version and the fix
    ///   when a store cannot be opened: not a store, corrupt, unwritable, another schema's
    ///   without a plan that migrates it, or a migration the plan refuses. Stores that cannot
    ///   be opened are left as they were.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations, otherConfigurations: [], progress: nil)
    }

    /// A container whose stores report the progress of their migrations as they open, so that
    /// an app can show a progress screen while it opens the container off the main thread.
    ///
    /// ```swift
    /// let container = try ModelContainer(
    ///     for: Schema(versionedSchema: SchemaV3.self), migrationPlan: Plan.self,
    ///     configurations: [ModelConfiguration(url: url)]) { progress in
    ///         print(progress)   // step 1/2 SchemaV1 (1.0.0) → SchemaV2 (2.0.0): migratingRows, Film rows 4000/10000, 46%
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - givenSchema: the models.
    ///   - migrationPlan: the plan that migrates stores written by earlier versions.
    ///   - configurations: the stores.
    ///   - migrationProgress: called on the opening thread as each step starts, changes the
    ///     tables, visits a transform's rows (after every batch) and finishes. Not called when no
    ///     store needs migrating.
    /// - Throws: what ``init(for:migrationPlan:configurations:)-(_,_,[ModelConfiguration])``
    ///   throws.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration], migrationProgress: @escaping @Sendable (MigrationProgress) -> Void
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations, otherConfigurations: [], progress: migrationProgress)
    }

    init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: [ModelConfiguration], otherConfigurations: [any ModelStoreConfiguration],
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws {
        let layout = try ContainerLayout(
            schema: givenSchema, migrationPlan: migrationPlan, configurations: configurations, otherConfigurations: otherConfigurations)
        schema = layout.schema
        self.migrationPlan = migrationPlan
        isMigrating = false
        migrationSession = nil
        orderedConfigurations = layout.configurations

        var stores: [any ModelStore] = []
        var storeByEntity: [String: any ModelStore] = [:]
        var reports: [MigrationReport] = []
        var configurationNameByStore: [String: String] = [:]
        for storeLayout in layout.stores {
            let (store, report) = try Self.openStore(storeLayout, planVersions: layout.planVersions, progress: progress)
            stores.append(store)
            configurationNameByStore[store.identifier] = storeLayout.configuration.name
            reports += report.map { [$0] } ?? []
            for entity in storeLayout.schema.entities { storeByEntity[entity.name] = store }
        }
        for other in layout.otherStores {
            let (store, report) = try other.configuration.openModelStore(schema: other.schema, migrationPlan: migrationPlan, progress: progress)
            stores.append(store)
            reports += report.map { [$0] } ?? []
            configurationNameByStore[store.identifier] = other.configuration.name
            for entity in other.schema.entities { storeByEntity[entity.name] = store }
        }
        self.stores = stores
        workerThreads = WorkerThreads(count: stores.map(\.concurrentUses).max() ?? 1, label: "osd-perform")
        self.configurationNameByStore = configurationNameByStore
        self.storeByEntity = storeByEntity
        migrationReports = reports
        unreadableRelationships = UnreadableRelationships(models: Array(schema.layouts.values)) { storeByEntity[$0] }
    }

    /// Opens one configuration's store, migrating it first when it needs it; returns the store
    /// and the report of the migration, if one ran.
    ///
    /// The file is read once: an existing store's metadata through the pool it opens with (let
    /// go of again if the store needs migrating), else through a connection that cannot write;
    /// the metadata the migration leaves is what the store then opens with.
    private static func openStore(
        _ layout: ContainerLayout.Store, planVersions: PlanVersions?, progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> (SQLiteStore, MigrationReport?) {
        let (configuration, schema) = (layout.configuration, layout.schema)
        guard !configuration.isStoredInMemoryOnly else {
            return (try SQLiteStore(location: .inMemory, schema: schema, allowsSave: configuration.allowsSave), nil)
        }
        let url = configuration.url
        guard configuration.allowsSave else {
            return (try SQLiteStore(location: .file(url), schema: schema, allowsSave: false), nil)
        }
        // Opening waits as long as a migration may take for another process holding the store's
        // lock; what it waits for is not known yet.
        let openingWait = SQLiteStore.OpeningWait(
            seconds: configuration.migrationWaitTimeout,
            report: MigrationProgress.waitingReport(storeURL: url, from: "the stored version", to: schema.version.description, progress))
        var opened = try SQLiteStore.openExisting(at: url, schema: schema, openingWait: openingWait)
        let recorded = try opened?.metadata ?? SQLiteStore.inspectFile(at: url, readOnly: false, expected: schema)
        let plan = { (stored: StoreMetadata) in
            try MigrationPlanner.migration(
                of: url, stored: stored, to: schema, versions: planVersions, entitiesElsewhere: layout.entitiesElsewhere,
                backingUp: configuration.backsUpBeforeMigrating)
        }
        let planned: PlannedMigration?
        do {
            planned = try recorded.flatMap(plan)
        } catch is SwiftDataError where planVersions == nil {
            // Without the plan, a versioned store is refused until it has these models'
            // structure. The app may be migrating it to them right now, holding the write lock
            // while its extension starts: look again once it lets go (as an opener with the plan
            // does), and open the store if it now matches, refused as before if not.
            opened = nil
            var report: MigrationReport?
            let found = try SQLiteMigrationExecutor.run(
                storeAt: url, waitingUpTo: configuration.migrationWaitTimeout, progress: progress,
                expected: (recorded?.versionIdentifier ?? "the stored version", schema.version.description), report: &report,
                plan: plan)
            return (try SQLiteStore(location: .file(url), schema: schema, allowsSave: true, metadata: found, openingWait: openingWait), nil)
        }
        guard let migration = planned, let stored = recorded else {
            return (try opened?.store ?? SQLiteStore(
                location: .file(url), schema: schema, allowsSave: true, metadata: recorded, openingWait: openingWait), nil)
        }
        // Let go of before the migration: its last connection to close removes the write-ahead
        // log that opening placed.
        opened = nil
        // Decided again under the store's write lock, from the metadata read then: another
        // process may be migrating the store right now, and this one opens what it leaves.
        var report: MigrationReport?
        let migrated = try SQLiteMigrationExecutor.run(
            storeAt: url, waitingUpTo: configuration.migrationWaitTimeout, progress: progress,
            expected: (migration.steps.first?.fromName ?? stored.versionIdentifier, migration.steps.last?.toName ?? schema.version.description),
            report: &report, plan: plan)
        return (try SQLiteStore(location: .file(url), schema: schema, allowsSave: true, metadata: migrated, openingWait: openingWait), report)
    }

    /// A container over a store that a migration stage is changing, inside the migration's
    /// transaction, for the stage's context.
    package init(migrating store: any ModelStore, session: MigrationSession? = nil) {
        isMigrating = true
        migrationSession = session
        Self.migratingCount.add(1, ordering: .relaxed)
        schema = store.schema
        migrationPlan = nil
        if let store = store as? SQLiteStore, case .file(let url) = store.location {
            orderedConfigurations = [ModelConfiguration(url: url)]
        } else {
            // A store of another database is not a configuration of this module's.
            orderedConfigurations = [ModelConfiguration(isStoredInMemoryOnly: true)]
        }
        stores = [store]
        workerThreads = WorkerThreads(count: 1, label: "osd-perform")
        configurationNameByStore = [store.identifier: orderedConfigurations[0].name]
        migrationReports = []
        let storeByEntity = Dictionary(store.schema.entities.map { ($0.name, store) }, uniquingKeysWith: { a, _ in a })
        self.storeByEntity = storeByEntity
        unreadableRelationships = UnreadableRelationships(models: Array(store.schema.layouts.values)) { storeByEntity[$0] }
    }

    deinit {
        if isMigrating { Self.migratingCount.subtract(1, ordering: .relaxed) }
    }

    /// The context bound to the main actor, created on first use and the same ever after. It
    /// saves by itself shortly after its models change (`autosaveEnabled` is `true`).
    @MainActor public var mainContext: ModelContext {
        mainContextLock.withLock {
            if let context = mainContextStorage { return context }
            let context = ModelContext(self, isMainContext: true)
            mainContextStorage = context
            return context
        }
    }

    /// Records that the model whose temporary identifier had `temporaryKey` was saved as `id`.
    func recordSaved(temporaryKey: UUID, as id: PersistentIdentifier) {
        savedTemporaryIdentifiers.withLock { $0[temporaryKey] = id }
    }

    /// The permanent identifier a temporary one became when its model was saved; `nil` for a
    /// permanent identifier, or a model not saved yet.
    func permanentIdentifier(for id: PersistentIdentifier) -> PersistentIdentifier? {
        guard let key = id.temporaryKey else { return nil }
        return savedTemporaryIdentifiers.withLock { $0[key] }
    }

    /// The store holding an entity's rows, and the entity's table there.
    func table(forEntity name: String) -> (store: any ModelStore, table: TableLayout)? {
        guard let store = storeByEntity[name], let table = store.tables[name] else { return nil }
        return (store, table)
    }

    /// The store holding an entity's rows, and the layout reading them as `modelType`, the class
    /// a relationship declares (see ``ModelStore/table(forEntity:readingRowsAs:)``).
    func table(
        forEntity name: String, readingRowsAs modelType: any PersistentModel.Type
    ) throws(OtherClassReadRefusal) -> (store: any ModelStore, table: TableLayout)? {
        guard let store = storeByEntity[name], let table = try store.table(forEntity: name, readingRowsAs: modelType) else { return nil }
        return (store, table)
    }

    /// Deletes every model from every store.
    @available(*, deprecated, renamed: "erase", message: "deleteAllData has been replaced by `erase`. Use `erase` to completely remove all of the data from a store.")
    public func deleteAllData() {
        try? erase()
    }

    /// Deletes every model from every store; the stores stay usable, with their schema.
    /// Contexts should not keep using models they fetched before.
    ///
    /// - Throws: the store's error when a delete fails; each store is erased in one transaction.
    public func erase() throws {
        for store in stores where !store.isReadOnly {
            try store.eraseAllRows()
        }
    }

    /// Whether two containers are the same object.
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool {
        lhs === rhs
    }
}
