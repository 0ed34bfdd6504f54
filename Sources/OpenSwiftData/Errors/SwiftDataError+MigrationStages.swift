/// The refusals both stores' migration runners make, worded once: a step that would lose
/// data, and what a custom stage's code left undone.
extension SwiftDataError {
    /// The refusal of the step from `fromName` to `toName`, listing each of `problems`.
    package static func migrationLosesData(from fromName: String, to toName: String, problems: [String]) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "the store cannot be migrated from \(fromName) to \(toName) without losing data; nothing was changed:\n"
                + problems.map { "- \($0)" }.joined(separator: "\n"))
    }

    /// The problem of a new unique constraint over stored rows that repeat values (at most
    /// five of them, as SQL literals, with how many rows hold each).
    package static func repeatedUniqueValuesProblem(
        entity: String, constraint: [String], in toName: String, repetitions: [(values: [String], rows: Int)]
    ) -> String {
        let values = repetitions.map { "(" + $0.values.joined(separator: ", ") + ") \($0.rows) times" }
        return "\(entity) gets a unique constraint on \(constraint.joined(separator: ", ")) in \(toName), but stored rows repeat values: \(values.joined(separator: "; ")); remove the duplicates in a custom stage's willMigrate"
    }

    /// The refusal when `didMigrate` left `rows` rows without a value in a non-optional
    /// attribute with no default that the stage was to fill.
    package static func stageLeftRowsUnfilled(entity: String, attribute: String, in toName: String, rows: Int, place: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(entity).\(attribute) is non-optional with no default value in \(toName), and the custom stage's didMigrate left \(rows) stored row\(rows == 1 ? "" : "s") of \(place) without a value for it; the migration was rolled back and the store is as it was. Set it on every model in didMigrate (and save), give it a default, or make it optional")
    }

    /// The refusal when rows still share the values of a constraint `toName` declares unique
    /// once the stage has run.
    package static func stageLeftValuesShared(entity: String, constraint: [String], in toName: String, place: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "after the custom stage to \(toName), stored \(entity) rows of \(place) still share values of \(constraint.joined(separator: ", ")), which \(toName) declares unique; the migration was rolled back and the store is as it was. Give every row its own value in the stage (or delete the duplicates in willMigrate)")
    }
}
