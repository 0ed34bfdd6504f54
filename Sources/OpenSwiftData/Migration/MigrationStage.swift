/// One step of a migration plan: from one version of the schema to the next.
///
/// A lightweight stage changes the store's structure only. A custom stage also runs your code:
/// `willMigrate` sees the store through the old version's models before the change, and
/// `didMigrate` through the new version's models after it.
///
/// Unlike SwiftData's, the stage is `Sendable` (its closures are `@Sendable`), so a plan can keep
/// its stages in `static let` properties in Swift 6 language mode.
public enum MigrationStage: Sendable {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (_ context: ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (_ context: ModelContext) throws -> Void)?)
}
