/// One step of a migration plan: from one version of the schema to the next.
///
/// A lightweight stage changes the store's structure only. A custom stage also runs your code:
/// `willMigrate` sees the store through the old version's models before the change, and
/// `didMigrate` through the new version's models after it.
///
/// The closures are not `@Sendable`, as in SwiftData: they may capture state that `willMigrate`
/// hands to `didMigrate`, and call the plan's own (main-actor) helpers. They run synchronously,
/// on the thread that creates the container, while it opens the store. The stage itself is
/// `Sendable`, so a plan can keep its stages in `static let` properties in Swift 6 language mode.
public enum MigrationStage: @unchecked Sendable {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: ((_ context: ModelContext) throws -> Void)?,
        didMigrate: ((_ context: ModelContext) throws -> Void)?)
}
