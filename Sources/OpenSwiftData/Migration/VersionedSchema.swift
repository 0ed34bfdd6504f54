/// One version of an app's models, frozen so that stores written by it can still be opened and
/// migrated after the models change.
///
/// ```swift
/// enum FilmsSchemaV1: VersionedSchema {
///     static var versionIdentifier = Schema.Version(1, 0, 0)
///     static var models: [any PersistentModel.Type] { [Film.self] }
///
///     @Model final class Film {
///         var title: String
///         init(title: String) { self.title = title }
///     }
/// }
/// ```
public protocol VersionedSchema: SendableMetatype {
    /// The models of this version.
    static var models: [any PersistentModel.Type] { get }
    /// The version's number, for people; stores are matched to versions by structure.
    static var versionIdentifier: Schema.Version { get }
}

extension Schema {
    /// The schema of one version of a migration plan: its models and its version identifier.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Schema(versionedSchema: FilmsSchemaV2.self), migrationPlan: FilmsPlan.self)
    /// ```
    ///
    /// - Parameter versionedSchema: the version whose models the schema holds.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
        isVersioned = true
    }
}
