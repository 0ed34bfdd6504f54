/// An inserted model written over the stored row that holds its unique values, as SwiftData
/// resolves a unique conflict, property by property: the model's values win for the properties
/// it sets (``ModelState/setsOnUpsert(_:)``), and every other stored value and link stays.
/// Each store's writer reads the row's columns (``storedColumnNames(of:)``), works out the merge
/// here, and writes only what it says.
package struct UpsertMerge {
    /// The row the model takes over.
    package let rowID: Int64
    /// The attribute columns (indices into the table's columns) the model sets whose stored
    /// value differs: what the row's `UPDATE` writes.
    package let changedColumns: [Int]
    /// Whether the row is of another class of the hierarchy: it becomes the model's class.
    package let changesClass: Bool
    /// The properties history records the upsert as updating: the changed attributes, the
    /// `.externalStorage` attributes it sets, the to-one relationships it points elsewhere and
    /// the to-many relationships it sets.
    package let updatedProperties: [String]

    /// The columns a writer reads of the stored row, in order: the attributes kept in the
    /// table, the to-one keys, and for a class of a hierarchy the row's class.
    package static func storedColumnNames(of table: TableLayout) -> [String] {
        table.columns.map(\.name) + table.foreignKeys.map(\.name) + (table.hierarchyEntities == nil ? [] : [TableLayout.entityColumn])
    }

    /// - Parameters:
    ///   - stored: the row's values of ``storedColumnNames(of:)``, in order.
    ///   - rowIDOf: the key of a model's row, counting rows inserted earlier in the save.
    package init(
        _ state: ModelState, _ table: TableLayout, rowID: Int64, stored: [StoredValue], rowIDOf: (ModelState) -> Int64?
    ) throws {
        self.rowID = rowID
        guard stored.count == Self.storedColumnNames(of: table).count else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(table.entity.name) was upserted over row \(rowID), which another connection removed meanwhile; nothing was saved. Save again")
        }
        var changedColumns: [Int] = []
        var updated: [Int] = []
        for (offset, column) in table.columns.enumerated() where state.setsOnUpsert(column.propertyIndex) {
            if try table.storedValue(of: state, column) != stored[offset] {
                changedColumns.append(offset)
                updated.append(column.propertyIndex)
            }
        }
        for column in table.externalColumns where state.setsOnUpsert(column.propertyIndex) {
            updated.append(column.propertyIndex)
        }
        for relationship in table.relationships where state.setsOnUpsert(relationship.propertyIndex) {
            if let offset = table.foreignKeys.firstIndex(where: { $0.propertyIndex == relationship.propertyIndex }) {
                // `nil`: a model with no row yet, so another row than the stored key's.
                let key = state.foreignKey(relationship, rowID: rowIDOf)
                let storedKey: Int64? = if case .integer(let key) = stored[table.columns.count + offset] { key } else { nil }
                if key.map({ $0 != storedKey }) ?? true { updated.append(relationship.propertyIndex) }
            } else {
                updated.append(relationship.propertyIndex)
            }
        }
        self.changedColumns = changedColumns
        changesClass = table.hierarchyEntities != nil && stored.last != .text(table.entity.name)
        updatedProperties = updated.sorted().map { state.layout.properties[$0].name }
    }
}
