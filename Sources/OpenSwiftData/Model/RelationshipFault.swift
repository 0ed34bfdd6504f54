/// Stands in a model's backing data for a relationship that has not been read yet: reading the
/// property loads the related models through the model's context.
enum RelationshipFault {
    /// A to-one relationship to the row with this key.
    case toOne(Int64)
    /// A to-many relationship, found by querying the destination.
    case toMany
}
