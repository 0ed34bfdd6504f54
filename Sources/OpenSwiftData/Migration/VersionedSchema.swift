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
