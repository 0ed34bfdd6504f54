/// Where a model's stored attribute lives: an SQL expression (e.g. a quoted column `"title"`)
/// and the codec that converts its Swift values. Supplied by the store layer.
///
/// The translators use the codec twice: its ``ValueCodec/storage`` tells them how the column
/// compares and sorts, and captured values compared with the column are encoded with it, so a
/// `Date`, `UUID` or enum in a predicate is bound exactly as the column stores it.
struct ResolvedColumn {
    let sql: SQLFragment
    let codec: ValueCodec
    /// The attribute's name, for messages: a model's key paths print without their property
    /// names on Linux.
    var name: String?
}

/// Maps the key paths found in predicates and sort descriptors to stored columns, and, for
/// models, to their identity and relationships.
///
/// Every SQL name a resolver hands out is qualified by the name the query gives its table: the
/// table's own name for the entity being fetched, an alias inside a subquery.
protocol ColumnResolving {
    /// The column for a key path rooted at the model type, or nil when the key path names
    /// nothing stored (a computed or @Transient property, or a relationship).
    func column(for keyPath: AnyKeyPath) -> ResolvedColumn?

    /// The relationship a key path rooted at the model type names, or nil when it names none.
    func relationship(for keyPath: AnyKeyPath) -> ResolvedRelationship?

    /// What identifies a row as a model, or nil when the rows are not models.
    var rowIdentity: RowIdentity? { get }

    /// The key paths of the properties a key path through to-one relationships reads, one per
    /// step (`\Book.shelf?.name` is `[\Book.shelf, \Shelf.name]`), or nil when it is not such a
    /// key path. Sort descriptors need it; predicates arrive already split into steps.
    func propertyChain(for keyPath: AnyKeyPath) -> [AnyKeyPath]?

    /// What `$0 is C`, `$0 as? C` and `$0 as! C` read of a model's row: the columns of class
    /// `C` over the same row, and the condition that the row is of `C` or a subclass of it;
    /// nil when the rows cannot be of `C`.
    func cast(to type: Any.Type) -> RowCast?
}

/// A model's row read as another class of its hierarchy.
struct RowCast {
    /// The class's columns, over the same row.
    let columns: any ColumnResolving
    /// That the row is of the class or a subclass of it; nil when every row is.
    let condition: SQLFragment?
}

extension ColumnResolving {
    func cast(to type: Any.Type) -> RowCast? { nil }
    func relationship(for keyPath: AnyKeyPath) -> ResolvedRelationship? { nil }
    var rowIdentity: RowIdentity? { nil }
    func propertyChain(for keyPath: AnyKeyPath) -> [AnyKeyPath]? { nil }
}

/// The identity of the rows of a model's table: what `persistentModelID` reads in SQL.
struct RowIdentity {
    /// The entity's name, as identifiers record it.
    let entityName: String
    /// The identifier of the store holding the table.
    let storeIdentifier: String
    /// The table's name, for subqueries that look a row up by its key.
    let tableName: String
    /// The qualified primary-key column, e.g. `"Book"."_pk"`.
    let primaryKey: SQLFragment
    /// `\Model.persistentModelID` for the table's model type.
    let identifierKeyPath: AnyKeyPath
    /// `\Model.id`, when the model's `Identifiable` identifier is its `persistentModelID` (a
    /// model that declares an `id` of its own has it as an attribute instead).
    var idKeyPath: AnyKeyPath?

    /// Whether `keyPath` reads the model's identifier.
    func isIdentifier(_ keyPath: AnyKeyPath) -> Bool {
        keyPath == identifierKeyPath || keyPath == idKeyPath
    }

    /// The row of `identifier` in this table, or nil when the identifier names a model of
    /// another entity or store, or one never saved: no row of the table is that model.
    func rowID(of identifier: PersistentIdentifier) -> Int64? {
        guard identifier.entityName == entityName, identifier.storeIdentifier == storeIdentifier else { return nil }
        return identifier.rowID
    }
}

/// A relationship as a query reaches it from one row of its source table.
struct ResolvedRelationship {
    /// `Entity.relationship`, for messages.
    let name: String
    let isToOne: Bool
    /// How the relationship is kept; the names in it are unqualified.
    let storage: RelationshipStorage
    /// For a to-one relationship, the qualified column of the source row holding the related
    /// row's key.
    let keyColumn: SQLFragment?
    /// The destination entity's name.
    let destinationEntity: String
    /// The quoted name of the destination's table.
    let destinationTable: String
    /// The destination's columns, qualified by `alias` (already quoted).
    let destination: (_ alias: String) -> any ColumnResolving
}

/// A key path as messages show it: `\Film.title`, and the column it resolved to when it did.
///
/// Key paths to computed properties (which `@Model` attributes are) print without their name
/// on Linux, as `\Film.<computed 0x… (String)>`; the column name then says which attribute is
/// meant.
func describeKeyPath(_ keyPath: AnyKeyPath, column: ResolvedColumn? = nil) -> String {
    var text = "\(keyPath)"
    if text.contains("<computed"), let name = column?.name {
        text = "\\\(type(of: keyPath).rootType).\(name)"
    }
    guard let column else {
        if text.contains("<computed") {
            return text + " (a computed property, whose name Swift does not record on this platform)"
        }
        return text
    }
    return "\(text) (column \(column.sql))"
}
