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

        public init(_ constraints: [PartialKeyPath<T>]...) {
            self.constraints = constraints
        }

        public final var isUnique: Bool { true }
        public var debugDescription: String { "Unique<\(T.self)>(\(constraints))" }

        public enum CodingKeys: CodingKey { case constraints }

        /// Key paths do not encode; a decoded constraint is empty. Stores record the resolved
        /// property names in `Schema.Entity.uniquenessConstraints` instead.
        public init(from decoder: any Decoder) throws { constraints = [] }
        public func encode(to encoder: any Encoder) throws {}

        public static func == (lhs: Unique, rhs: Unique) -> Bool { lhs.constraints == rhs.constraints }
        public func hash(into hasher: inout Hasher) { hasher.combine(constraints) }
    }
}

extension Schema.Unique: KeyPathConstraint {
    var keyPathGroups: [[AnyKeyPath]] { constraints }
    var constraintKind: KeyPathConstraintKind { .unique }
}
