import Foundation
import GRDB

// Reading rows: a fetch's rows as model values, keys, counts and related rows.
extension SQLiteStore {
    /// Calls `body` with each selected row, in order: its primary key and its model values.
    func forEachRow(_ selection: RowSelection, _ body: (Int64, ModelValues) throws -> Void) throws {
        try forEachSelectedRow(selection) { rowID, row in
            try body(rowID, try modelValues(selection.table, row, rowID: rowID))
        }
    }

    func forEachRow(
        _ selection: RowSelection, batchesOf size: Int, expecting needed: Int?,
        _ body: ([(rowID: Int64, values: ModelValues)]) throws -> Bool
    ) throws {
        // `body` may read the store again (a predicate following a relationship), which a
        // read in progress does not allow: the rows are read first. SQLite runs every
        // condition exactly, so no fetch of its narrows and streams.
        var rows: [(rowID: Int64, values: ModelValues)] = []
        try forEachRow(selection) { rows.append(($0, $1)) }
        for start in stride(from: 0, to: rows.count, by: max(size, 1)) {
            guard try body(Array(rows[start..<min(start + max(size, 1), rows.count)])) else { return }
        }
    }

    /// Calls `body` with each selected row, in order, as SQLite has it: its primary key and the
    /// statement on the row, whose columns are `columns` (by default the table's `selectList`),
    /// the key first.
    func forEachSelectedRow(
        _ selection: RowSelection, columns: String? = nil, reusable: Bool = false,
        _ body: (Int64, RawStatement) throws -> Void
    ) throws {
        let (sql, arguments) = selection.sql(columns: columns ?? selection.table.selectList)
        try read { db in
            try RawStatement(sql: sql, in: db, reusable: reusable).forEachRow(arguments) { row in
                try body(row.int64(at: 0) ?? 0, row)
            }
        }
    }

    /// Calls `body` with each row of an entity that has one of the keys, in key order; keys
    /// with no row are skipped.
    func forEachRow(_ table: TableLayout, rowIDs: [Int64], _ body: (Int64, ModelValues) throws -> Void) throws {
        try forEachRow(RowSelection(table, where: table.keyIsOne(of: rowIDs)), body)
    }

    /// Calls `body` with each row of an entity whose key is in `range`, in key order: a walk
    /// through a table in slices needs no list of keys, and one prepared statement, kept on
    /// the connection, serves every slice.
    func forEachRow(_ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, _ body: (Int64, ModelValues) throws -> Void) throws {
        try forEachSelectedRow(RowSelection(table, where: Self.keys(of: table, in: range)), reusable: true) { rowID, row in
            try body(rowID, try modelValues(table, row, rowID: rowID))
        }
    }

    /// ``forEachRow(_:rowIDsIn:_:)`` that also reads each row as `other` does (a decoder
    /// ``TableLayout/rowDecoder(readingRowsOf:)`` made for this table), handing `body` both
    /// values: a transform's old and new model of one row, from one read.
    func forEachRow(
        _ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, alsoReadAs other: RowDecoder,
        _ body: (_ rowID: Int64, _ values: ModelValues, _ otherValues: ModelValues) throws -> Void
    ) throws {
        try forEachSelectedRow(RowSelection(table, where: Self.keys(of: table, in: range)), reusable: true) { rowID, row in
            let values = try modelValues(table, row, rowID: rowID)
            try body(rowID, values, try other.values(of: row, sharing: values))
        }
    }

    /// The condition that the key of a row of `table` is in `range`.
    static func keys(of table: TableLayout, in range: ClosedRange<Int64>) -> SQLFragment {
        "\(table.keyColumn) BETWEEN \(SQLFragment.argument(.integer(range.lowerBound))) AND \(SQLFragment.argument(.integer(range.upperBound)))"
    }

    /// The value of an `.externalStorage` attribute of one row.
    func readExternalValue(_ table: TableLayout, _ column: TableLayout.Column, rowID: Int64) throws -> Any? {
        let stored = try read { db in
            try DatabaseValue.fetchOne(db.cachedStatement(sql: table.readExternalValueSQL(column)), arguments: [rowID])
        }
        return try column.codec.decode(StoredValue(stored ?? .null))
    }

    /// The primary keys of the selected rows.
    func fetchRowIDs(_ selection: RowSelection) throws -> [Int64] {
        // Read through the C API: GRDB's cursor cost twice SQLite's own step per key, and a
        // transform or `fetch(_:batchSize:)` over a large table reads a key for every row.
        var rowIDs: [Int64] = []
        try forEachSelectedRow(selection, columns: TableLayout.primaryKeyColumn.quotedDatabaseIdentifier) { rowID, _ in
            rowIDs.append(rowID)
        }
        return rowIDs
    }

    /// The primary keys of the selected rows of a hierarchy's table, with the entity each row
    /// is of.
    func fetchRowClasses(_ selection: RowSelection) throws -> [(rowID: Int64, entity: String)] {
        var rows: [(Int64, String)] = []
        let columns = [TableLayout.primaryKeyColumn, TableLayout.entityColumn].map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        try forEachSelectedRow(selection, columns: columns) { rowID, row in
            rows.append((rowID, row.text(at: 1) ?? selection.table.entity.name))
        }
        return rows
    }

    /// The number of an entity's matching rows.
    func count(_ table: TableLayout, where condition: SQLFragment?, splitBy split: SQLFragment) throws -> (meeting: Int, others: Int) {
        // Two counts: SQLite runs every condition exactly, so no fetch of its splits a count.
        (try count(table, where: SQLFragment.allOf([condition, split])),
         try count(table, where: SQLFragment.allOf([condition, SQLFragment.excluding(split)])))
    }

    func count(_ table: TableLayout, where condition: SQLFragment?) throws -> Int {
        let (sql, arguments) = RowSelection(table, where: condition).sql(columns: "COUNT(*)", ordered: false)
        return try read { db in
            try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) ?? 0
        }
    }
}
