import Foundation

/// What a fetch reads: the entity's table and store, and the fetch's SQL clauses.
struct FetchPlan {
    let store: any ModelStore
    let table: TableLayout
    private(set) var condition: SQLFragment?
    let orderBy: SQLFragment?
    /// The other entities the condition and the order read through relationships.
    private(set) var relatedEntities: Set<String>
    /// The condition without the predicate: the rows of the entity's classes, less those a
    /// pending batch delete removes. What a fetch answered in memory reads.
    private(set) var entityCondition: SQLFragment?
    /// Whether the store's SQL cannot run the predicate or the sort (they call OpenSwiftData's
    /// Swift functions, which only SQLite connections have): the context then answers in
    /// memory, with `Predicate.evaluate` and `sorted(using:)`, never differently from Swift.
    private(set) var answersInMemory = false
    /// For a plan answered in memory, what the store can still do: the rows to read (a superset
    /// of the matches) and the order to read them in; `nil` when the condition cannot be
    /// narrowed, and every row of the entity is read.
    private(set) var narrowing: Narrowing?

    /// The rows a fetch answered in memory reads, and which of them the store knows match.
    struct Narrowing {
        /// Every row the predicate may match (`nil`: every row); Swift decides each.
        let candidates: SQLFragment?
        /// Rows the predicate certainly matches, a subset of the candidates (`nil`: none known).
        let certainMatches: SQLFragment?
        /// Whether the store reads the candidates in the fetch's order (its sort runs there).
        let ordersInSQL: Bool
    }

    /// - Parameter entityCondition: must run exactly: its pending batch deletes' conditions
    ///   stand under `NOT`, where the polarity their tests were given no longer holds.
    private static func narrowing(
        _ condition: SQLFragment?, _ entityCondition: SQLFragment?, _ orderBy: SQLFragment?, in store: any ModelStore
    ) -> Narrowing? {
        guard store.canRun(entityCondition ?? "") else { return nil }
        let ordersInSQL = store.canRun(orderBy ?? "")
        guard let condition else { return Narrowing(candidates: nil, certainMatches: "TRUE", ordersInSQL: ordersInSQL) }
        if store.canRun(condition) { return Narrowing(candidates: condition, certainMatches: condition, ordersInSQL: ordersInSQL) }
        guard let candidates = store.narrowed(condition, toward: .superset) else { return nil }
        return Narrowing(candidates: candidates, certainMatches: store.narrowed(condition, toward: .subset), ordersInSQL: ordersInSQL)
    }

    /// The plan, reading only the rows of its entity's own class, not its subclasses'.
    func excludingSubclasses() -> FetchPlan {
        guard let exactly = table.classCondition(exactly: true) else { return self }
        var plan = self
        plan.condition = SQLFragment.allOf([condition, exactly])
        return plan
    }

    /// The rows the plan reads, `limit` from `offset` on.
    func selection(limit: Int? = nil, offset: Int? = nil) -> RowSelection {
        var selection = RowSelection(table, where: condition, orderBy: orderBy, limit: limit, offset: offset)
        if matchesAtMostOneRow {
            // No sort for the database to plan (a fetch by a unique attribute, the commonest on
            // a server). The limit stays: a migration's stage may read duplicates its unique
            // index does not refuse yet.
            selection.orderBy = nil
            selection.isOrdered = false
        }
        return selection
    }

    /// Whether the condition sets a column no two rows share to one value.
    private var matchesAtMostOneRow: Bool {
        guard let condition else { return false }
        return !condition.columnsEqualToArguments(of: table.storedName).isDisjoint(with: table.singleRowColumns)
    }

    /// The rows the plan's condition matches, in key order.
    var matchingRows: RowSelection { RowSelection(table, where: condition) }

    init(store: any ModelStore, table: TableLayout, condition: SQLFragment?, orderBy: SQLFragment?) {
        self.store = store
        self.table = table
        self.condition = condition
        self.orderBy = orderBy
        entityCondition = condition
        relatedEntities = []
    }

    init<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in context: ModelContext) throws {
        let layout = ModelLayout.of(T.self)
        let store = try context.store(for: layout)
        if let problem = context.container.unreadableRelationships.problem(fetching: T.self) {
            throw SwiftDataError.unknownSchema.explaining("\(T.self) models cannot be fetched: \(problem)")
        }
        let table = store.tables[layout.entityName]!
        self.store = store
        self.table = table
        let columns = StoreTableColumns(table, in: store)
        let predicate = try descriptor.predicate.map { try PredicateTranslator.translation(of: $0, columns: columns) }
        let sort = try SortTranslator.translation(of: descriptor.sortBy, columns: columns)
        // Rows a pending `delete(model:where:)` removes at the next save are gone already
        // for a fetch that sees unsaved changes, as models deleted one by one are.
        let pendingDeletes = descriptor.includePendingChanges
            ? context.batchDeletes.filter { $0.table.entity.name == table.entity.name } : []
        entityCondition = SQLFragment.allOf([table.classCondition()] + pendingDeletes.map { SQLFragment.excluding($0.condition) })
        condition = SQLFragment.allOf([entityCondition, predicate?.condition])
        orderBy = descriptor.sortBy.isEmpty ? nil : sort.orderBy
        relatedEntities = (predicate?.relatedEntities ?? []).union(sort.relatedEntities)
        if !store.canRun(predicate?.condition ?? "") || !store.canRun(orderBy ?? "") {
            answersInMemory = true
            narrowing = Self.narrowing(condition, entityCondition, orderBy, in: store)
        }
    }
}
