import Foundation

/// The errors an import of an Apple store throws, worded alike with the app's models and with
/// the store's own: each names what went wrong and where, and says the Apple store is as it was.
enum AppleStoreImportFailure {
    /// Runs `body`, placing a value's failure (``AppleImportedValue/Failure``) at its entity,
    /// property, row and column.
    static func placed<T>(entity: String, property: String, row: Int64, column: String, table: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as AppleImportedValue.Failure {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(entity).\(property) of the Apple store's row \(row) (column \(column) of \(table)): \(failure.description); nothing was written")
        }
    }

    /// A link of `entity`'s `relationship`, found at `place`, naming a row the Apple store does
    /// not have.
    static func dangling(_ entity: String, _ relationship: String, at place: String, names row: Int64, of table: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "\(entity).\(relationship): \(place) names row \(row) of \(table), which the Apple store does not have (osd check lists such links); nothing was written")
    }

    /// A difference the check after an import found between the new store and the Apple store.
    static func difference(_ what: String) -> SwiftDataError {
        SwiftDataError.loadIssueModelContainer.explaining(
            "the import's check found a difference: \(what); the new store was not kept, and the Apple store is as it was")
    }
}
