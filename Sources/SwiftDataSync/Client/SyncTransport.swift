import Foundation

/// How a device reaches its sync server: ``SyncHTTPTransport`` over HTTP, or anything else
/// that carries the requests and their answers (a test's server in the same process).
///
/// A transport may fail at any point, a response lost after the server applied a push
/// included: the engine pushes the same changes again and the server applies nothing twice.
public protocol SyncTransport: Sendable {
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse
}
