/// The changes of one save, as a context hands them to a store.
package struct StoreChanges {
    package var inserted: [ModelState] = []
    package var updated: [ModelState] = []
    package var deleted: [ModelState] = []
    /// Every row of the table the condition selects (all rows for `nil`), deleted by SQL
    /// without loading models, the way `kind` says.
    package var batchDeletes: [BatchDelete] = []
    /// The saving context's `author`, which the store's history records.
    package var author: String?

    init() {}
}

/// Every row of a table a condition selects (all rows for `nil`), deleted by SQL without
/// loading models, the way `kind` says.
package typealias BatchDelete = (table: TableLayout, condition: SQLFragment?, kind: BatchDeleteKind)

/// How the rows of a batch delete go.
package enum BatchDeleteKind {
    /// One `DELETE`, for a table no relationship involves. With `reportingKeys`, the keys of
    /// the deleted rows come back in ``SavedChanges/deletedRowIDs``.
    case oneStatement(reportingKeys: Bool)
    /// With the delete rules of the relationships involved applied in SQL.
    case applyingDeleteRules
}

/// What a save wrote.
package struct SavedChanges {
    /// The primary key of each inserted model, in order.
    package var insertedRowIDs: [Int64] = []
    /// The keys of the rows batch deletes removed, by entity, for those that report them.
    package var deletedRowIDs: [String: [Int64]] = [:]
    /// The inserts that took over the stored row holding their unique values, by their position
    /// in the save's inserts, with the properties each changed there (``UpsertMerge``): the
    /// context gives those models the row's values of the properties they do not set.
    package var upserts: [Int: [String]] = [:]
    /// The number of the history transaction the save recorded; `nil` when it recorded none.
    package var historyTransaction: Int64?

    package init() {}
}
