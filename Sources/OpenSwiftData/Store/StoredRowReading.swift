import Foundation

/// The row a read is on, as a ``RowDecoder`` reads it column by column: an SQLite statement
/// (``RawStatement``), or another database's row converted to stored values.
package protocol StoredRowReading {
    /// The integer at a column index; `nil` for `NULL`.
    func int64(at index: Int32) -> Int64?
    /// The integer at a column index; `nil` when it holds another storage class.
    func integer(at index: Int32) -> Int64?
    /// The real at a column index; `nil` when it holds another storage class.
    func real(at index: Int32) -> Double?
    /// The text at a column index; `nil` when it holds another storage class.
    func text(at index: Int32) -> String?
    /// The UUID at a column index; `nil` when it holds no UUID.
    func uuid(at index: Int32) -> UUID?
    /// Puts the value of the column, decoded by `codec`, at `index` of `values`.
    func read(at column: Int32, as codec: ValueCodec, into values: inout ModelValues, at index: Int) throws
}

/// A row as stored values, one per selected column: what a database without SQLite's C API
/// reads into.
package struct StoredValueRow: StoredRowReading {
    package var values: [StoredValue]
    /// Whether `NULL` in a non-optional attribute's column leaves the model without a value
    /// instead of being refused: a new attribute a migration's custom stage has yet to fill.
    package var readsNullAsUnfilled = false

    package init(_ values: [StoredValue], readsNullAsUnfilled: Bool = false) {
        self.values = values
        self.readsNullAsUnfilled = readsNullAsUnfilled
    }

    package func int64(at index: Int32) -> Int64? {
        if case .integer(let value) = values[Int(index)] { return value }
        return nil
    }

    package func integer(at index: Int32) -> Int64? {
        int64(at: index)
    }

    package func real(at index: Int32) -> Double? {
        if case .real(let value) = values[Int(index)] { return value }
        return nil
    }

    package func text(at index: Int32) -> String? {
        if case .text(let value) = values[Int(index)] { return value }
        return nil
    }

    package func uuid(at index: Int32) -> UUID? {
        guard case .blob(let data) = values[Int(index)] else { return nil }
        return data.withUnsafeBytes { UUID(storedBytes: $0) }
    }

    package func read(at column: Int32, as codec: ValueCodec, into values: inout ModelValues, at index: Int) throws {
        if readsNullAsUnfilled, case .null = self.values[Int(column)], !codec.isOptional { return }
        values[index] = try codec.decode(self.values[Int(column)])
    }
}
