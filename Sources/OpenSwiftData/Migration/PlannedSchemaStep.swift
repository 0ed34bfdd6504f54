/// One step the planner decided for a store of another database: the structures before and
/// after, the versions' names, and whether the plan's own code runs in it.
package struct PlannedSchemaStep {
    package let from: Schema
    package let to: Schema
    package let fromName: String
    package let toName: String
    package let isCustom: Bool
}
