import Foundation

/// The migration a custom stage's `didMigrate` runs in, as a typed transform needs it: a
/// context over the store as the old version saw it (its rows still readable beside the new
/// structure, in the same transaction), and where to report the rows visited. The container of
/// the context `didMigrate` is given holds it; each store makes its own (the SQLite store over
/// its kept old tables, the PostgreSQL store over columns whose drop waits for the stage).
package final class MigrationSession: @unchecked Sendable {
    private let makeOldContext: () -> ModelContext
    /// Reports the rows a transform has visited: the entity, rows done, rows in all.
    let reportRows: ((String, Int, Int) -> Void)?

    /// - Parameters:
    ///   - oldContext: makes a context over the store as the old version saw it.
    ///   - reportRows: called after each batch a transform visits: entity, rows done, in all.
    package init(oldContext: @escaping () -> ModelContext, reportRows: ((String, Int, Int) -> Void)? = nil) {
        makeOldContext = oldContext
        self.reportRows = reportRows
    }

    /// A context over the store as the old version saw it.
    func oldContext() -> ModelContext {
        makeOldContext()
    }
}
