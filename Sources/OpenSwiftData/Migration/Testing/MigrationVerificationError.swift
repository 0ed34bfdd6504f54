/// The problems a migration check found, all at once: each names the version (and, where it
/// applies, the entity and attribute) and how to fix it.
///
/// Thrown by ``SchemaMigrationPlan/verify(snapshotsIn:recording:)`` and by the checks of
/// ``MigrationTester``.
public struct MigrationVerificationError: Error, CustomStringConvertible, Sendable {
    /// One problem.
    public struct Problem: Sendable, CustomStringConvertible {
        /// The version the problem concerns, as "`Type` (1.0.0)", when it concerns one.
        public let version: String?
        /// What is wrong, where, and how to fix it.
        public let message: String

        public var description: String {
            version.map { "\($0): \(message)" } ?? message
        }
    }

    /// Every problem found.
    public let problems: [Problem]

    public var description: String {
        "\(problems.count) migration problem\(problems.count == 1 ? "" : "s"):\n"
            + problems.map { "- " + $0.description.replacingOccurrences(of: "\n", with: "\n  ") }.joined(separator: "\n")
    }
}

extension MigrationVerificationError.Problem {
    /// The breaches of CloudKit's rules in each of `versions`, when `database` names a CloudKit
    /// container; none for `.none` and `.automatic`.
    static func cloudKit(_ versions: [PlanVersions.Version], _ database: ModelConfiguration.CloudKitDatabase) -> [Self] {
        guard let container = database.containerIdentifier else { return [] }
        return versions.flatMap { version in
            CloudKitRules.problems(of: version.schema).map {
                Self(version: version.name, message: "cannot sync with the CloudKit container \(container): \($0)")
            }
        }
    }
}
