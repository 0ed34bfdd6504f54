/// The SQLite store a ``ModelConfiguration`` opens: a file (or memory) holding the
/// configuration's models.
///
/// A container opens its SQLite stores itself; open a `DefaultStore` directly to learn a store's
/// identifier or create and migrate it ahead of time.
public final class DefaultStore: DataStore {
    public final let name: String
    public final let schema: Schema
    public final let configuration: ModelConfiguration
    public final var identifier: String { store.identifier }
    /// The opened store, kept by a container of its own.
    private let container: ModelContainer
    private var store: any ModelStore { container.stores[0] }

    /// Opens (creating or migrating it first) the store the configuration describes.
    ///
    /// - Parameters:
    ///   - configuration: The store, with the models it holds as its `schema`.
    ///   - migrationPlan: The plan that migrates a store an earlier version wrote.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` for a configuration without a
    ///   schema, and what ``ModelContainer`` throws when the store cannot be opened.
    public init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        guard let schema = configuration.schema else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the configuration \(configuration.name) has no schema: a store opened on its own needs the models it holds (ModelConfiguration(schema:))")
        }
        container = try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: [configuration])
        name = configuration.name
        self.schema = container.stores[0].schema
        self.configuration = configuration
    }
}
