import OpenSwiftData
import PostgresNIO

// Reading rows: a fetch's rows as model values, keys, counts and related rows.
extension PostgresStore {
    package func forEachRow(_ selection: RowSelection, _ body: (Int64, ModelValues) throws -> Void) throws {
        let plan = readPlan(of: selection.table)
        try forEachRow(of: selection.table, plan, try select(plan.selectList, selection), body)
    }

    package func forEachRow(
        _ selection: RowSelection, batchesOf size: Int, expecting needed: Int?,
        _ body: ([(rowID: Int64, values: ModelValues)]) throws -> Bool
    ) throws {
        let plan = readPlan(of: selection.table)
        /// Hands `rows` to `body` a batch at a time; `false` once `body` has enough.
        func deliver(_ rows: [PostgresRow]) throws -> Bool {
            for start in stride(from: 0, to: rows.count, by: size) {
                var batch: [(rowID: Int64, values: ModelValues)] = []
                batch.reserveCapacity(min(size, rows.count - start))
                for row in rows[start..<min(start + size, rows.count)] {
                    let stored = try storedValues(Array(row), plan.storages)
                    let rowID = stored.int64(at: 0) ?? 0
                    batch.append((rowID, try modelValues(selection.table, stored, rowID: rowID)))
                }
                guard try body(batch) else { return false }
            }
            return true
        }
        // `body` may read the store again (a predicate following a relationship): on this
        // thread, such reads share the connection and its transaction.
        try sessions.withSession(sharedWithNestedCalls: true) { session in
            try session.transaction(snapshot: true) {
                guard selection.orderBy != nil, selection.limit == nil, selection.offset == nil, let needed else {
                    // The whole selection, through a cursor, a batch at a time.
                    try session.withCursor(try selectStatement(plan.selectList, selection)) { next in
                        while true {
                            let rows = try next(size)
                            guard !rows.isEmpty, try deliver(rows), rows.count == size else { return }
                        }
                    }
                    return
                }
                // A page of a sorted selection: windows of rows (LIMIT, then OFFSET), each
                // four times the last, in one snapshot. PostgreSQL keeps only a window's best
                // rows as it sorts, and may scan in parallel, which it never does for a cursor.
                var window = max(2 * needed, 32)
                var part = selection
                part.offset = 0
                while true {
                    part.limit = window
                    let rows = try session.query(try selectStatement(plan.selectList, part), repeated: preparesStatements)
                    guard try deliver(rows), rows.count == window else { return }
                    part.offset! += window
                    window *= 4
                }
            }
        }
    }

    package func forEachRow(_ table: TableLayout, rowIDs: [Int64], _ body: (Int64, ModelValues) throws -> Void) throws {
        guard !rowIDs.isEmpty else { return }
        let plan = readPlan(of: table)
        var binds = PostgresBindings()
        binds.append(rowIDs)
        let rows = try select(plan.selectList, from: table, where: "\(table.postgresKeyColumn) = ANY($1)", binds: binds)
        try forEachRow(of: table, plan, rows, body)
    }

    private func forEachRow(
        of table: TableLayout, _ plan: PostgresReadPlan, _ rows: [PostgresRow], _ body: (Int64, ModelValues) throws -> Void
    ) throws {
        for row in rows {
            let stored = try storedValues(Array(row), plan.storages)
            let rowID = stored.int64(at: 0) ?? 0
            try body(rowID, try modelValues(table, stored, rowID: rowID))
        }
    }

    package func forEachRow(_ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, _ body: (Int64, ModelValues) throws -> Void) throws {
        let plan = readPlan(of: table)
        var binds = PostgresBindings()
        binds.append(range.lowerBound)
        binds.append(range.upperBound)
        let rows = try select(plan.selectList, from: table, where: "\(table.postgresKeyColumn) BETWEEN $1 AND $2", binds: binds)
        try forEachRow(of: table, plan, rows, body)
    }

    package func fetchRowIDs(_ selection: RowSelection) throws -> [Int64] {
        try select(selection.table.postgresKeyColumn, selection).map { try $0.decode(Int64.self) }
    }

