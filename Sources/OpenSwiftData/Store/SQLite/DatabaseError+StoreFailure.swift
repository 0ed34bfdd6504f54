import GRDB

extension DatabaseError: StoreFailureReporting {
    package var storeFailure: StoreFailure? {
        switch extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: return .uniqueConflict
        default: return resultCode == .SQLITE_BUSY || resultCode == .SQLITE_LOCKED ? .retryable : nil
        }
    }
}
