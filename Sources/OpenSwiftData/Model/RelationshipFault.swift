/// Stands in a model's backing data for a relationship that has not been read yet: reading the
/// property loads the related models through the model's context.
enum RelationshipFault {
    /// A to-one relationship to the row with this key.
    case toOne(Int64)
    /// A to-many relationship, found by querying the destination.
    case toMany

    /// The fault `value` is, if it is one.
    ///
    /// A fault is always stored as itself, so comparing type pointers tells. `value as?
    /// RelationshipFault` asks the runtime's general cast, which on Linux first tries to unbox a
    /// model from Foundation's value box: a save checks every relationship value this way.
    static func held(in value: Any?) -> RelationshipFault? {
        guard let value else { return nil }
        func project<Held>(_ held: Held) -> RelationshipFault? {
            Held.self == RelationshipFault.self ? unsafeBitCast(held, to: RelationshipFault.self) : nil
        }
        return project(value)
    }

    /// Whether `value` is a fault.
    static func isFault(_ value: Any?) -> Bool {
        held(in: value) != nil
    }
}
