/// The versions of an app's schema, oldest first, and the stages that migrate a store from
/// each version to the next.
///
/// ```swift
/// enum FilmsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [FilmsSchemaV1.self, FilmsSchemaV2.self] }
///     static var stages: [MigrationStage] { [.lightweight(fromVersion: FilmsSchemaV1.self, toVersion: FilmsSchemaV2.self)] }
/// }
/// ```
public protocol SchemaMigrationPlan {
    /// Every version, ordered oldest to newest.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between consecutive versions, in the order they run.
    static var stages: [MigrationStage] { get }
}
