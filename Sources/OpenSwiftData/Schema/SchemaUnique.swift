extension Schema {
    /// The uniqueness constraints `#Unique` declares on a model.
    ///
    /// `#Unique<Person>([\.id], [\.givenName, \.familyName])` makes `id` unique on its own and
    /// the pair (`givenName`, `familyName`) unique together. As with `@Attribute(.unique)`,
    /// saving a model whose values match a stored row's updates that row.
    public final class Unique<T>: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable
    where T: PersistentModel {
        public final var name: String = ""
        public final var originalName: String = ""
        public final var valueType: any Any.Type = T.self
        public final let constraints: [[PartialKeyPath<T>]]

        /// The uniqueness constraints of a model, one per array; an array of several key paths is a
        /// compound constraint.
        ///
        /// - Parameter constraints: The key paths of each constraint's properties.
        public init(_ constraints: [PartialKeyPath<T>]...) {
            self.constraints = constraints
        }

        public final var isUnique: Bool { true }
        public var debugDescription: String { "Unique<\(T.self)>(\(constraints))" }

        public enum CodingKeys: CodingKey { case constraints }

        /// Key paths do not encode; a decoded constraint is empty. Stores record the resolved
        /// property names in `Schema.Entity.uniquenessConstraints` instead.
        ///
        /// - Parameter decoder: The decoder, which is not read.
        /// - Throws: Nothing.
        public init(from decoder: any Decoder) throws { constraints = [] }
        /// Encodes nothing: key paths do not encode.
        ///
        /// - Parameter encoder: The encoder, which is not written to.
        /// - Throws: Nothing.
        public func encode(to encoder: any Encoder) throws {}

        /// Constraints are equal when they list the same key paths.
        ///
        /// - Parameters:
        ///   - lhs: A constraint declaration.
        ///   - rhs: Another constraint declaration.
        /// - Returns: Whether both list the same key paths in the same groups.
        public static func == (lhs: Unique, rhs: Unique) -> Bool { lhs.constraints == rhs.constraints }
        /// Hashes the key paths.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) { hasher.combine(constraints) }
    }
}

extension Schema.Unique: KeyPathConstraint {
    var keyPathGroups: [[AnyKeyPath]] { constraints }
    var constraintKind: KeyPathConstraintKind { .unique }
}
