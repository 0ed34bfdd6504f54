import Foundation

/// What to fetch: which models of a type, in what order, and how many.
///
/// ```swift
/// var descriptor = FetchDescriptor<Film>(
///     predicate: #Predicate { $0.releaseYear >= 2000 },
///     sortBy: [SortDescriptor(\.title)])
/// descriptor.fetchLimit = 10
/// let films = try context.fetch(descriptor)
/// ```
///
/// The predicate and sort descriptors run in SQLite, with every value bound as a parameter.
/// A predicate or sort the store cannot express throws ``SwiftDataError/unsupportedPredicate``
/// or ``SwiftDataError/unsupportedSortDescriptor`` naming the expression, never a wrong result.
public struct FetchDescriptor<T>: @unchecked Sendable where T: PersistentModel {
    /// Which models to fetch; `nil` fetches all of them.
    public var predicate: Predicate<T>?
    /// The order of the results; several descriptors sort by the first, then the next.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many results, after sorting and `fetchOffset`.
    public var fetchLimit: Int?
    /// Skip this many results first.
    public var fetchOffset: Int?
    /// Whether results reflect the context's unsaved inserts, changes and deletes (the
    /// default) or only what is saved.
    public var includePendingChanges: Bool = true
    /// The properties to load; empty means all. A hint: every property is loaded.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose models to load with the results. A hint for now.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// A descriptor of the models of `T` that match `predicate`, in the order of `sortBy`, with no
    /// limit or offset.
    ///
    /// - Parameters:
    ///   - predicate: Which models to fetch; `nil` for all of them.
    ///   - sortBy: The order of the results; empty for the order of their row keys, which is the
    ///     order they were first saved in.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
