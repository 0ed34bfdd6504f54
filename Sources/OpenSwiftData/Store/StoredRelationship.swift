/// How one relationship of an entity is kept in SQLite.
///
/// - A to-one relationship is an integer column of the entity's table, named after the
///   relationship, holding the related row's `_pk` (indexed, so the inverse side can be found).
/// - A to-many relationship whose inverse is to-one has no storage of its own: its models are
///   the destination rows whose inverse column holds this row's key.
/// - Any other to-many relationship (many-to-many, or one-way) is a join table
///   `_osd_join_<Entity>_<relationship>` with a `source` and a `target` column. A many-to-many
///   pair shares one table, named after the side whose `Entity.relationship` sorts first.
struct StoredRelationship {
    typealias Storage = RelationshipStorage

    let name: String
    let propertyIndex: Int
    let destination: String
    let relationship: Schema.Relationship
    let storage: Storage

    var isToOne: Bool { relationship.isToOne }

    init(_ relationship: Schema.Relationship, of entity: Schema.Entity, propertyIndex: Int, destination: Schema.Entity?) {
        name = relationship.name
        self.propertyIndex = propertyIndex
        self.destination = relationship.destination
        self.relationship = relationship
        let inverse = relationship.inverseName.flatMap { destination?.relationshipsByName[$0] }
        if relationship.isToOne {
            storage = .foreignKey(column: relationship.name)
        } else if let inverse, inverse.isToOne {
            storage = .inverseForeignKey(column: inverse.name)
        } else if let inverse, let destination {
            // Named after the entities that declare the two sides: a subentity inherits its
            // superentity's join tables.
            let mine = "\(entity.declaring(relationship).name)_\(relationship.name)"
            let theirs = "\(destination.declaring(inverse).name)_\(inverse.name)"
            if mine <= theirs {
                storage = .joinTable(table: "_osd_join_\(mine)", ownColumn: "source", otherColumn: "target")
            } else {
                storage = .joinTable(table: "_osd_join_\(theirs)", ownColumn: "target", otherColumn: "source")
            }
        } else {
            storage = .joinTable(
                table: "_osd_join_\(entity.declaring(relationship).name)_\(relationship.name)", ownColumn: "source", otherColumn: "target")
        }
    }

    /// Whether this side creates the join table (the side that names it).
    var createsJoinTable: Bool {
        if case .joinTable(_, let ownColumn, _) = storage { return ownColumn == "source" }
        return false
    }
}
