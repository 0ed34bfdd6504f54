import Foundation

/// How a device reaches its sync server: ``SyncHTTPTransport`` over HTTP, or anything else
/// that carries the requests and their answers (a test's server in the same process).
///
/// A transport may fail at any point, a response lost after the server applied a push
/// included: the engine pushes the same changes again and the server applies nothing twice.
public protocol SyncTransport: Sendable {
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse
    /// A signal each time the server's models change, for as long as the connection lasts; it
    /// ends, with an error, when the connection does. ``SyncEngine/run(every:)`` syncs on each.
    func changes() -> AsyncThrowingStream<Void, any Error>
}

extension SyncTransport {
    /// No signals: a transport without them is synced on local saves and on a timer.
    public func changes() -> AsyncThrowingStream<Void, any Error> {
        AsyncThrowingStream { $0.finish() }
    }
}
