
/// The values a store holds in its entities' tables: what a migration check compares before
/// and after.
package struct StoredRows {
    /// By entity, then row key: each row's values by column name.
    let tables: [String: [Int64: [String: StoredValue]]]

    package init(tables: [String: [Int64: [String: StoredValue]]]) {
        self.tables = tables
    }
}
