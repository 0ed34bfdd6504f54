import OpenSwiftData
import PostgresNIO

/// Writes one save's rows inside its transaction on PostgreSQL, in the order of the SQLite
/// store's writer: deletes, updates, inserts (upserting on unique constraints), then join rows
/// and the keys of relationships to rows inserted after their owner.
///
/// Inserted models of an entity without uniqueness constraints get their keys from the table's
/// identity sequence in one query before anything is inserted, so their rows go in one `COPY`
/// per table holding every to-one key (the sequence handed the keys out, so none is ever handed
/// out twice).
struct PostgresRowWriter {
    let session: PostgresSession
    let tables: [String: TableLayout]
    let databaseSchema: String
    /// The store's identity sequences, by table.
    let keySequences: KeySequences
    /// The store's history, and who this container is in its commit notifications.
    let history: PostgresHistory
    let commitSender: String
    /// The keys of the rows inserted in this save, by model state.
    private var newRowIDs: [ObjectIdentifier: Int64] = [:]
    /// The inserted models whose `INSERT` held every to-one key.
    private var keysWrittenOnInsert: Set<ObjectIdentifier> = []
    /// The inserted models that took over the stored row holding their unique values.
    private(set) var upserts: [ObjectIdentifier: UpsertMerge] = [:]

    /// How many bytes of rows a `COPY` sends at a time.
    private static let copyChunkBytes = 256 * 1024

    /// PostgreSQL's limit on a statement's parameters.
    private static let maximumParameters = 65_535

    init(
        session: PostgresSession, tables: [String: TableLayout], databaseSchema: String, keySequences: KeySequences,
        history: PostgresHistory, commitSender: String
    ) {
        self.session = session
        self.tables = tables
        self.databaseSchema = databaseSchema
        self.keySequences = keySequences
        self.history = history
        self.commitSender = commitSender
    }

