/// Which rows of a table a read selects, and in what order: what a fetch asks the store for.
package struct RowSelection {
    package let table: TableLayout
    /// The SQL condition rows must meet; `nil` for every row.
    package var condition: SQLFragment?
    /// The SQL `ORDER BY` terms; rows come in key order after them (and without them).
    package var orderBy: SQLFragment?
    package var limit: Int?
    package var offset: Int?
    /// Whether the rows come in key order after ``orderBy``; `false` where order cannot matter
    /// (at most one row matches), and the store adds no `ORDER BY`.
    package var isOrdered = true

    package init(_ table: TableLayout, where condition: SQLFragment? = nil, orderBy: SQLFragment? = nil, limit: Int? = nil, offset: Int? = nil) {
        self.table = table
        self.condition = condition
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }
}
