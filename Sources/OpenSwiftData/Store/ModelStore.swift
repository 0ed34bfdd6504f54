/// The seam between contexts and a database: what a container's contexts ask of a store,
/// whichever database holds it. ``SQLiteStore`` is the first; the PostgreSQL store is another
/// package's.
///
/// Everything crosses it as model values, table layouts and the Query layer's SQL fragments,
/// which a store renders in its own dialect (``SQLDialect``): it runs the functions and
/// collations the fragments call only where ``canRun(_:)`` says so (the context answers in memory what
/// would need them elsewhere). Every save is one transaction.
package protocol ModelStore: AnyObject, Sendable {
    /// The identifier recorded in the store, part of every identifier of its models.
    var identifier: String { get }
    var schema: Schema { get }
    var isReadOnly: Bool { get }
    /// The layout of each entity's table, by entity name.
    var tables: [String: TableLayout] { get }
    /// Whether a save's batch deletes of ``BatchDeleteKind/applyingDeleteRules`` run in the
    /// store (cascading, denying, clearing keys in SQL); when not, the context deletes such
    /// models one by one, applying the rules itself.
    var appliesDeleteRules: Bool { get }
    /// How many contexts the store serves at once (its connections); more wait their turn.
    var concurrentUses: Int { get }
    /// Closes the store's connections to its database, once no call is using them; every
    /// later use throws, saying the container was closed. A file store closes its file when
    /// released, and does nothing here.
    func close()
    /// How many queries the store has run, when ``SQLiteStore/countsQueries`` was on as it
    /// opened: what shows that a fetch with prefetching runs one query per relationship.
    var executedQueryCount: Int { get }
    /// Whether the store's database can run `sql`, a condition or order of the Query layer:
    /// `false` when it calls a function or collation the database lacks.
    func canRun(_ sql: SQLFragment) -> Bool
    /// `condition` as the store's database can run it, erring toward `bound`
    /// (``SQLFragment/narrowed(in:toward:)``): the condition itself where it runs exactly; `nil`
    /// when it cannot be narrowed.
    func narrowed(_ condition: SQLFragment, toward bound: SQLBound) -> SQLFragment?
    /// The layouts reading rows as other classes of an entity's name.
    var otherClassTables: OtherClassTables { get }

    /// Calls `body` with each selected row, in order: its primary key and its model values.
    func forEachRow(_ selection: RowSelection, _ body: (Int64, ModelValues) throws -> Void) throws
    /// Calls `body` with the selected rows in order, at most `size` at a time, read from the
    /// database as they are needed, until `body` returns `false` or the rows run out: a read
    /// that may stop early, with memory bounded by a batch.
    ///
    /// - Parameter needed: How many rows the caller expects to use, when it knows (a page);
    ///   a hint, never a limit.
    func forEachRow(
        _ selection: RowSelection, batchesOf size: Int, expecting needed: Int?,
        _ body: ([(rowID: Int64, values: ModelValues)]) throws -> Bool
    ) throws
    /// Calls `body` with each row of an entity that has one of the keys, in key order.
    func forEachRow(_ table: TableLayout, rowIDs: [Int64], _ body: (Int64, ModelValues) throws -> Void) throws
    /// Calls `body` with each row of an entity whose key is in `range`, in key order.
    func forEachRow(_ table: TableLayout, rowIDsIn range: ClosedRange<Int64>, _ body: (Int64, ModelValues) throws -> Void) throws
    /// The value of an `.externalStorage` attribute of one row.
    func readExternalValue(_ table: TableLayout, _ column: TableLayout.Column, rowID: Int64) throws -> Any?
    /// The primary keys of the selected rows.
    func fetchRowIDs(_ selection: RowSelection) throws -> [Int64]
    /// The primary keys of the selected rows of a hierarchy's table, with each row's entity.
    func fetchRowClasses(_ selection: RowSelection) throws -> [(rowID: Int64, entity: String)]
    /// The number of an entity's matching rows.
    func count(_ table: TableLayout, where condition: SQLFragment?) throws -> Int
    /// The number of an entity's rows meeting `condition` that meet `split`, and of the
    /// others, from one read of the table where the database allows.
    func count(_ table: TableLayout, where condition: SQLFragment?, splitBy split: SQLFragment) throws -> (meeting: Int, others: Int)
    /// The rows of `destination` that a to-many relationship holds for each of the rows
    /// `owners`, as (owner, row) pairs, in one query.
    func fetchRelatedRows(
        _ relationship: StoredRelationship, ofRows owners: [Int64], in destination: TableLayout
    ) throws -> [(owner: Int64, row: (rowID: Int64, values: ModelValues))]

    /// Writes the changes in one transaction: batch deletes, deletes, updates, inserts (an
    /// inserted model whose unique values match a stored row updates it), then relationships.
    /// Nothing is written when anything fails.
    func save(_ changes: StoreChanges) throws -> SavedChanges
    /// Deletes every row of every entity, keeping the tables.
    func eraseAllRows() throws
    /// Calls `listener` after commits to the store, until the returned watch is cancelled.
    func watchCommits(_ listener: @escaping @Sendable () -> Void) throws -> CommitWatcher.Watch

    /// The number of the last history transaction, and the one deleteHistory removed
    /// transactions through (0 for none).
    func historyPosition() throws -> (last: Int64, prunedThrough: Int64)
    /// The transactions after `transaction`, in order, and where the history was pruned through.
    func historySummaries(after transaction: Int64) throws -> (summaries: [StoreHistory.Summary], prunedThrough: Int64)
    /// The history transactions `condition` selects, in one read; `check` sees where the
    /// history was pruned through first, and may throw.
    func readHistory(
        where condition: SQLFragment?, orderBy: SQLFragment?, limit: Int?, checkingPrunedThrough check: (Int64) throws -> Void
    ) throws -> [StoreHistory.Transaction]
    /// Deletes the history transactions `condition` selects.
    func deleteHistory(where condition: SQLFragment?) throws
}

