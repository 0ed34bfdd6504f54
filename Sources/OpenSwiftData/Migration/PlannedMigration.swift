import Foundation

/// What a migration will do to one store file, decided before any of it runs: the steps, the
/// tables each one restructures, and whether the store is copied first.
///
/// By the time one exists, every refusal the structures alone decide has been made (see
/// ``MigrationPlanner``). The refusals that depend on rows (a required attribute left without
/// values, a unique constraint broken) come as the steps run, after the plan's own code has had
/// its chance to fix the rows.
struct PlannedMigration {
    let url: URL
    /// The store's metadata as it was read before planning.
    let stored: StoreMetadata
    /// The schema the store has when the migration is done.
    let target: Schema
    /// The steps in order; empty when the store has the target's structure and only the
    /// version it records changes.
    let steps: [MigrationStep]
    /// Whether entities the new version no longer lists are dropped: only when a plan says so.
    let dropsRemovedEntities: Bool
    /// Whether the store is copied beside itself before the migration runs.
    var backsUp: Bool
    /// Whether the store is a copy a dry run made, whose original keeps every value.
    var isDryRun = false
    /// Where the app follows the migration's progress, if it asked to.
    var progress: (@Sendable (MigrationProgress) -> Void)?

    var storeDescription: String { "the store \(url.path)" }

    /// The entities the store has before each step, and the table changes that step makes.
    var restructurings: [TableRestructuring] {
        get throws {
            var current = try stored.schema().entities
            return steps.map { step in
                defer { current = step.to.entities }
                return TableRestructuring(
                    from: current, to: step.to, preparesForCustomStage: step.didMigrate != nil,
                    dropsRemovedEntities: dropsRemovedEntities, fromName: step.fromName, toName: step.toName)
            }
        }
    }
}