    package func fetchRowClasses(_ selection: RowSelection) throws -> [(rowID: Int64, entity: String)] {
        let columns = "\(selection.table.postgresKeyColumn), \(selection.table.postgresName).\(PostgresNames.quoted(TableLayout.entityColumn))"
        return try select(columns, selection).map { row in
            let (rowID, entity) = try row.decode((Int64, String?).self)
            return (rowID, entity ?? selection.table.entity.name)
        }
    }

    package func count(_ table: TableLayout, where condition: SQLFragment?) throws -> Int {
        let rows = try select("count(*)", RowSelection(table, where: condition), ordered: false)
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    package func count(_ table: TableLayout, where condition: SQLFragment?, splitBy split: SQLFragment) throws -> (meeting: Int, others: Int) {
        var binds = PostgresBindings()
        let entity = table.entity.name
        let meets = try PostgresSQL.render(split, into: &binds, entity: entity)
        let rendered = try condition.map { try PostgresSQL.render($0, into: &binds, entity: entity) }
        let statement = selectStatement(
            "count(*) FILTER (WHERE coalesce((\(meets)), FALSE)), count(*)", from: table, where: rendered, binds: binds, ordered: false)
        guard let row = try sessions.query(statement, repeated: preparesStatements).first else { return (0, 0) }
        let (meeting, all) = try row.decode((Int64, Int64).self)
        return (Int(meeting), Int(all - meeting))
    }

    package func fetchRelatedRows(
        _ relationship: StoredRelationship, ofRows owners: [Int64], in destination: TableLayout
    ) throws -> [(owner: Int64, row: (rowID: Int64, values: ModelValues))] {
        guard !owners.isEmpty else { return [] }
        let plan = readPlan(of: destination)
        let ownerColumn: String
        var sql = "SELECT \(plan.selectList), "
        switch relationship.storage {
        case .foreignKey(let column), .inverseForeignKey(let column):
            let current = currentColumnNames[destination.entity.name]?[column] ?? column
            ownerColumn = "\(destination.postgresName).\(PostgresNames.quoted(current))"
            sql += "\(ownerColumn) FROM \(destination.postgresName) WHERE \(ownerColumn) = ANY($1)"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let join = PostgresNames.quoted(table)
            ownerColumn = "\(join).\(PostgresNames.quoted(ownColumn))"
            sql += "\(ownerColumn) FROM \(destination.postgresName) JOIN \(join) ON \(join).\(PostgresNames.quoted(otherColumn)) = \(destination.postgresKeyColumn) WHERE \(ownerColumn) = ANY($1)"
        }
        var binds = PostgresBindings()
        binds.append(owners)
        var pairs: [(owner: Int64, row: (rowID: Int64, values: ModelValues))] = []
        for row in try sessions.query(PostgresQuery(unsafeSQL: sql, binds: binds), repeated: preparesStatements) {
            var cells = Array(row)
            let owner = try cells.removeLast().decode(Int64.self)
            let stored = try storedValues(cells, plan.storages)
            let rowID = stored.int64(at: 0) ?? 0
            pairs.append((owner, (rowID, try modelValues(destination, stored, rowID: rowID))))
        }
        return pairs
    }

    /// The value of an `.externalStorage` attribute of one row.
    package func readExternalValue(_ table: TableLayout, _ column: TableLayout.Column, rowID: Int64) throws -> Any? {
        let sideTable = PostgresNames.quoted(TableLayout.unquotedExternalTableName(entity: table.entity.name, attribute: column.name))
        var binds = PostgresBindings()
        binds.append(rowID)
        let rows = try sessions.query(PostgresQuery(
            unsafeSQL: "SELECT \(PostgresValues.selected("\"value\"", for: column.codec.storage)) FROM \(sideTable) WHERE \"_pk\" = $1", binds: binds))
        guard let cell = rows.first?.first else { return try column.codec.decode(.null) }
        return try column.codec.decode(try PostgresValues.stored(cell, as: column.codec.storage))
    }

    /// How rows of `table` are read.
    /// Whether reads may be prepared (``RepeatedStatements``): never while migrating, where a
    /// column may change type under a prepared select.
    private var preparesStatements: Bool { configuration.preparesRepeatedStatements && !isMigrating }

    private func readPlan(of table: TableLayout) -> PostgresReadPlan {
        readPlans.plan(of: table, in: tables, currentNames: currentColumnNames[table.entity.name] ?? [:])
    }

    // MARK: Running selections

    /// The rows of `selection`, each with the columns `columns`, in its order.
    private func select(_ columns: String, _ selection: RowSelection, ordered: Bool = true) throws -> [PostgresRow] {
        try sessions.query(try selectStatement(columns, selection, ordered: ordered), repeated: preparesStatements)
    }

    /// The statement selecting `selection`'s rows, each with the columns `columns`, in its order.
    private func selectStatement(_ columns: String, _ selection: RowSelection, ordered: Bool = true) throws -> PostgresQuery {
        var binds = PostgresBindings()
        let entity = selection.table.entity.name
        let condition = try selection.condition.map { try PostgresSQL.render($0, into: &binds, entity: entity) }
        let orderBy = try selection.orderBy.map { try PostgresSQL.render($0, into: &binds, entity: entity) }
        return selectStatement(
            columns, from: selection.table, where: condition, binds: binds, orderBy: orderBy, ordered: ordered && selection.isOrdered,
            limit: selection.limit, offset: selection.offset)
    }

    /// The rows of `table` meeting `condition` (its placeholders numbered, its values in
    /// `binds`), each with the columns `columns`, after `orderBy` in key order.
    private func select(
        _ columns: String, from table: TableLayout, where condition: String?, binds: PostgresBindings, orderBy: String? = nil,
        ordered: Bool = true, limit: Int? = nil, offset: Int? = nil
    ) throws -> [PostgresRow] {
        try sessions.query(
            selectStatement(columns, from: table, where: condition, binds: binds, orderBy: orderBy, ordered: ordered, limit: limit, offset: offset),
            repeated: preparesStatements)
    }

    /// The statement of ``select(_:from:where:binds:orderBy:ordered:limit:offset:)``.
    private func selectStatement(
        _ columns: String, from table: TableLayout, where condition: String?, binds: PostgresBindings, orderBy: String? = nil,
        ordered: Bool = true, limit: Int? = nil, offset: Int? = nil
    ) -> PostgresQuery {
        var binds = binds
        // Rows come in key order, and ties of a sort keep it, as in the SQLite store.
        let order = " ORDER BY " + (orderBy.map { "\($0), \(table.postgresKeyColumn)" } ?? table.postgresKeyColumn)
        var sql = "FROM \(table.postgresName)"
        if let condition { sql += " WHERE \(condition)" }
        if ordered { sql += order }
        if let limit {
            binds.append(Int64(limit))
            sql += " LIMIT $\(binds.count)"
        }
        if let offset {
            binds.append(Int64(offset))
            sql += " OFFSET $\(binds.count)"
        }
        // A page of a sort: the page's keys first, then its rows. PostgreSQL computes the
        // select list (a jsonb column as text) below the sort, for every row it sorts; this
        // way for the page's rows alone (at 1M rows, a page of 20 by name: 205 -> 125 ms).
        // The outer ORDER BY repeats the inner one, which is total (the key ends it).
        if ordered, orderBy != nil, let limit, limit <= Self.pagedKeysLimit {
            let keys = "SELECT \(table.postgresKeyColumn) \(sql)"
            return PostgresQuery(
                unsafeSQL: "SELECT \(columns) FROM \(table.postgresName) WHERE \(table.postgresKeyColumn) = ANY(ARRAY(\(keys)))\(order)",
                binds: binds)
        }
        return PostgresQuery(unsafeSQL: "SELECT \(columns) \(sql)", binds: binds)
    }

    /// The largest page read keys first (a longer one is a read of most rows, which the
    /// key lookups would only slow).
    private static var pagedKeysLimit: Int { 1_000 }

    /// A row's cells as the stored values the layout's row decoder reads.
    private func storedValues(_ cells: [PostgresCell], _ storages: [StorageType]) throws -> StoredValueRow {
        var values: [StoredValue] = []
        values.reserveCapacity(cells.count)
        for (cell, storage) in zip(cells, storages) {
            values.append(try PostgresValues.stored(cell, as: storage))
        }
        return StoredValueRow(values, readsNullAsUnfilled: readsNullAsUnfilled)
    }
}