extension ModelStore {
    package func close() {}

    /// The layout reading the rows of entity `name` as `modelType`; `nil` when the store has no
    /// such entity.
    ///
    /// - Throws: ``OtherClassReadRefusal`` naming each property the rows cannot give a value.
    func table(forEntity name: String, readingRowsAs modelType: any PersistentModel.Type) throws(OtherClassReadRefusal) -> TableLayout? {
        guard let table = tables[name] else { return nil }
        return try otherClassTables.table(table, readingRowsAs: modelType, schema: schema)
    }

    /// A fetched row's model values, with `.externalStorage` attributes left to load on access.
    /// A row of a hierarchy's table is read as the class it names (at column 1, `_entity`),
    /// whichever class the query is of; its values say which (``rowTable(_:values:)``).
    package func modelValues<Row: StoredRowReading>(_ queried: TableLayout, _ row: Row, rowID: Int64) throws -> ModelValues {
        var table = queried
        if queried.hierarchyEntities != nil, let name = row.text(at: 1), name != queried.entity.name {
            guard let rowTable = tables[name] else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "row \(rowID) of \(queried.storedName) is of the entity \(name), which the models the store is opened with do not have; open it with the model classes of every entity it holds")
            }
            table = rowTable
        }
        var values = try table.rowDecoder.values(of: row)
        for column in table.externalColumns {
            values[column.propertyIndex] = ExternalValueFault { [self] in
                try readExternalValue(table, column, rowID: rowID)
            }
        }
        return values
    }

    /// The table layout of the class a row's `values` were read as: `queried`, or, in a
    /// hierarchy's table, one of its descendants'.
    func rowTable(_ queried: TableLayout, values: ModelValues) -> TableLayout {
        guard let names = queried.hierarchyEntities, names.count > 1, let slots = values.valueSlots,
              slots !== queried.layout.valueSlots
        else { return queried }
        return names.lazy.compactMap { self.tables[$0] }.first { $0.layout.valueSlots === slots } ?? queried
    }
}
