/// How a relationship's rows are kept in a store: a key column on the owner's table, a key
/// column on the destination's table (the inverse's), or a join table. What a query reads
/// through and what a migration must carry over; the names in it are unquoted.
package enum RelationshipStorage {
    case foreignKey(column: String)
    case inverseForeignKey(column: String)
    case joinTable(table: String, ownColumn: String, otherColumn: String)

    /// How `relationship` of `entity` is kept:
    ///
    /// - a to-one relationship is a key column of the entity's table, named after the
    ///   relationship, holding the related row's `_pk`;
    /// - a to-many relationship whose inverse is to-one has no storage of its own: its models
    ///   are the destination rows whose inverse column holds this row's key;
    /// - any other to-many relationship (many-to-many, or one-way) is a join table
    ///   `_osd_join_<Entity>_<relationship>` with a `source` and a `target` column; a
    ///   many-to-many pair shares one table, named after the side whose `Entity.relationship`
    ///   sorts first.
    package init(_ relationship: Schema.Relationship, of entity: Schema.Entity, destination: Schema.Entity?) {
        let inverse = relationship.inverseName.flatMap { destination?.relationshipsByName[$0] }
        if relationship.isToOne {
            self = .foreignKey(column: relationship.name)
        } else if let inverse, inverse.isToOne {
            self = .inverseForeignKey(column: inverse.name)
        } else if let inverse, let destination {
            // Named after the entities that declare the two sides: a subentity inherits its
            // superentity's join tables.
            let mine = "\(entity.declaring(relationship).name)_\(relationship.name)"
            let theirs = "\(destination.declaring(inverse).name)_\(inverse.name)"
            if mine <= theirs {
                self = .joinTable(table: "_osd_join_\(mine)", ownColumn: "source", otherColumn: "target")
            } else {
                self = .joinTable(table: "_osd_join_\(theirs)", ownColumn: "target", otherColumn: "source")
            }
        } else {
            self = .joinTable(
                table: "_osd_join_\(entity.declaring(relationship).name)_\(relationship.name)", ownColumn: "source", otherColumn: "target")
        }
    }

    /// Whether this side creates the join table (the side that names it).
    package var createsJoinTable: Bool {
        if case .joinTable(_, let ownColumn, _) = self { return ownColumn == "source" }
        return false
    }

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
