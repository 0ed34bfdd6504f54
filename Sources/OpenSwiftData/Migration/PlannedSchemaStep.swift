/// One step the planner decided for a store of another database: the structures before and
/// after, the versions' names, and the plan's custom stage code that runs in it.
package struct PlannedSchemaStep {
    package let from: Schema
    package let to: Schema
    package let fromName: String
    package let toName: String
    /// The stage's `willMigrate`, run with a context over the store as `from` has it, before
    /// the tables change.
    package let willMigrate: ((ModelContext) throws -> Void)?
    /// The stage's `didMigrate`, run with a context over the store as `to` has it, after.
    package let didMigrate: ((ModelContext) throws -> Void)?

    /// Whether the plan's own code runs in the step.
    package var isCustom: Bool { willMigrate != nil || didMigrate != nil }
}
