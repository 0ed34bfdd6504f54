import Foundation

/// A request the server will not serve, with an HTTP status and a message the app can show its
/// user as it is: an app version the server cannot sync with, for one. The server integrations
/// answer with `status` and `message` as the body; the device's ``SyncHTTPTransport`` throws it
/// as ``SyncError/refused(status:message:)``.
public struct SyncRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// 426 (Upgrade Required): the app is too old for the server's models.
    public static let appTooOld = 426
    /// 409 (Conflict): the app is newer than the server's models.
    public static let serverTooOld = 409

    public let status: Int
    public let message: String

    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}
