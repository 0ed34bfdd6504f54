import Foundation
import Synchronization
import SwiftDataSync

/// Bytes of JSON the sync's pushes send and get back.
final class ByteCount: Sendable {
    struct Counts { var pushed = 0, pushAnswered = 0 }
    private let counts = Mutex(Counts())

    func add(pushed: Int, answered: Int) {
        counts.withLock { $0.pushed += pushed; $0.pushAnswered += answered }
    }

    /// The counts so far, and zero from now on.
    @discardableResult
    func reset() -> Counts {
        counts.withLock { counts in defer { counts = Counts() }; return counts }
    }
}

/// A transport that counts the JSON of each push and its answer, as the HTTP transport sends
/// and receives it.
struct CountingTransport: SyncTransport {
    let base: SyncHTTPTransport
    let bytes: ByteCount

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await base.push(request)
        bytes.add(pushed: try JSONEncoder().encode(request).count, answered: try JSONEncoder().encode(response).count)
        return response
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await base.pull(request)
    }

    func changes() -> AsyncThrowingStream<Void, any Error> {
        base.changes()
    }
}
