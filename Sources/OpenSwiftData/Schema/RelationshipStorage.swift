/// How a relationship's rows are kept in a store: a key column on the owner's table, a key
/// column on the destination's table (the inverse's), or a join table. What a query reads
/// through and what a migration must carry over; the names in it are unquoted.
enum RelationshipStorage {
    case foreignKey(column: String)
    case inverseForeignKey(column: String)
    case joinTable(table: String, ownColumn: String, otherColumn: String)

    /// The way of storing, without names: what a migration cannot change in place.
    var kind: Kind {
        switch self {
        case .foreignKey: .foreignKey
        case .inverseForeignKey: .inverseForeignKey
        case .joinTable: .joinTable
        }
    }

    enum Kind: String {
        case foreignKey = "a key column"
        case inverseForeignKey = "the inverse's key column"
        case joinTable = "a join table"
    }
}
