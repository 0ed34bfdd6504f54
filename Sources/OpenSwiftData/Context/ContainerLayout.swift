/// What a container opens, worked out from its arguments before any store is touched: the
/// schema (recording the plan version the models match), the plan's versions, and the part of
/// the schema each configuration's store holds. A container and a dry run of its migration
/// start from the same layout.
struct ContainerLayout {
    let schema: Schema
    let planVersions: PlanVersions?
    /// The SQLite configurations given, or the default one when no configuration was.
    let configurations: [ModelConfiguration]
    let stores: [Store]
    /// The stores of other databases, opened through the ``ModelStore`` seam.
    let otherStores: [OtherStore]

    /// One configuration's store: the part of the schema it holds, and the container's
    /// entities it does not hold (another configuration's), which a migration of this store
    /// leaves alone.
    struct Store {
        let configuration: ModelConfiguration
        let schema: Schema
        let entitiesElsewhere: Set<String>
    }

    /// A store of another database (``ModelStoreConfiguration``), with the part of the schema
    /// it holds.
    struct OtherStore {
        let configuration: any ModelStoreConfiguration
        let schema: Schema
    }

    /// - Throws: ``SwiftDataError`` when the models cannot be stored, the plan is broken or does
    ///   not list the models, two configurations name one store, or a configuration names an
    ///   entity the schema lacks.
    init(
        schema givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [ModelConfiguration],
        otherConfigurations: [any ModelStoreConfiguration] = []
    ) throws {
        try givenSchema.validate()
        planVersions = try migrationPlan.map { try PlanVersions(validating: $0) }
        // The store records the plan version the models match, not the schema's default, so an
        // older build of the app recognises it as newer than itself.
        schema = try planVersions.map { givenSchema.withVersion(try $0.version(ofModels: givenSchema)) } ?? givenSchema
        self.configurations = configurations.isEmpty && otherConfigurations.isEmpty ? [ModelConfiguration()] : configurations
        try Self.checkDistinct(self.configurations, otherConfigurations)
        // SQLite's configurations take their entities first, then the others', in order.
        let held = try Self.storeSchemas(
            of: self.configurations.map { ($0.name, $0.schema) } + otherConfigurations.map { ($0.name, $0.schema) }, in: schema)
        let all = Set(schema.entities.map(\.name))
        stores = zip(self.configurations, held).map { configuration, storeSchema in
            Store(configuration: configuration, schema: storeSchema, entitiesElsewhere: all.subtracting(storeSchema.entities.map(\.name)))
        }
        otherStores = zip(otherConfigurations, held.dropFirst(self.configurations.count)).map(OtherStore.init)
        try Self.checkCloudKitRules(of: stores)
    }

    /// Refuses, listing every problem, a store whose configuration names a CloudKit container
    /// and whose models break what CloudKit requires (``CloudKitRules``).
    private static func checkCloudKitRules(of stores: [Store]) throws {
        for store in stores {
            guard let container = store.configuration.cloudKitContainerIdentifier else { continue }
            let problems = CloudKitRules.problems(of: store.schema)
            guard !problems.isEmpty else { continue }
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(store.configuration.name) syncs with the CloudKit container \(container), but its models break what CloudKit requires; nothing was opened or created:\n"
                    + problems.map { "- \($0)" }.joined(separator: "\n"))
        }
    }

    private static func checkDistinct(_ configurations: [ModelConfiguration], _ others: [any ModelStoreConfiguration]) throws {
        var seen: Set<String> = []
        for configuration in configurations {
            let key = configuration.isStoredInMemoryOnly ? "memory:\(configuration.name)" : configuration.url.standardizedFileURL.path
            if !seen.insert(key).inserted {
                throw SwiftDataError.duplicateConfiguration.explaining(
                    "two configurations name the same store (\(configuration.isStoredInMemoryOnly ? "in memory, named \(configuration.name)" : configuration.url.path)); give each its own name or URL")
            }
        }
        for other in others where !seen.insert(other.storeKey).inserted {
            throw SwiftDataError.duplicateConfiguration.explaining(
                "two configurations name the same store (\(other.storeKey)); give each its own")
        }
    }

    /// Each configuration with the part of `schema` its store holds: the entities its own
    /// schema names (every entity when it names none) that no earlier configuration holds.
    private static func storeSchemas(of configurations: [(name: String, schema: Schema?)], in schema: Schema) throws -> [Schema] {
        var held: Set<String> = []
        return try configurations.map { configuration in
            let entityNames = try entityNames(of: configuration, in: schema).filter { !held.contains($0) }
            held.formUnion(entityNames)
            return schema.restricted(to: entityNames)
        }
    }

    private static func entityNames(of configuration: (name: String, schema: Schema?), in schema: Schema) throws -> [String] {
        guard let configurationSchema = configuration.schema else {
            return schema.entities.map(\.name)
        }
        for entity in configurationSchema.entities where schema.entitiesByName[entity.name] == nil {
            throw SwiftDataError.configurationSchemaNotFoundInContainerSchema.explaining(
                "the configuration \(configuration.name) holds the entity \(entity.name), which the container's schema does not have; add its model to the container's models")
        }
        return configurationSchema.entities.map(\.name)
    }
}
