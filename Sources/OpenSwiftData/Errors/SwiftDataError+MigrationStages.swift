/// The refusals both stores' migration runners make after a custom stage's code, worded once.
extension SwiftDataError {
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
