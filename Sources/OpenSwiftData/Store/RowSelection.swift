import GRDB

/// Which rows of a table a read selects, and in what order: what a fetch asks the store for.
package struct RowSelection {
    package let table: TableLayout
    /// The SQL condition rows must meet; `nil` for every row.
    package var condition: SQLFragment?
    /// The SQL `ORDER BY` terms; rows come in key order after them (and without them).
    package var orderBy: SQLFragment?
    package var limit: Int?
    package var offset: Int?

    package init(_ table: TableLayout, where condition: SQLFragment? = nil, orderBy: SQLFragment? = nil, limit: Int? = nil, offset: Int? = nil) {
        self.table = table
        self.condition = condition
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }

    /// The `SELECT` of `columns` for these rows, with its arguments; `ordered: false` leaves
    /// the order to SQLite (for a count).
    func sql(columns: String, ordered: Bool = true) -> (String, [DatabaseValue]) {
        var sql = "SELECT \(columns) FROM \(table.tableName)"
        var arguments: [DatabaseValue] = []
        if let condition {
            sql += " WHERE \(condition.sqlite)"
            arguments += condition.databaseValues
        }
        if ordered {
            // Rows come in key order, and ties of a sort keep it, as a stable sort in memory would.
            let key = table.qualifiedKeyColumn
            sql += " ORDER BY " + (orderBy.map { "\($0.sqlite), \(key)" } ?? key)
        }
        if limit != nil || offset != nil {
            sql += " LIMIT ? OFFSET ?"
            arguments += [(limit ?? -1).databaseValue, (offset ?? 0).databaseValue]
        }
        return (sql, arguments)
    }
}
