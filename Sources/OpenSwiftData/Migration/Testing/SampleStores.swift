import Foundation

/// Where ``MigrationTester`` writes the sample stores of a plan's versions and migrates them:
/// store files of its own, or throw-away places of another database (the PostgreSQL store's
/// schemas).
package protocol SampleStores {
    associatedtype Place

    /// Writes a new store of `version`'s models, filled by `fill` and saved.
    func makeStore(at version: any VersionedSchema.Type, fill: (ModelContext) throws -> Void) throws -> Place

    /// The values of the store at `place`, written by `version`, and of it (or a copy of it)
    /// migrated to `newest` with `plan`, with the migration's report.
    func migrated(
        _ place: Place, writtenBy version: Schema, to newest: any VersionedSchema.Type, plan: any SchemaMigrationPlan.Type
    ) throws -> (before: StoredRows, report: MigrationReport, after: StoredRows)

    /// Removes the store at `place`, and what migrating it made.
    func remove(_ place: Place)
}

/// The tester's own sample stores: files in its temporary folder, migrated on copies.
struct SampleStoreFiles: SampleStores {
    let tester: MigrationTester

    func makeStore(at version: any VersionedSchema.Type, fill: (ModelContext) throws -> Void) throws -> URL {
        let url = tester.sampleStoreURL(for: version)
        try tester.makeStore(at: version, url: url, fill: fill)
        return url
    }

    func migrated(
        _ place: URL, writtenBy version: Schema, to newest: any VersionedSchema.Type, plan: any SchemaMigrationPlan.Type
    ) throws -> (before: StoredRows, report: MigrationReport, after: StoredRows) {
        try tester.migratedCopy(of: place, writtenBy: version, to: newest)
    }

    /// The folder goes with the tester.
    func remove(_ place: URL) {}
}
