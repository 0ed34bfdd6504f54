import Foundation
import GRDB

/// The migration a custom stage's `didMigrate` runs in: the connection, the old version's
/// schema, and the old tables kept beside the rebuilt ones, so a typed transform can read each
/// model as it was. The container of the context `didMigrate` is given holds it.
final class MigrationSession: @unchecked Sendable {
    private let db: Database
    private let oldSchema: Schema
    private let retainedTables: [String: String]
    private let identifier: String
    private let url: URL
    /// Reports the rows a transform has visited: the entity, rows done, rows in all.
    let reportRows: ((String, Int, Int) -> Void)?

    init(
        db: Database, oldSchema: Schema, retainedTables: [String: String], identifier: String, url: URL,
        reportRows: ((String, Int, Int) -> Void)? = nil
    ) {
        self.reportRows = reportRows
        self.db = db
        self.oldSchema = oldSchema
        self.retainedTables = retainedTables
        self.identifier = identifier
        self.url = url
    }

    /// A context over the store as the old version saw it.
    func oldContext() -> ModelContext {
        let store = SQLiteStore(
            migrating: db, schema: oldSchema, identifier: identifier, location: .file(url), storedNames: retainedTables)
        return ModelContext(ModelContainer(migrating: store))
    }
}
