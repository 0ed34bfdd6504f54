import Foundation
import OpenSwiftData
import OpenSwiftDataServer
import OpenSwiftDataVapor
import SwiftDataSync
import SyncTestModels
import Testing
import TestSupport
import VaporTesting

/// The sync served by Vapor, over HTTP (a running server): what one device saves reaches
/// another by push and pull, and by the events route to an engine left running on its own.
@Suite struct VaporSyncTests {
    @Test func devicesSyncThroughVaporsRoutes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vapor-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("server.store")))
        let ledger = try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("server-sync.store")))
        let server = try SyncServer(container: container, models: SyncTestModels.all, ledger: ledger)
        let feed = try ModelChangeFeed(container: container)
        try await withApp(configure: { app in
            app.modelContainer = container
            app.grouped("sync").addSyncRoutes(server, feed: feed)
        }) { app in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            let transport = SyncHTTPTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/sync")!)
            func device(_ name: String) throws -> (ModelContainer, SyncEngine) {
                let store = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
                return (store, try SyncEngine(
                    container: store, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
                    transport: transport, node: name))
            }
            let (phone, phoneEngine) = try device("phone")
            let (laptop, laptopEngine) = try device("laptop")
            let context = ModelContext(phone)
            let journey = Journey(title: "Vienna", departure: Date(timeIntervalSinceReferenceDate: 42.5), budget: 99.5)
            context.insert(journey)
            let leg = Leg(place: "Graz", position: 1)
            context.insert(leg)
            leg.journey = journey
            try context.save()
            #expect(try await phoneEngine.sync().pushed == 2)
            try await laptopEngine.sync()
            let laptopContext = ModelContext(laptop)
            let arrived = try #require(try laptopContext.fetch(FetchDescriptor<Leg>()).first)
            #expect(arrived.place == "Graz")
            #expect(arrived.journey?.title == "Vienna")
            #expect(arrived.journey?.budget == 99.5)
            #expect(arrived.journey?.departure == Date(timeIntervalSinceReferenceDate: 42.5))

            // Left running, the laptop hears the server's events.
            let running = Task { await laptopEngine.run(every: .seconds(3600)) }
            defer { running.cancel() }
            try await Task.sleep(for: .milliseconds(500))
            journey.title = "Vienna, renamed"
            try context.save()
            try await phoneEngine.sync()
            let renamed = await eventually(timeout: .seconds(60)) {
                (try? ModelContext(laptop).fetch(FetchDescriptor<Journey>()).first?.title) == "Vienna, renamed"
            }
            #expect(renamed)
            running.cancel()
            feed.close()
            await app.server.shutdown()
        }
    }
}
