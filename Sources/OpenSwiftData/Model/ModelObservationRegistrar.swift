import Observation

/// A model's observation registrar, made with the model, as `@Observable` makes its own.
///
/// The code `@Model` generates keeps one of these where SwiftData keeps an
/// `ObservationRegistrar`. Like the model that holds it, it is used from one thread or actor at
/// a time. Its methods are inlinable so each model's accessors are specialized for it.
public struct ModelObservationRegistrar: Sendable {
    /// Held as it is, not in an optional or a box: `ObservationRegistrar` comes from a module
    /// built for library evolution, so an optional of it is tested, copied and destroyed
    /// through the runtime's value witnesses, and a box is one more object per model.
    @usableFromInline let registrar = ObservationRegistrar()

    /// A registrar for a new model.
    public init() {}

    /// Records a read of `keyPath` for whoever is tracking reads.
    ///
    /// - Parameters:
    ///   - subject: The model whose property is read.
    ///   - keyPath: The property read.
    @inlinable
    public func access<Subject: PersistentModel & Observable, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>
    ) {
        registrar.access(subject, keyPath: keyPath)
    }

    /// Runs `mutation`, telling the observers of `keyPath`, if there are any, before and after.
    ///
    /// - Parameters:
    ///   - subject: The model whose property changes.
    ///   - keyPath: The property that changes.
    ///   - mutation: The change.
    /// - Returns: What `mutation` returns.
    /// - Throws: What `mutation` throws.
    @inlinable
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}
