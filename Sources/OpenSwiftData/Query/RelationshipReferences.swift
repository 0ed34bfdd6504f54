
/// Hands out the table aliases of one query's subqueries: `$t1`, `$t2`, … A `$` cannot
/// appear in a Swift type name, so an alias never hides an entity's table.
final class SQLAliases {
    private var count = 0
    private var references = 0

    func next() -> String {
        count += 1
        return "$t\(count)"
    }

    /// A number identifying one ``ModelReference`` of the query.
    func nextReference() -> Int {
        references += 1
        return references
    }
}

/// A model as a predicate or sort reaches it: the fetched row, the row a subquery is on, or a
/// row found by its key through a to-one relationship.
struct ModelReference {
    enum Access {
        /// The row the enclosing SQL is on: the fetched row, or the current row of a subquery
        /// over a to-many relationship.
        case current
        /// The row whose primary key `key` gives, read through a subquery naming the table
        /// `table` (its name) `alias`; no row (so `NULL` everywhere) when the key is `NULL` or names no row, as a
        /// to-one relationship to a deleted row reads as `nil`.
        case lookup(key: SQLFragment, table: String, alias: String)
    }

    /// The model's columns and relationships, qualified by the name the SQL gives its row.
    private(set) var columns: any ColumnResolving
    /// `nil` when the rows are not models (translator tests over plain classes).
    private(set) var identity: RowIdentity?
    let access: Access
    /// How the model was reached, for messages: `Book.shelf`.
    var description: String
    /// The number of this reference in its query.
    let number: Int
    /// The numbers of this reference and of those it was reached from through to-one
    /// relationships: when one of those models is missing, so is this one.
    let lineage: Set<Int>
    /// SQL values that are all non-`NULL` when the model is there: what the `flatMap`s that
    /// reached it unwrapped, when the model was not reached from those values themselves.
    var presence: [SQLFragment] = []

    init(
        columns: any ColumnResolving, identity: RowIdentity?, access: Access, description: String,
        number: Int, reachedFrom origin: ModelReference? = nil
    ) {
        self.columns = columns
        self.identity = identity
        self.access = access
        self.description = description
        self.number = number
        lineage = (origin?.lineage ?? []).union([number])
    }

    /// The same model, read through another class's columns (a cast within its hierarchy).
    func recast(columns: any ColumnResolving) -> ModelReference {
        var reference = self
        reference.columns = columns
        reference.identity = columns.rowIdentity ?? identity
        return reference
    }

    /// SQL reading `expression`, built from `columns`' qualified names, on the model's row;
    /// `NULL` when the model is missing.
    func read(_ expression: SQLFragment) -> SQLFragment {
        let value: SQLFragment
        switch access {
        case .current:
            value = expression
        case .lookup(let key, let table, let alias):
            // The row's identity is qualified by `alias`, the name the subquery gives its table.
            guard let primaryKey = identity?.primaryKey else { return "NULL" }
            value = "(SELECT \(expression) FROM \(identifier: table) AS \(identifier: alias) WHERE \(primaryKey) = \(key))"
        }
        guard !presence.isEmpty else { return value }
        let missing = SQLFragment.joined(presence.map { "\($0) IS NULL" }, separator: " OR ")
        return "(CASE WHEN \(missing) THEN NULL ELSE \(value) END)"
    }

    /// The model's primary key, `NULL` when there is no model; nil when the rows are not models.
    var key: SQLFragment? {
        identity.map { read($0.primaryKey) }
    }

}

/// The models of a to-many relationship of one row, optionally narrowed by `filter { … }`:
/// a subquery over the destination table (through the join table for many-to-many and
/// one-way relationships), its rows named `element`.
struct CollectionReference {
    let relationship: ResolvedRelationship
    /// The primary key of the row owning the collection.
    let ownerKey: SQLFragment
    /// The destination rows, as the subquery is on them.
    let element: ModelReference
    let elementAlias: String
    /// The join table's alias, for relationships kept in one.
    let joinAlias: String?
    /// Conditions on `element` added by `filter { … }`.
    var filters: [SQLFragment] = []
    /// How the collection was reached, for messages.
    let description: String

    /// `SELECT selection FROM … WHERE <the owner's rows> AND <filters> AND <conditions>`.
    func select(_ selection: SQLFragment, where conditions: [SQLFragment] = []) -> SQLFragment {
        // The element's identity is qualified by `elementAlias`.
        let primaryKey = element.identity?.primaryKey ?? "NULL"
        let from: SQLFragment
        let link: SQLFragment
        switch relationship.storage {
        case .inverseForeignKey(let column), .foreignKey(let column):
            from = "\(identifier: relationship.destinationTable) AS \(identifier: elementAlias)"
            link = "\(SQLFragment.column(column, of: elementAlias)) = \(ownerKey)"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let join = joinAlias ?? table
            from = """
                \(identifier: table) AS \(identifier: join) JOIN \(identifier: relationship.destinationTable) AS \(identifier: elementAlias) \
                ON \(primaryKey) = \(SQLFragment.column(otherColumn, of: join))
                """
            link = "\(SQLFragment.column(ownColumn, of: join)) = \(ownerKey)"
        }
        let all = [link] + filters + conditions
        return "SELECT \(selection) FROM \(from) WHERE \(SQLFragment.joined(all, separator: " AND "))"
    }
}