    private func table(of state: ModelState) throws -> TableLayout {
        guard let table = tables[state.layout.entityName] else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(state.layout.entityName) is not in the container's schema; add it to the models the container is created with")
        }
        return table
    }

    func rowID(of state: ModelState) -> Int64? {
        state.rowID ?? newRowIDs[ObjectIdentifier(state)]
    }

    @discardableResult
    private func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        try session.query(PostgresQuery(unsafeSQL: sql, binds: binds))
    }

    // MARK: Deletes

    /// Deletes the rows of `states` table by table, with their join rows (side tables' rows go
    /// with them: `ON DELETE CASCADE`).
    func delete(_ states: [ModelState]) throws {
        var keysByTable: [(TableLayout, [Int64])] = []
        for state in states {
            guard let rowID = state.rowID else { continue }
            let table = try table(of: state)
            if let last = keysByTable.indices.last, keysByTable[last].0 === table {
                keysByTable[last].1.append(rowID)
            } else {
                keysByTable.append((table, [rowID]))
            }
        }
        for (table, keys) in keysByTable {
            var binds = PostgresBindings()
            binds.append(keys)
            try run("DELETE FROM \(table.postgresName) WHERE \(PostgresNames.quoted(TableLayout.primaryKeyColumn)) = ANY($1)", binds)
            for relationship in table.relationships {
                if case .joinTable(let joinTable, let ownColumn, _) = relationship.storage {
                    try run("DELETE FROM \(PostgresNames.quoted(joinTable)) WHERE \(PostgresNames.quoted(ownColumn)) = ANY($1)", binds)
                }
            }
        }
    }

    /// Deletes every row of a table that `condition` selects (all rows for `nil`): a table no
    /// relationship involves. Returns the deleted rows' keys.
    func deleteRows(of table: TableLayout, where condition: SQLFragment?) throws -> [Int64] {
        var binds = PostgresBindings()
        var sql = "DELETE FROM \(table.postgresName)"
        if let condition { sql += " WHERE " + (try PostgresSQL.render(condition, into: &binds, entity: table.entity.name)) }
        sql += " RETURNING \(PostgresNames.quoted(TableLayout.primaryKeyColumn))"
        return try run(sql, binds).map { try $0.decode(Int64.self) }
    }

    // MARK: Updates

    /// Writes the changed columns of the models' rows: the rows of one table that changed the
    /// same columns (a bulk edit, a batch of a migration) in one `UPDATE … FROM (VALUES …)` per
    /// as many rows as the parameter limit allows.
    func update(_ states: [ModelState]) throws {
        var start = states.startIndex
        while start < states.endIndex {
            let first = states[start]
            let table = try table(of: first)
            let changed = table.columns.filter { first.changedProperties.contains($0.propertyIndex) }
            var end = start + 1
            let rowsPerStatement = Self.maximumParameters / (changed.count + 1)
            while end < states.endIndex, end - start < rowsPerStatement, states[end].layout === first.layout,
                  states[end].changedProperties == first.changedProperties {
                end += 1
            }
            let run = states[start..<end].filter { $0.rowID != nil }
            if !changed.isEmpty, !run.isEmpty {
                try updateRows(run, table, columns: changed)
            }
            for state in run {
                try writeExternalValues(state, table, rowID: state.rowID!) { state.changedProperties.contains($0.propertyIndex) }
            }
            start = end
        }
    }

    /// Sets `columns` of each model's row to the model's values, in one statement.
    private func updateRows(_ states: [ModelState], _ table: TableLayout, columns: [TableLayout.Column]) throws {
        if states.count == 1 {
            try updateRow(states[0].rowID!, of: states[0], table, columns: columns, settingClass: false)
            return
        }
        if try updateRowsFromArrays(states, table, columns: columns) { return }
        var binds = PostgresBindings(capacity: states.count * (columns.count + 1))
        var tuples: [String] = []
        tuples.reserveCapacity(states.count)
        for state in states {
            binds.append(state.rowID!)
            var placeholders = ["$\(binds.count)::bigint"]
            for column in columns {
                try bind(state, column, of: table, into: &binds)
                // Typed, so that a row of NULLs still gives the list its columns' types.
                placeholders.append("\(PostgresValues.placeholder(binds.count, for: column.codec.storage))::\(column.codec.storage.postgresType)")
            }
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
        }
        let names = (0...columns.count).map { "c\($0)" }
        let assignments = columns.enumerated().map { "\(PostgresNames.quoted($0.element.name)) = v.c\($0.offset + 1)" }
        let key = PostgresNames.quoted(TableLayout.primaryKeyColumn)
        try run(
            "UPDATE \(table.postgresName) SET \(assignments.joined(separator: ", ")) FROM (VALUES \(tuples.joined(separator: ", "))) AS v(\(names.joined(separator: ", "))) WHERE \(table.postgresName).\(key) = v.c0",
            binds)
    }

    /// Sets `columns` of each model's row from one array per column (`UPDATE … FROM unnest`),
    /// when every value is present and of a type postgres-nio sends as an array; `false`,
    /// writing nothing, otherwise (``updateRows(_:_:columns:)`` then lists them in `VALUES`).
    private func updateRowsFromArrays(_ states: [ModelState], _ table: TableLayout, columns: [TableLayout.Column]) throws -> Bool {
        var binds = PostgresBindings()
        binds.append(states.map { $0.rowID! })
        var arrays = ["$1::bigint[]"]
        for column in columns {
            let values = try states.map { try table.storedValue(of: $0, column) }
            guard let type = Self.appendArray(values, as: column.codec.storage, to: &binds) else { return false }
            arrays.append("$\(binds.count)::\(type)[]")
        }
        let names = (0...columns.count).map { "c\($0)" }
        let assignments = columns.enumerated().map { "\(PostgresNames.quoted($0.element.name)) = v.c\($0.offset + 1)" }
        try run(
            "UPDATE \(table.postgresName) SET \(assignments.joined(separator: ", ")) FROM unnest(\(arrays.joined(separator: ", "))) AS v(\(names.joined(separator: ", "))) WHERE \(table.postgresName).\(PostgresNames.quoted(TableLayout.primaryKeyColumn)) = v.c0",
            binds)
        return true
    }

    /// Appends `values` as one array of their column's type and returns the type; `nil`,
    /// appending nothing, when one is `NULL` (or NaN, or a string with NUL, which the one-row
    /// path refuses by name) or the type is not one postgres-nio sends as an array.
    private static func appendArray(_ values: [StoredValue], as storage: StorageType, to binds: inout PostgresBindings) -> String? {
        func all<T>(_ value: (StoredValue) -> T?) -> [T]? {
            var result: [T] = []
            result.reserveCapacity(values.count)
            for stored in values {
                guard let element = value(stored) else { return nil }
                result.append(element)
            }
            return result
        }
        func integer(_ stored: StoredValue) -> Int64? {
            if case .integer(let int) = stored { return int }
            return nil
        }
        func real(_ stored: StoredValue) -> Double? {
            if case .real(let double) = stored, !double.isNaN { return double }
            return nil
        }
        switch storage {
        case .bool:
            guard let array = all({ integer($0).map { $0 != 0 } }) else { return nil }
            binds.append(array)
            return "boolean"
        case .int8, .int16, .uint8:
            guard let array = all({ integer($0).map { Int16(truncatingIfNeeded: $0) } }) else { return nil }
            binds.append(array)
            return "smallint"
        case .int32, .uint16:
            guard let array = all({ integer($0).map { Int32(truncatingIfNeeded: $0) } }) else { return nil }
            binds.append(array)
            return "integer"
        case .int, .int64, .uint, .uint32, .uint64:
            guard let array = all(integer) else { return nil }
            binds.append(array)
            return "bigint"
        case .double, .date:
            guard let array = all(real) else { return nil }
            binds.append(array)
            return "double precision"
        case .string, .url:
            guard let array = all({ stored -> String? in
                if case .text(let text) = stored, !text.utf8.contains(0) { return text }
                return nil
            }) else { return nil }
            binds.append(array)
            return "text"
        case .float, .decimal, .uuid, .data, .codable:
            return nil
        }
    }

    /// Writes the model's values of `columns` (and with `settingClass` its class) to its row.
    private func updateRow(
        _ rowID: Int64, of state: ModelState, _ table: TableLayout, columns: [TableLayout.Column], settingClass: Bool
    ) throws {
        var binds = PostgresBindings()
        var assignments: [String] = []
        for column in columns {
            try bind(state, column, of: table, into: &binds)
            assignments.append("\(PostgresNames.quoted(column.name)) = \(PostgresValues.placeholder(binds.count, for: column.codec.storage))")
        }
        if settingClass {
            binds.append(table.entity.name)
            assignments.append("\(PostgresNames.quoted(TableLayout.entityColumn)) = $\(binds.count)")
        }
        guard !assignments.isEmpty else { return }
        binds.append(rowID)
        try run("UPDATE \(table.postgresName) SET \(assignments.joined(separator: ", ")) WHERE \(PostgresNames.quoted(TableLayout.primaryKeyColumn)) = $\(binds.count)", binds)
    }

    // MARK: Inserts

    /// Inserts the models' rows and returns their keys, in order. An inserted model whose unique
    /// values match a stored row updates that row and gets its key.
    mutating func insert(_ states: [ModelState]) throws -> [Int64] {
        try reserveKeys(for: states)
        for state in states {
            let table = try table(of: state)
            if !table.entity.uniquenessConstraintsWithInherited.isEmpty {
                newRowIDs[ObjectIdentifier(state)] = try upsert(state, table)
            }
        }
        // One COPY per class, whatever the order of the inserts: every key is known already.
        var byClass: [ObjectIdentifier: [ModelState]] = [:]
        var classes: [ObjectIdentifier] = []
        for state in states {
            let key = ObjectIdentifier(state.layout)
            if byClass[key] == nil { classes.append(key) }
            byClass[key, default: []].append(state)
        }
        for key in classes {
            let run = byClass[key]!
            let table = try table(of: run[0])
            if table.entity.uniquenessConstraintsWithInherited.isEmpty {
                if run.count == 1, rowID(of: run[0]) == nil {
                    try insertRow(run[0], table)
                } else {
                    try insertRows(run, table)
                }
            }
        }
        for state in states {
            let overStoredRow = !upserts.isEmpty && upserts[ObjectIdentifier(state)] != nil
            try writeExternalValues(state, try table(of: state), rowID: rowID(of: state)!) {
                !overStoredRow || state.setsOnUpsert($0.propertyIndex)
            }
        }
        return states.map { rowID(of: $0)! }
    }

    /// Takes keys from each table's identity sequence for the inserted models of entities
    /// without uniqueness constraints, one query per table that gets more than one new row (a
    /// table's only new row gets its key from its own insert, ``insertRow(_:_:)``).
    private mutating func reserveKeys(for states: [ModelState]) throws {
        var byTable: [ObjectIdentifier: (TableLayout, [ModelState])] = [:]
        var order: [ObjectIdentifier] = []
        for state in states {
            let table = try table(of: state)
            guard table.entity.uniquenessConstraintsWithInherited.isEmpty else { continue }
            let key = ObjectIdentifier(tables[table.entity.rootEntity.name] ?? table)
            if byTable[key] == nil { order.append(key) }
            byTable[key, default: (table, [])].1.append(state)
        }
        for key in order {
            let (table, tableStates) = byTable[key]!
            guard tableStates.count > 1 else { continue }
            let sequence = try keySequences.name(of: table.entity.rootEntity.name) { root in
                let qualified = PostgresNames.literal(PostgresNames.qualified(root, in: databaseSchema))
                return try run("SELECT pg_get_serial_sequence(\(qualified), '_pk')").first?.decode(String.self) ?? ""
            }
            var binds = PostgresBindings()
            binds.append(Int64(tableStates.count))
            // One array, not a row per key: decoding 100 000 rows cost more than the insert. The
            // sequence named as a constant: looked up for every key it took 7 times as long.
            let keys = try run(
                "SELECT array_agg(nextval(\(PostgresNames.literal(sequence))::regclass)) FROM generate_series(1, $1)", binds
            ).first?.decode([Int64].self) ?? []
            for (state, rowID) in zip(tableStates, keys) { newRowIDs[ObjectIdentifier(state)] = rowID }
        }
    }

    /// The columns an upserted row is written with, in order: its class in a hierarchy, the
    /// attributes and the to-one keys.
    private func insertColumns(_ table: TableLayout) -> String {
        var names: [String] = []
        if table.hierarchyEntities != nil { names.append(TableLayout.entityColumn) }
        names += table.columns.map(\.name) + table.foreignKeys.map(\.name)
        return names.map(PostgresNames.quoted).joined(separator: ", ")
    }

    /// Appends one inserted row's values (after its key) to `binds` and returns their placeholders.
    private mutating func bindRow(_ state: ModelState, _ table: TableLayout, into binds: inout PostgresBindings) throws -> [String] {
        var placeholders: [String] = []
        if table.hierarchyEntities != nil {
            binds.append(table.entity.name)
            placeholders.append("$\(binds.count)")
        }
        for column in table.columns {
            try bind(state, column, of: table, into: &binds)
            placeholders.append(PostgresValues.placeholder(binds.count, for: column.codec.storage))
        }
        var allKeysKnown = true
        for foreignKey in table.foreignKeys {
            let key = state.foreignKey(foreignKey, rowID: rowID(of:))
            if key == nil { allKeysKnown = false }
            binds.append(key ?? nil)
            placeholders.append("$\(binds.count)")
        }
        if allKeysKnown { keysWrittenOnInsert.insert(ObjectIdentifier(state)) }
        return placeholders
    }

    /// Inserts one model's row in one statement that hands back its key: a save of one new
    /// model is one round trip, not a key taken and then a `COPY`. A key of a new model it
    /// refers to and that has none yet is written with the relationships.
    private mutating func insertRow(_ state: ModelState, _ table: TableLayout) throws {
        var binds = PostgresBindings()
        let placeholders = try bindRow(state, table, into: &binds)
        let key = PostgresNames.quoted(TableLayout.primaryKeyColumn)
        let sql = placeholders.isEmpty
            ? "INSERT INTO \(table.postgresName) DEFAULT VALUES RETURNING \(key)"
            : "INSERT INTO \(table.postgresName) (\(insertColumns(table))) VALUES (\(placeholders.joined(separator: ", "))) RETURNING \(key)"
        newRowIDs[ObjectIdentifier(state)] = try run(sql, binds).first?.decode(Int64.self)
    }

    /// Inserts the rows of models of one table, whose keys are reserved, in one `COPY`.
    private mutating func insertRows(_ states: [ModelState], _ table: TableLayout) throws {
        var columns = [TableLayout.primaryKeyColumn]
        if table.hierarchyEntities != nil { columns.append(TableLayout.entityColumn) }
        columns += table.columns.map(\.name) + table.foreignKeys.map(\.name)
        let entity = table.entity.name
        try session.copy(into: PostgresNames.shortened(table.entity.rootEntity.name), columns: columns.map(PostgresNames.shortened)) { send in
            var rows = PostgresCopyText(capacity: Self.copyChunkBytes + 4096)
            for state in states {
                rows.append(rowID(of: state)!)
                if table.hierarchyEntities != nil {
                    rows.endColumn(lastOfRow: false)
                    try rows.append(entity, attribute: TableLayout.entityColumn, entity: entity)
                }
                for column in table.columns {
                    rows.endColumn(lastOfRow: false)
                    switch table.plainValue(of: state, column) {
                    case .int(let int)?: rows.append(Int64(int))
                    case .double(let double)?: try rows.append(double, attribute: column.name, entity: entity)
                    case .string(let string)?: try rows.append(string, attribute: column.name, entity: entity)
                    case nil: try rows.append(try table.storedValue(of: state, column), as: column.codec.storage, attribute: column.name, entity: entity)
                    }
                }
                var allKeysKnown = true
                for foreignKey in table.foreignKeys {
                    rows.endColumn(lastOfRow: false)
                    switch state.foreignKey(foreignKey, rowID: rowID(of:)) {
                    case .some(.some(let key)): rows.append(key)
                    case .some(nil): rows.appendNull()
                    case nil:
                        allKeysKnown = false
                        rows.appendNull()
                    }
                }
                rows.endColumn(lastOfRow: true)
                if allKeysKnown { keysWrittenOnInsert.insert(ObjectIdentifier(state)) }
                if rows.bytes.count >= Self.copyChunkBytes { send(rows.takeBytes()) }
            }
            if !rows.bytes.isEmpty { send(rows.takeBytes()) }
        }
    }

    /// Inserts a model of an entity with uniqueness constraints, or merges it into the stored
    /// row holding the same unique values (``merge(_:into:_:)``); returns the row's key.
    ///
    /// For an entity with one uniqueness constraint over non-optional attributes (the SQLite
    /// store's upsert case) the insert is `INSERT … ON CONFLICT DO NOTHING`: servers inserting
    /// the same values at once each find the one row, none a unique violation.
    private mutating func upsert(_ state: ModelState, _ table: TableLayout) throws -> Int64 {
        let constraints = table.entity.uniquenessConstraintsWithInherited
        let inOneStatement = table.upsertsInOneStatement && constraints.count == 1 && !table.columns.isEmpty
        if !inOneStatement, let stored = try existingRow(matching: state, table) {
            try merge(state, into: stored, table)
            return stored
        }
        var binds = PostgresBindings()
        let placeholders = try bindRow(state, table, into: &binds)
        // Written again with the relationships: related rows may be upserted after this one.
        keysWrittenOnInsert.remove(ObjectIdentifier(state))
        let columns = insertColumns(table)
        var sql = columns.isEmpty
            ? "INSERT INTO \(table.postgresName) DEFAULT VALUES"
            : "INSERT INTO \(table.postgresName) (\(columns)) VALUES (\(placeholders.joined(separator: ", ")))"
        if inOneStatement { sql += " ON CONFLICT (\(constraints[0].map(PostgresNames.quoted).joined(separator: ", "))) DO NOTHING" }
        if let row = try run(sql + " RETURNING \(PostgresNames.quoted(TableLayout.primaryKeyColumn))", binds).first {
            return try row.decode(Int64.self)
        }
        guard let stored = try existingRow(matching: state, table) else {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(table.entity.name) was upserted but no row holds its unique values; nothing was saved")
        }
        try merge(state, into: stored, table)
        return stored
    }

    /// Writes an inserted model over the stored row holding its unique values: the attributes
    /// it sets that differ, and its class; its relationships follow with everyone's
    /// (``writeRelationships(inserted:updated:)``).
    private mutating func merge(_ state: ModelState, into rowID: Int64, _ table: TableLayout) throws {
        var storages = table.columns.map(\.codec.storage) + table.foreignKeys.map { _ in StorageType.int64 }
        if table.hierarchyEntities != nil { storages.append(.string) }
        let selected = zip(UpsertMerge.storedColumnNames(of: table), storages).map { PostgresValues.selected(PostgresNames.quoted($0), for: $1) }
        var binds = PostgresBindings()
        binds.append(rowID)
        let rows = try run(
            "SELECT \(selected.joined(separator: ", ")) FROM \(table.postgresName) WHERE \(PostgresNames.quoted(TableLayout.primaryKeyColumn)) = $1 FOR UPDATE",
            binds)
        let stored = try zip(rows.first.map(Array.init) ?? [], storages).map { try PostgresValues.stored($0, as: $1) }
        let merge = try UpsertMerge(state, table, rowID: rowID, stored: stored, rowIDOf: rowID(of:))
        try updateRow(rowID, of: state, table, columns: merge.changedColumns.map { table.columns[$0] }, settingClass: merge.changesClass)
        upserts[ObjectIdentifier(state)] = merge
    }

    /// The row that already holds the values of one of the entity's uniqueness constraints
    /// (`NULL` matching `NULL`, as SwiftData's constraints do).
    private func existingRow(matching state: ModelState, _ table: TableLayout) throws -> Int64? {
        constraints: for constraint in table.entity.uniquenessConstraintsWithInherited {
            var binds = PostgresBindings()
            var conditions: [String] = []
            for name in constraint {
                if let index = table.columnIndexByName[name] {
                    let column = table.columns[index]
                    try bind(state, column, of: table, into: &binds)
                    conditions.append("\(PostgresNames.quoted(name)) IS NOT DISTINCT FROM \(PostgresValues.placeholder(binds.count, for: column.codec.storage))")
                } else if let foreignKey = table.foreignKeys.first(where: { $0.name == name }) {
                    guard let key = state.foreignKey(foreignKey, rowID: rowID(of:)) else { continue constraints }
                    binds.append(key)
                    conditions.append("\(PostgresNames.quoted(name)) IS NOT DISTINCT FROM $\(binds.count)")
                }
            }
            guard !conditions.isEmpty else { continue }
            let rows = try run(
                "SELECT \(PostgresNames.quoted(TableLayout.primaryKeyColumn)) FROM \(table.postgresName) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1",
                binds)
            if let row = rows.first { return try row.decode(Int64.self) }
        }
        return nil
    }

    /// Appends the model's value for `column`, as its column stores it.
    private func bind(_ state: ModelState, _ column: TableLayout.Column, of table: TableLayout, into binds: inout PostgresBindings) throws {
        let stored = try table.storedValue(of: state, column)
        try PostgresValues.bind(stored, as: column.codec.storage, into: &binds, attribute: column.name, entity: table.entity.name)
    }

    private func writeExternalValues(
        _ state: ModelState, _ table: TableLayout, rowID: Int64, where include: (TableLayout.Column) -> Bool
    ) throws {
        for column in table.externalColumns where include(column) {
            let sideTable = PostgresNames.quoted(TableLayout.unquotedExternalTableName(entity: table.entity.name, attribute: column.name))
            var binds = PostgresBindings()
            binds.append(rowID)
            try bind(state, column, of: table, into: &binds)
            let key = PostgresNames.quoted(TableLayout.primaryKeyColumn)
            try run(
                "INSERT INTO \(sideTable) (\(key), \"value\") VALUES ($1, \(PostgresValues.placeholder(2, for: column.codec.storage))) ON CONFLICT (\(key)) DO UPDATE SET \"value\" = excluded.\"value\"",
                binds)
        }
    }

    // MARK: Relationships

    /// Deletes the stored links of the to-many relationships inserted models set over the
    /// stored rows they took over through a unique constraint: their join rows, and the keys
    /// other rows hold to them that their values do not.
    func clearLinks(ofUpserted states: [ModelState]) throws {
        for state in states {
            guard let merge = upserts[ObjectIdentifier(state)] else { continue }
            for relationship in try table(of: state).relationships
            where state.setsOnUpsert(relationship.propertyIndex) && state.holdsLoadedValue(of: relationship) {
                var binds = PostgresBindings()
                binds.append(merge.rowID)
                switch relationship.storage {
                case .joinTable(let joinTable, let ownColumn, _):
                    try run("DELETE FROM \(PostgresNames.quoted(joinTable)) WHERE \(PostgresNames.quoted(ownColumn)) = $1", binds)
                case .inverseForeignKey(let column):
                    guard let destination = tables[relationship.destination] else { continue }
                    binds.append(state.relatedRowIDs(relationship, rowID: rowID(of:)))
                    let key = PostgresNames.quoted(TableLayout.primaryKeyColumn)
                    try run(
                        "UPDATE \(destination.postgresName) SET \(PostgresNames.quoted(column)) = NULL WHERE \(PostgresNames.quoted(column)) = $1 AND NOT (\(key) = ANY($2))",
                        binds)
                case .foreignKey:
                    break
                }
            }
        }
    }

    /// Writes the to-one keys not written on insert and the join rows of the models; for
    /// updated ones only those of relationships they changed. Join rows go in one statement
    /// per join table.
    func writeRelationships(inserted: [ModelState], updated: [ModelState]) throws {
        // By join table and the side's own column: the two sides of a many-to-many share a table.
        var pairs: [JoinSide: (owners: [Int64], others: [Int64])] = [:]
        var clearedOwners: [JoinSide: [Int64]] = [:]
        for (states, onlyChanged) in [(inserted, false), (updated, true)] {
            for state in states where !state.layout.relationshipIndices.isEmpty {
                guard let rowID = rowID(of: state) else { continue }
                let table = try table(of: state)
                let overStoredRow = !onlyChanged && !upserts.isEmpty && upserts[ObjectIdentifier(state)] != nil
                for relationship in state.relationshipsToWrite(in: table, onlyChanged: onlyChanged, overStoredRow: overStoredRow) {
                    switch relationship.storage {
                    case .foreignKey(let column):
                        if !onlyChanged, keysWrittenOnInsert.contains(ObjectIdentifier(state)) { continue }
                        var binds = PostgresBindings()
                        binds.append(state.foreignKey(relationship, rowID: rowID(of:)) ?? nil)
                        binds.append(rowID)
                        try run("UPDATE \(table.postgresName) SET \(PostgresNames.quoted(column)) = $1 WHERE \(PostgresNames.quoted(TableLayout.primaryKeyColumn)) = $2", binds)
                    case .inverseForeignKey:
                        break
                    case .joinTable(let joinTable, let ownColumn, let otherColumn):
                        let side = JoinSide(table: joinTable, own: ownColumn, other: otherColumn)
                        if onlyChanged { clearedOwners[side, default: []].append(rowID) }
                        let others = state.relatedRowIDs(relationship, rowID: rowID(of:))
                        pairs[side, default: ([], [])].owners += Array(repeating: rowID, count: others.count)
                        pairs[side, default: ([], [])].others += others
                    }
                }
            }
        }
        // Every side's old rows go before any new row is written: the other side may write one.
        for (side, owners) in clearedOwners.sorted(by: { $0.key.order < $1.key.order }) {
            var binds = PostgresBindings()
            binds.append(owners)
            try run("DELETE FROM \(PostgresNames.quoted(side.table)) WHERE \(PostgresNames.quoted(side.own)) = ANY($1)", binds)
        }
        for (side, rows) in pairs.sorted(by: { $0.key.order < $1.key.order }) where !rows.owners.isEmpty {
            var binds = PostgresBindings()
            binds.append(rows.owners)
            binds.append(rows.others)
            try run(
                "INSERT INTO \(PostgresNames.quoted(side.table)) (\(PostgresNames.quoted(side.own)), \(PostgresNames.quoted(side.other))) SELECT * FROM unnest($1::bigint[], $2::bigint[]) ON CONFLICT DO NOTHING",
                binds)
        }
    }

    /// One side of a join table: the column holding the owner's key, and the other's.
    private struct JoinSide: Hashable {
        let table: String
        let own: String
        let other: String

        var order: String { table + "\u{0}" + own }
    }
}
