import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import OpenSwiftData
import OpenSwiftDataHummingbird
import SwiftDataSync
import SyncTestModels
import Testing

/// The identity Hummingbird's authentication finds for the tests' bearer tokens.
private struct SyncTestIdentity: Sendable {
    let id: String
}

/// Two users syncing through Hummingbird, authenticated by HummingbirdAuth, each in a zone of
/// their own (SQLite files): each user's devices get that user's models only, and a request
/// without a known user is refused.
@Suite struct HummingbirdSyncZoneTests {
    @Test func eachAuthenticatedUserSyncsTheirOwnZone() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hummingbird-zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zones = SyncZones(models: SyncTestModels.all) { zone in
            SyncZones.Stores(
                container: try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(zone).store"))),
                ledger: try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("\(zone)-sync.store"))))
        }
        let feeds = ModelChangeFeeds()
        let router = Router(context: BasicAuthRequestContext<SyncTestIdentity>.self)
        router.group("sync")
            .add(middleware: ClosureAuthenticator { request, _ in
                let users = ["Bearer token-ana": "ana", "Bearer token-ben": "ben"]
                return request.headers[.authorization].flatMap { users[$0] }.map(SyncTestIdentity.init)
            })
            .addSyncRoutes(zones, feeds: feeds) { _, context in try context.requireIdentity().id }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            func device(_ name: String, token: String) throws -> (ModelContainer, SyncEngine) {
                let store = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
                return (store, try SyncEngine(
                    container: store, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
                    transport: SyncHTTPTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/sync")!, headers: ["Authorization": "Bearer \(token)"]),
                    node: name))
            }
            let (anaPhone, anaPhoneEngine) = try device("ana-phone", token: "token-ana")
            let (anaLaptop, anaLaptopEngine) = try device("ana-laptop", token: "token-ana")
            let (benPhone, benPhoneEngine) = try device("ben-phone", token: "token-ben")
            for (store, title) in [(anaPhone, "Ana's trip"), (benPhone, "Ben's trip")] {
                let context = ModelContext(store)
                context.insert(Journey(title: title, departure: .now))
                try context.save()
            }
            try await anaPhoneEngine.sync()
            try await benPhoneEngine.sync()
            try await anaLaptopEngine.sync()
            try await benPhoneEngine.sync()
            #expect(try ModelContext(anaLaptop).fetch(FetchDescriptor<Journey>()).map(\.title) == ["Ana's trip"])
            #expect(try ModelContext(benPhone).fetch(FetchDescriptor<Journey>()).map(\.title) == ["Ben's trip"])
            #expect(zones.openZones == ["ana", "ben"])

            let stranger = SyncHTTPTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/sync")!, headers: ["Authorization": "Bearer token-eve"])
            let refusal = try #require(await #expect(throws: SyncError.self) { try await stranger.pull(SyncPullRequest(cursor: nil)) })
            #expect(refusal == .server(status: 401, message: refusal.serverMessage))
            feeds.close()
        }
    }
}

private extension SyncError {
    var serverMessage: String {
        if case .server(_, let message) = self { return message }
        return ""
    }
}
