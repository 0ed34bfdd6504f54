/// What a database's refusal of a statement means to the caller, whichever store refused it.
package enum StoreFailure: Sendable {
    /// A unique constraint: another row has the value (a unique attribute changed to another
    /// model's value, or two writers racing).
    case uniqueConflict
    /// The database was busy, or chose this transaction to fail (a serialization failure, a
    /// deadlock): the same work may succeed when tried again.
    case retryable
    /// The database could not be reached (or refused the connection): nothing was read or
    /// changed.
    case unreachable

    /// The failure `error` reports, when it is a store's refusal of either kind.
    package init?(_ error: any Error) {
        if let error = error as? SwiftDataError, let failure = error.storeFailure {
            self = failure
            return
        }
        if let classified = error as? any StoreFailureReporting, let failure = classified.storeFailure {
            self = failure
            return
        }
        return nil
    }
}

/// An error of a store's own that knows its ``StoreFailure``.
package protocol StoreFailureReporting: Error {
    var storeFailure: StoreFailure? { get }
}
