import GRDB

extension TableLayout: ColumnResolving {
    /// The column of a stored attribute, for predicates and sorts over the entity's table.
    func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
        storedColumn(for: keyPath).map { column in
            ResolvedColumn(sql: "\(tableName).\(column.name.quotedDatabaseIdentifier)", codec: column.codec)
        }
    }
}
