/// A description of a store a container opens: its name, the part of the schema it holds, and
/// (through its ``Store`` type) the kind of store. ``ModelConfiguration`` describes an SQLite
/// store; `PostgresConfiguration` (in OpenSwiftDataPostgres) a PostgreSQL one.
///
/// ```swift
/// let container = try ModelContainer(for: Schema([Film.self]), configurations: [ModelConfiguration(url: url)])
/// ```
public protocol DataStoreConfiguration: Hashable {
    /// The kind of store the configuration opens.
    associatedtype Store: DataStore where Self == Self.Store.Configuration

    /// The configuration's name, unique among a container's configurations.
    var name: String { get }
    /// The entities the store holds; `nil` for all of the container's.
    var schema: Schema? { get set }

    /// Throws when the configuration cannot describe a store (checked as a container opens it).
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts every configuration.
    public func validate() throws {}
}
