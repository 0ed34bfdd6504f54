import Foundation
import Synchronization
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels
import TestSupport

/// An engine left running never goes quiet: an exchange the server does not answer fails at
/// the engine's bound and is tried again, the status says the sync is stalled meanwhile, and a
/// save made while a sync runs is sent by the next one without another save.
@Suite struct SyncLivenessTests {
    @Test @MainActor func aSyncTheServerDoesNotAnswerIsReportedAndTriedAgainAndNoSaveIsLeftBehind() async throws {
        let world = try SyncTestWorld()
        let transport = StallingTransport(server: world.server)
        let phone = try world.device("phone", transport: transport)
        let engine = try SyncEngine(
            container: phone.container, models: SyncTestModels.all, ledgerURL: world.folder.appendingPathComponent("phone-bounded-sync.store"),
            transport: transport, node: "phone-bounded", requestTimeout: .seconds(10))
        let running = Task { await engine.run(every: .seconds(3600)) }
        defer { running.cancel() }
        let status = engine.status
        let serverContainer = world.serverContainer
        func onServer(_ title: String) -> Bool {
            (try? ModelContext(serverContainer).fetchCount(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == title }))) == 1
        }

        // The next push hangs for 300 s, whatever the engine does; the save waits behind it.
        transport.stallNextPush(for: 300)
        let context = ModelContext(phone.container)
        context.insert(Journey(title: "while the server hangs", departure: .now))
        try context.save()
        let stalled = await eventually(timeout: .seconds(120)) { status.isStalled && status.stalledSince != nil }
        #expect(stalled, "the status never said the sync was stalled")
        // A second save while the first sync hangs: no third save is needed to send it.
        context.insert(Journey(title: "saved during the hang", departure: .now))
        try context.save()
        let failed = await eventually(timeout: .seconds(120)) { status.lastError?.contains("did not answer a push within 10 s") == true }
        let said = status.lastError ?? "no error"
        #expect(failed, "the status never said which request went unanswered: \(said)")
        // Sent again once the bound has passed, long before the hung push would have ended.
        let arrived = await eventually(timeout: .seconds(120)) { onServer("while the server hangs") && onServer("saved during the hang") }
        #expect(arrived, "the saves never reached the server")
        let recovered = await eventually(timeout: .seconds(120)) { status.lastError == nil && !status.isStalled && status.lastSync != nil }
        #expect(recovered)
    }
}

/// The server's routes in this process, one push of which can hang for a while and ignore
/// cancellation, as a transport stuck on a dead connection may.
final class StallingTransport: SyncTransport, @unchecked Sendable {
    private let server: SyncServer
    private let stall = Mutex<Double?>(nil)

    init(server: SyncServer) { self.server = server }

    func stallNextPush(for seconds: Double) {
        stall.withLock { $0 = seconds }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        if let seconds = stall.withLock({ value -> Double? in
            defer { value = nil }
            return value
        }) {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
            }
        }
        return try await LoopbackTransport(server: server).push(request)
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await LoopbackTransport(server: server).pull(request)
    }
}
