/// One step of a migration plan seen from a rolling deploy, when servers of the new version
/// start while servers of the previous one keep serving from the same database: whether the
/// previous version keeps working once the step has run.
///
/// An expand step (an entity, an optional or defaulted attribute, an optional relationship or an
/// index added) keeps it working; a contract step (a drop, a rename, a type or optionality
/// change, a unique constraint, a custom stage's rewrite) is to ship once every instance runs
/// the new version: split it into an expand version now and a contract version later.
public struct RollingDeployStep: Sendable, CustomStringConvertible {
    /// The version before the step, as "SchemaV1 (1.0.0)".
    public let from: String
    /// The version after it.
    public let to: String
    /// What breaks servers still running `from`, each saying why and what to do; empty for an
    /// expand step.
    public let breaksPreviousVersion: [String]

    /// Whether servers still running the previous version keep working once the step has run.
    public var isExpandStep: Bool { breaksPreviousVersion.isEmpty }

    public var description: String {
        isExpandStep
            ? "\(from) → \(to): expand step, servers running \(from) keep working"
            : "\(from) → \(to): contract step, servers running \(from) break:\n" + breaksPreviousVersion.map { "  - \($0)" }.joined(separator: "\n")
    }
}
