/// How one relationship of an entity is kept in SQLite (``RelationshipStorage``); a to-one
/// relationship's key column is indexed, so the inverse side can be found.
package struct StoredRelationship {
    package typealias Storage = RelationshipStorage

    package let name: String
    package let propertyIndex: Int
    package let destination: String
    package let relationship: Schema.Relationship
    package let storage: Storage

    package var isToOne: Bool { relationship.isToOne }

    init(_ relationship: Schema.Relationship, of entity: Schema.Entity, propertyIndex: Int, destination: Schema.Entity?) {
        name = relationship.name
        self.propertyIndex = propertyIndex
        self.destination = relationship.destination
        self.relationship = relationship
        storage = RelationshipStorage(relationship, of: entity, destination: destination)
    }

    /// Whether this side creates the join table (the side that names it).
    package var createsJoinTable: Bool { storage.createsJoinTable }
}
