/// Where a model's stored attribute lives: an SQL expression (e.g. a quoted column `"title"`)
/// and the codec that converts its Swift values. Supplied by the store layer.
///
/// The translators use the codec twice: its ``ValueCodec/storage`` tells them how the column
/// compares and sorts, and captured values compared with the column are encoded with it, so a
/// `Date`, `UUID` or enum in a predicate is bound exactly as the column stores it.
struct ResolvedColumn {
    let sql: String
    let codec: ValueCodec
}

/// Maps the key paths found in predicates and sort descriptors to stored columns.
protocol ColumnResolving {
    /// The column for a key path rooted at the model type, or nil when the key path names
    /// nothing stored (a computed or @Transient property).
    func column(for keyPath: AnyKeyPath) -> ResolvedColumn?
}

/// A key path as messages show it: `\Film.title`, and the column it resolved to when it did.
///
/// Key paths to computed properties (which `@Model` attributes are) print without their name
/// on Linux, as `\Film.<computed 0x… (String)>`; the column name then says which attribute is
/// meant.
func describeKeyPath(_ keyPath: AnyKeyPath, column: ResolvedColumn? = nil) -> String {
    let text = "\(keyPath)"
    guard let column else {
        if text.contains("<computed") {
            return text + " (a computed property, whose name Swift does not record on this platform)"
        }
        return text
    }
    return "\(text) (column \(column.sql))"
}
