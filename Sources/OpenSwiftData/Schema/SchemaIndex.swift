extension Schema {
    /// The indices `#Index` declares on a model, to make fetches that filter or sort by those
    /// properties fast.
    ///
    /// `#Index<Trip>([\.name], [\.startDate, \.endDate])` creates one index on `name` and one
    /// compound index on (`startDate`, `endDate`).
    public final class Index<T>: SchemaProperty, CustomDebugStringConvertible, @unchecked Sendable
    where T: PersistentModel {
        /// The kind of an index.
        public enum Types<P> where P: PersistentModel {
            /// An ordinary B-tree index, single or compound.
            case binary([PartialKeyPath<P>])
            /// A spatial index for numeric ranges; stored as an ordinary index on SQLite.
            case rtree([PartialKeyPath<P>])
        }

        public final var name: String = ""
        public final var originalName: String = ""
        public final var valueType: any Any.Type = T.self
        public final let indices: [Types<T>]

        /// The indices of a model, each of the kind it names.
        ///
        /// - Parameter indices: The indices; each lists the key paths of its properties.
        public init(_ indices: Types<T>...) {
            self.indices = indices
        }

        /// Ordinary indices of a model, one per array; an array of several key paths is a compound
        /// index.
        ///
        /// - Parameter binaryIndices: The key paths of each index's properties.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) {
            self.indices = binaryIndices.map { .binary($0) }
        }

        public final var isUnique: Bool { false }
        public var debugDescription: String { "Index<\(T.self)>(\(keyPathGroups))" }

        public enum CodingKeys: CodingKey { case indices }

        /// Key paths do not encode; a decoded index is empty. Stores record the resolved
        /// property names in `Schema.Entity.indices` instead.
        ///
        /// - Parameter decoder: The decoder, which is not read.
        /// - Throws: Nothing.
        public init(from decoder: any Decoder) throws { indices = [] }
        /// Encodes nothing: key paths do not encode.
        ///
        /// - Parameter encoder: The encoder, which is not written to.
        /// - Throws: Nothing.
        public func encode(to encoder: any Encoder) throws {}

        /// Indices are equal when they index the same key paths.
        ///
        /// - Parameters:
        ///   - lhs: An index declaration.
        ///   - rhs: Another index declaration.
        /// - Returns: Whether both list the same key paths in the same groups.
        public static func == (lhs: Index, rhs: Index) -> Bool { lhs.keyPathGroups == rhs.keyPathGroups }
        /// Hashes the key paths.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) { hasher.combine(keyPathGroups) }
    }
}

extension Schema.Index: KeyPathConstraint {
    var keyPathGroups: [[AnyKeyPath]] {
        indices.map { index in
            switch index {
            case .binary(let keyPaths), .rtree(let keyPaths): keyPaths
            }
        }
    }
    var constraintKind: KeyPathConstraintKind { .index }
}
