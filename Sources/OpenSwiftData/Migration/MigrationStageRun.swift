/// What both stores' migration runners do around a custom stage's code, and the refusals they
/// make after it, worded once: each store supplies only the store over its migrating
/// transaction and the statements that count what the stage left.
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

    /// The refusal when `didMigrate` left `rows` rows without a value in a non-optional
    /// attribute with no default that the stage was to fill.
    package static func unfilled(entity: String, attribute: String, in toName: String, rows: Int, place: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(entity).\(attribute) is non-optional with no default value in \(toName), and the custom stage's didMigrate left \(rows) stored row\(rows == 1 ? "" : "s") of \(place) without a value for it; the migration was rolled back and the store is as it was. Set it on every model in didMigrate (and save), give it a default, or make it optional")
    }

    /// The refusal when rows still share the values of a constraint `toName` declares unique
    /// once the stage has run.
    package static func stillShared(entity: String, constraint: [String], in toName: String, place: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "after the custom stage to \(toName), stored \(entity) rows of \(place) still share values of \(constraint.joined(separator: ", ")), which \(toName) declares unique; the migration was rolled back and the store is as it was. Give every row its own value in the stage (or delete the duplicates in willMigrate)")
    }
}
