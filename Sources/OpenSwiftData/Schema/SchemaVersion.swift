extension Schema {
    /// A schema's semantic version, as a `VersionedSchema` declares it.
    ///
    /// Versions order by major, then minor, then patch number. A store's version is not found
    /// by this number but by comparing the store's structure with each declared version's.
    public struct Version: Codable, Comparable, CustomStringConvertible, Hashable, Sendable {
        public let major: Int
        public let minor: Int
        public let patch: Int

        /// The version `major.minor.patch`.
        ///
        /// - Parameters:
        ///   - major: The major number; not negative.
        ///   - minor: The minor number; not negative.
        ///   - patch: The patch number; not negative.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            precondition(major >= 0 && minor >= 0 && patch >= 0, "Schema.Version numbers cannot be negative")
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Orders versions by major, then minor, then patch number.
        ///
        /// - Parameters:
        ///   - lhs: A version.
        ///   - rhs: Another version.
        /// - Returns: Whether `lhs` is older than `rhs`.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }
    }
}
