import Observation

/// A model's observation registrar, created the first time one of the model's properties is read.
///
/// The code `@Model` generates keeps one of these where SwiftData keeps an
/// `ObservationRegistrar`. A registrar is two heap objects and a lock, and most models a bulk
/// insert creates or a fetch loads are never read through their properties. An observer only
/// exists once a property was read (that read is what `withObservationTracking` and SwiftUI
/// record), so until then a change has nobody to tell, and skips the registrar.
///
/// Like the model that holds it, it is used from one thread or actor at a time. Its methods are
/// inlinable so each model's accessors are specialized for it.
public struct ModelObservationRegistrar: Sendable {
    /// Holds the registrar once it exists. `ObservationRegistrar` comes from a module built for
    /// library evolution, so an optional of it is tested and copied through the runtime's value
    /// witnesses; an optional class reference is a pointer compared with zero.
    @usableFromInline
    final class Created: Sendable {
        @usableFromInline let registrar = ObservationRegistrar()
        /// `false` only for ``unobserved``: reads and changes then skip the registrar.
        @usableFromInline let isObservable: Bool

        @usableFromInline init(observable: Bool = true) {
            isObservable = observable
        }
    }

    @usableFromInline var created: Created?

    /// What the models of a migration's contexts hold instead of a registrar of their own.
    /// Nothing observes a migration, which runs while its container opens, so those models,
    /// each read once, skip making one (two heap objects and a lock, and as much again to let
    /// go of them), and their reads and changes tell no one.
    private static let unobserved = Created(observable: false)

    /// A registrar with nothing made yet: the first read of one of the model's properties makes
    /// it.
    public init() {}

    /// The registrar of `model`, read for the first time: its own, or ``unobserved`` when it
    /// belongs to a migration's context. While no migration runs, its context is not looked at.
    @usableFromInline
    static func firstRead(of model: any PersistentModel) -> Created {
        guard ModelState.anyMigrationRunning,
              model.modelState?.isReadByMigration == true
        else { return Created() }
        return unobserved
    }

    /// Records a read of `keyPath` for whoever is tracking reads, creating the registrar the
    /// first time.
    ///
    /// - Parameters:
    ///   - subject: The model whose property is read.
    ///   - keyPath: The property read.
    @inlinable
    public mutating func access<Subject: PersistentModel & Observable, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>
    ) {
        if created == nil { created = Self.firstRead(of: subject) }
        let created = created.unsafelyUnwrapped
        if created.isObservable { created.registrar.access(subject, keyPath: keyPath) }
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
        guard let created, created.isObservable else { return try mutation() }
        return try created.registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}
