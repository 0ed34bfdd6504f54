import Foundation
import SwiftData
@testable import SwiftDataSync
import SyncTestModels

/// A server and its devices, each with its own SQLite store in a folder of its own, talking
/// through ``LoopbackTransport`` (every request and answer encoded to JSON and back).
final class SyncTestWorld: @unchecked Sendable {
    let folder: URL
    let serverContainer: ModelContainer
    let server: SyncServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        serverContainer = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("server.store")))
        let ledger = try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("server-sync.store")))
        server = try SyncServer(container: serverContainer, models: SyncTestModels.all, ledger: ledger)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A device with its own store, named `name`.
    func device(_ name: String, transport: (any SyncTransport)? = nil, batchSize: Int = 500) throws -> Device {
        try Device(name: name, folder: folder, transport: transport ?? LoopbackTransport(server: server), batchSize: batchSize)
    }

    struct Device {
        let container: ModelContainer
        let engine: SyncEngine

        init(name: String, folder: URL, transport: any SyncTransport, batchSize: Int) throws {
            container = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
            engine = try SyncEngine(
                container: container, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
                transport: transport, node: name, batchSize: batchSize)
        }

        /// A new context on the device's store.
        var context: ModelContext { ModelContext(container) }
    }
}

/// The server's routes, called in this process, with every message through JSON both ways.
struct LoopbackTransport: SyncTransport {
    let server: SyncServer

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try roundTrip(try server.push(roundTrip(request)))
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try roundTrip(try server.pull(roundTrip(request)))
    }

    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }
}
