/// One step of a migration plan: from one version of the schema to the next.
///
/// A lightweight stage changes the store's structure only. A custom stage also runs your code:
/// `willMigrate` sees the store through the old version's models before the change, and
/// `didMigrate` through the new version's models after it.
///
/// The stage is `Sendable`, as SwiftData declares it, so a plan keeps its stages in plain
/// `static let` properties in Swift 6 language mode; `nonisolated(unsafe)` on them (written for
/// SDKs where it was not) is unnecessary, and the compiler says so, with Apple's SDK as here.
/// The closures are not `@Sendable` (SwiftData's are, under `@preconcurrency`): every closure
/// SwiftData takes is taken, and so are ones that capture state `willMigrate` hands to
/// `didMigrate` or call the plan's own (main-actor) helpers. They run synchronously, on the
/// thread that creates the container, while it opens the store.
public enum MigrationStage: @unchecked Sendable {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: ((_ context: ModelContext) throws -> Void)?,
        didMigrate: ((_ context: ModelContext) throws -> Void)?)
}
