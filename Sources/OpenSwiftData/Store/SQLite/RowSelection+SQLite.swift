import GRDB

extension RowSelection {
    /// The `SELECT` of `columns` for these rows, with its arguments; `ordered: false` leaves
    /// the order to SQLite (for a count).
    func sql(columns: String, ordered: Bool = true) -> (String, [DatabaseValue]) {
        var sql = "SELECT \(columns) FROM \(table.tableName)"
        var arguments: [DatabaseValue] = []
        if let condition {
            sql += " WHERE \(condition.sqlite)"
            arguments += condition.databaseValues
        }
        if ordered && isOrdered {
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
