import OpenSwiftData

/// The HTTP status a server answers for an error of OpenSwiftData's, as the web frameworks'
/// integrations map them; `nil` for any other error, which the framework answers itself.
///
/// | Error | Status |
/// |---|---|
/// | ``ModelNotFoundError`` | 404 Not Found |
/// | A unique constraint refusing a save | 409 Conflict |
/// | `SwiftDataError.modelValidationFailure` (a `.deny` rule, a missing value) | 422 Unprocessable Content |
/// | `SwiftDataError.historyTokenExpired` | 410 Gone |
/// | A busy database, a serialization failure | 503 Service Unavailable, to retry |
/// | A store this server cannot use (a migration refused, a newer store, a closed container) | 503 Service Unavailable |
public struct ModelErrorStatus: Sendable, Equatable {
    /// The HTTP status code.
    public let code: Int
    /// What the response says: the error's own words, which name what went wrong and where.
    public let reason: String

    public init?(_ error: any Error) {
        if let missing = error as? ModelNotFoundError {
            self.init(code: 404, reason: missing.description)
            return
        }
        switch StoreFailure(error) {
        case .uniqueConflict?:
            self.init(code: 409, reason: "another model has this value of a unique attribute: \(error)")
            return
        case .retryable?:
            self.init(code: 503, reason: "the database is busy; try again: \(error)")
            return
        case .unreachable?:
            self.init(code: 503, reason: "the database cannot be reached: \(error)")
            return
        case nil:
            break
        }
        guard let error = error as? SwiftDataError else { return nil }
        switch error {
        case .modelValidationFailure: self.init(code: 422, reason: error.description)
        case .historyTokenExpired: self.init(code: 410, reason: error.description)
        case .loadIssueModelContainer, .backwardMigration, .unknownSchema: self.init(code: 503, reason: error.description)
        default: return nil
        }
    }

    init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }
}
