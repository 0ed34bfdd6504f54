import GRDB

/// Hands out the table aliases of one query's subqueries: `"$t1"`, `"$t2"`, … A `$` cannot
/// appear in a Swift type name, so an alias never hides an entity's table.
final class SQLAliases {
    private var count = 0
    private var references = 0

    func next() -> String {
        count += 1
        return "$t\(count)".quotedDatabaseIdentifier
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
        /// `alias`; no row (so `NULL` everywhere) when the key is `NULL` or names no row, as a
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
            let primaryKey = "\(alias).\(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier)"
            value = "(SELECT \(expression) FROM \(raw: table) AS \(raw: alias) WHERE \(raw: primaryKey) = \(key))"
        }
        guard !presence.isEmpty else { return value }
        let missing = SQLFragment.joined(presence.map { "\($0) IS NULL" }, separator: " OR ")
        return "(CASE WHEN \(missing) THEN NULL ELSE \(value) END)"
    }

    /// The model's primary key, `NULL` when there is no model; nil when the rows are not models.
    var key: SQLFragment? {
        identity.map { read(SQLFragment($0.primaryKey)) }
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
    func select(_ selection: String, where conditions: [SQLFragment] = []) -> SQLFragment {
        let primaryKey = "\(elementAlias).\(TableLayout.primaryKeyColumn.quotedDatabaseIdentifier)"
        var from: String
        var link: SQLFragment
        switch relationship.storage {
        case .inverseForeignKey(let column), .foreignKey(let column):
            from = "\(relationship.destinationTable) AS \(elementAlias)"
            link = "\(raw: elementAlias).\(raw: column.quotedDatabaseIdentifier) = \(ownerKey)"
        case .joinTable(let table, let ownColumn, let otherColumn):
            let join = joinAlias ?? table.quotedDatabaseIdentifier
            from = "\(table.quotedDatabaseIdentifier) AS \(join) JOIN \(relationship.destinationTable) AS \(elementAlias) "
                + "ON \(primaryKey) = \(join).\(otherColumn.quotedDatabaseIdentifier)"
            link = "\(raw: join).\(raw: ownColumn.quotedDatabaseIdentifier) = \(ownerKey)"
        }
        let all = [link] + filters + conditions
        return "SELECT \(raw: selection) FROM \(raw: from) WHERE \(SQLFragment.joined(all, separator: " AND "))"
    }
}
