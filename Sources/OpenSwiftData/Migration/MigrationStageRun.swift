/// What both stores' migration runners do around a custom stage's code, worded once: each
/// store supplies only the store over its migrating transaction. The refusals after the stage
/// are ``SwiftDataError/stageLeftRowsUnfilled(entity:attribute:in:rows:place:)`` and
/// ``SwiftDataError/stageLeftValuesShared(entity:constraint:in:place:)``.
package enum MigrationStageRun {
    /// Runs a stage's closure with a context over `store` (the migration's transaction); what
    /// the closure saves, and what it leaves unsaved, is written into the migration.
    ///
    /// - Parameters:
    ///   - phase: `willMigrate` or `didMigrate`, as the error names it.
    ///   - place: the store, as errors name it.
    ///   - passingThrough: errors the runner handles itself (a lock timeout it retries), thrown
    ///     as they are.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming the stage and the error the
    ///   closure threw; the caller rolls the migration back.
    package static func run(
        _ closure: (ModelContext) throws -> Void, over store: any ModelStore, session: MigrationSession?,
        phase: String, from fromName: String, to toName: String, place: String,
        passingThrough: (any Error) -> Bool = { _ in false }
    ) throws {
        let context = ModelContext(ModelContainer(migrating: store, session: session))
        do {
            try closure(context)
            if context.hasChanges { try context.save() }
        } catch where passingThrough(error) {
            throw error
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the \(phase) closure of the stage from \(fromName) to \(toName) of \(place) threw \(error); the migration was rolled back and the store is as it was")
        }
    }
}
