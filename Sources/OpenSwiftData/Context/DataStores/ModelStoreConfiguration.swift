/// A configuration whose store a ``ModelContainer`` runs through the ``ModelStore`` seam: a
/// store of another database, from another package (the PostgreSQL store's configuration).
package protocol ModelStoreConfiguration: DataStoreConfiguration {
    /// What names the store (its database and place in it, never a password), so that two
    /// configurations of one store in a container are refused.
    var storeKey: String { get }

    /// Opens the store (creating it when there is none) holding `schema`, the part of the
    /// container's schema this configuration holds, migrating it first when it needs it; returns
    /// the store and the report of the migration, if one ran.
    ///
    /// - Parameter progress: where the app follows a migration.
    /// - Throws: ``SwiftDataError`` naming the store and the fix; nothing is changed then.
    func openModelStore(
        schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?, progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> (any ModelStore, MigrationReport?)

    /// What ``openModelStore(schema:migrationPlan:progress:)`` would do to the store, found
    /// without keeping anything (a dry run).
    ///
    /// - Throws: ``SwiftDataError`` when the store cannot be reached; refusals are in the report.
    func previewMigration(schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> MigrationReport
}
