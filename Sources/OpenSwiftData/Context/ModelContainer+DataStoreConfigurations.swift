import Foundation

// The containers of iOS 18's form: configurations of any kind of store.
extension ModelContainer {
    /// A container for these models, opening each configuration's store (iOS 18's form, taking
    /// any kind of store's configuration).
    ///
    /// - Parameters:
    ///   - forTypes: The models; the models they reach through relationships are included.
    ///   - configurations: The stores.
    /// - Throws: What ``init(for:migrationPlan:configurations:)-(_,_,[ModelConfiguration])``
    ///   throws, and ``SwiftDataError/loadIssueModelContainer`` for a configuration whose store
    ///   OpenSwiftData cannot run.
    public convenience init(for forTypes: any PersistentModel.Type..., configurations: any DataStoreConfiguration...) throws {
        try self.init(for: Schema(forTypes), migrationPlan: nil, configurations: configurations)
    }

    /// A container for a schema's models, opening each configuration's store (iOS 18's form).
    ///
    /// - Parameters:
    ///   - givenSchema: The models.
    ///   - configurations: The stores.
    /// - Throws: What ``init(for:migrationPlan:configurations:)-(_,_,[ModelConfiguration])``
    ///   throws, and ``SwiftDataError/loadIssueModelContainer`` for a configuration whose store
    ///   OpenSwiftData cannot run.
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(for: givenSchema, migrationPlan: nil, configurations: configurations)
    }

    /// A container for a schema's models, opening (and, with a plan, migrating) each
    /// configuration's store, of any kind. SwiftData's iOS 18 form takes no plan; this one
    /// (OpenSwiftData's) does, so that a store of another kind migrates as an SQLite one does.
    ///
    /// - Parameters:
    ///   - givenSchema: The models.
    ///   - migrationPlan: The plan that migrates stores written by earlier versions.
    ///   - configurations: The stores.
    /// - Throws: What ``init(for:migrationPlan:configurations:)-(_,_,[ModelConfiguration])``
    ///   throws, and ``SwiftDataError/loadIssueModelContainer`` for a configuration whose store
    ///   OpenSwiftData cannot run.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, anyConfigurations: configurations, progress: nil)
    }

    /// A container for a schema's models whose stores, of any kind, report the progress of
    /// their migrations as they open (a server can log a long one as it runs).
    ///
    /// - Parameters:
    ///   - givenSchema: The models.
    ///   - migrationPlan: The plan that migrates stores written by earlier versions.
    ///   - configurations: The stores.
    ///   - migrationProgress: called on the opening thread as each step starts, changes the
    ///     tables, visits a transform's rows (after every batch) and finishes.
    /// - Throws: What ``init(for:migrationPlan:configurations:)-(_,_,[any DataStoreConfiguration])``
    ///   throws.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration],
        migrationProgress: @escaping @Sendable (MigrationProgress) -> Void
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, anyConfigurations: configurations, progress: migrationProgress)
    }

    private convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, anyConfigurations configurations: [any DataStoreConfiguration],
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws {
        var models: [ModelConfiguration] = []
        var others: [any ModelStoreConfiguration] = []
        for configuration in configurations {
            if let model = configuration as? ModelConfiguration {
                try model.validate()
                models.append(model)
            } else if let other = configuration as? any ModelStoreConfiguration {
                try other.validate()
                others.append(other)
            } else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the configuration \(configuration.name) opens a \(Self.storeType(of: configuration)), which a ModelContainer cannot run: containers run the stores of ModelConfiguration (SQLite) and PostgresConfiguration (OpenSwiftDataPostgres). Nothing was opened")
            }
        }
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: models, otherConfigurations: others, progress: progress)
    }

    private static func storeType<C: DataStoreConfiguration>(of configuration: C) -> String {
        "\(C.Store.self)"
    }
}
