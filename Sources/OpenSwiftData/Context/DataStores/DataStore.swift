/// A store a container opens from a ``DataStoreConfiguration``: what identifies it, and the
/// schema it holds.
///
/// OpenSwiftData's stores conform: ``DefaultStore`` (SQLite, for ``ModelConfiguration``) and
/// `PostgresStore` (in OpenSwiftDataPostgres). SwiftData's protocol also lets apps write their
/// own stores, exchanging snapshots with the context; OpenSwiftData does not run such stores
/// (a container refuses a configuration whose store is not one of its own), so the protocol
/// asks only what a container needs to know of one.
public protocol DataStore: AnyObject {
    /// The configuration type that opens this kind of store.
    associatedtype Configuration: DataStoreConfiguration where Self == Self.Configuration.Store

    /// The identifier recorded in the store, part of every identifier of its models.
    var identifier: String { get }
    /// The models the store holds.
    var schema: Schema { get }
    /// The configuration the store was opened with.
    var configuration: Configuration { get }

    /// Opens the store the configuration describes, creating or migrating it as needed.
    ///
    /// - Parameters:
    ///   - configuration: The store, with its ``DataStoreConfiguration/schema``.
    ///   - migrationPlan: The plan that migrates a store an earlier version wrote.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws
}
