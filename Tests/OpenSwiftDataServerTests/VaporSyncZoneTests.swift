import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import OpenSwiftDataServer
import OpenSwiftDataVapor
import SwiftDataSync
import SyncTestModels
import Testing
import TestSupport
import VaporTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A user found by the tests' bearer tokens.
private struct SyncUser: Authenticatable {
    let id: String
}

/// Vapor's own bearer authentication, with two users' tokens.
private struct SyncTokenAuthenticator: AsyncBearerAuthenticator {
    static let users = ["token-ana": "ana", "token-ben": "ben"]

    func authenticate(bearer: BearerAuthorization, for request: Request) async throws {
        if let id = Self.users[bearer.token] { request.auth.login(SyncUser(id: id)) }
    }
}

/// Two users syncing through one Vapor server, each in a zone of their own (PostgreSQL
/// schemas on the tests' server when there is one, else SQLite files): neither receives,
/// overwrites or learns of the other's models, whatever their devices send.
@Suite struct VaporSyncZoneTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vapor-zones-\(UUID().uuidString)")
    let prefix = "z" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8).lowercased()

    private func zones() throws -> SyncZones {
        let schema = Schema(SyncTestModels.all)
        let folder = folder, prefix = prefix
        let locks = try PostgresTestServer.url.map { try PostgresAdvisoryLocks(url: $0, maximumConnections: 2) }
        return SyncZones(models: SyncTestModels.all, maximumOpen: 1) { zone in
            if let url = PostgresTestServer.url, let locks {
                return SyncZones.Stores(
                    container: try ModelContainer(for: schema, configurations: [PostgresConfiguration(schema: schema, url: url, databaseSchema: "\(prefix)_\(zone)")]),
                    ledger: try ModelContainer(for: SyncServer.ledgerSchema, configurations: [PostgresConfiguration(url: url, databaseSchema: "\(prefix)_\(zone)_sync")]),
                    exclusively: { try locks.withLock(named: "sync \(prefix) \(zone)", $0) })
            }
            return SyncZones.Stores(
                container: try ModelContainer(for: schema, configurations: ModelConfiguration(url: folder.appendingPathComponent("\(zone).store"))),
                ledger: try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("\(zone)-sync.store"))))
        }
    }

    /// A device's store and engine, signed in with `token`; its transport keeps the bodies of
    /// its pushes, for replaying.
    private func device(_ name: String, token: String, port: Int) throws -> (ModelContainer, SyncEngine, RecordingTransport) {
        let store = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
        let transport = RecordingTransport(SyncHTTPTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/sync")!, headers: ["Authorization": "Bearer \(token)"]))
        return (store, try SyncEngine(
            container: store, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"), transport: transport, node: name),
            transport)
    }

    /// POSTs `body` to a sync route, with `token` when given: the status and the body.
    private func post(_ route: String, _ body: Data, token: String?, port: Int) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/sync/\(route)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func eachUserSyncsOnlyTheirOwnModelsWhateverTheirDevicesSend() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zones = try zones()
        let feeds = ModelChangeFeeds()
        try await withApp(configure: { app in
            app.grouped("sync").grouped(SyncTokenAuthenticator(), SyncUser.guardMiddleware())
                .addSyncRoutes(zones, feeds: feeds) { try $0.auth.require(SyncUser.self).id }
        }) { app in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            let (anaPhone, anaPhoneEngine, anaPhonePushes) = try device("ana-phone", token: "token-ana", port: port)
            let (anaLaptop, anaLaptopEngine, _) = try device("ana-laptop", token: "token-ana", port: port)
            let (benPhone, benPhoneEngine, _) = try device("ben-phone", token: "token-ben", port: port)

            // Both make a model with the same unique value: one each, never merged across users.
            do {
                let context = ModelContext(anaPhone)
                context.insert(Journey(title: "Ana's trip", departure: .now, budget: 1200))
                context.insert(Country(code: "PT", name: "Portugal (Ana)"))
                try context.save()
            }
            do {
                let context = ModelContext(benPhone)
                context.insert(Journey(title: "Ben's trip", departure: .now))
                context.insert(Country(code: "PT", name: "Portugal (Ben)"))
                try context.save()
            }
            #expect(try await anaPhoneEngine.sync().pushed == 2)
            #expect(try await benPhoneEngine.sync().pushed == 2)
            #expect(try await anaLaptopEngine.sync().pulled == 2)
            #expect(try await benPhoneEngine.sync().pulled == 0)
            #expect(Set(try ModelContext(anaLaptop).fetch(FetchDescriptor<Journey>()).map(\.title)) == ["Ana's trip"])
            #expect(try ModelContext(anaLaptop).fetch(FetchDescriptor<Country>()).map(\.name) == ["Portugal (Ana)"])
            #expect(Set(try ModelContext(benPhone).fetch(FetchDescriptor<Journey>()).map(\.title)) == ["Ben's trip"])
            #expect(try ModelContext(benPhone).fetch(FetchDescriptor<Country>()).map(\.name) == ["Portugal (Ben)"])
            let anaBefore = try await anaLaptopEngine.snapshot()

            // Without a user, nothing is served.
            let pull = try JSONEncoder().encode(SyncPullRequest(cursor: nil))
            #expect(try await post("pull", pull, token: nil, port: port).0 == 401)
            #expect(try await post("pull", pull, token: "token-eve", port: port).0 == 401)

            // Ben's device names Ana's models by their global identifiers (guessed, or learnt):
            // an edit and a deletion. They land in Ben's zone, where they name nothing of Ana's.
            let anaJourneyID = try #require(anaBefore.first { $0.value.entity == "Journey" }?.key)
            let anaCountryID = try #require(anaBefore.first { $0.value.entity == "Country" }?.key)
            let stamp = SyncTimestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000, counter: 0, node: "ben-crafted")
            var edit = SyncedModelState<String>(entity: "Journey")
            edit.set("title", to: "\"hacked\"", at: stamp)
            var deletion = SyncedModelState<String>(entity: "Country")
            deletion.delete(at: stamp)
            let crafted = SyncPushRequest(node: "ben-crafted", changes: [
                SyncChange(id: "ben-crafted-1", model: SyncModel(id: anaJourneyID, state: edit)),
                SyncChange(id: "ben-crafted-2", model: SyncModel(id: anaCountryID, state: deletion)),
            ])
            let (status, answer) = try await post("push", try JSONEncoder().encode(crafted), token: "token-ben", port: port)
            #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
            let pushed = try JSONDecoder().decode(SyncPushResponse.self, from: answer)
            // The answer holds what Ben sent, and nothing of Ana's (no departure, no budget).
            #expect(pushed.models.first { $0.id == anaJourneyID }?.state.properties.keys.sorted() == ["title"])
            // Ana's pull from the start, replayed with Ben's token: Ben's zone only.
            let (_, benAll) = try await post("pull", pull, token: "token-ben", port: port)
            let benModels = try JSONDecoder().decode(SyncPullResponse.self, from: benAll).models
            #expect(!benModels.contains { $0.state.value(of: "title") == "\"Ana's trip\"" || $0.state.value(of: "name") == "\"Portugal (Ana)\"" })
            // Ana's models are untouched.
            try await anaPhoneEngine.sync()
            try await anaLaptopEngine.sync()
            #expect(try await anaLaptopEngine.snapshot() == anaBefore)
            #expect(try await anaPhoneEngine.snapshot() == anaBefore)

            // A push of Ana's, replayed: with Ben's token it lands in Ben's zone; with Ana's it
            // changes nothing (merging a change twice is merging it once).
            do {
                let context = ModelContext(anaPhone)
                let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
                journey.budget = 1500
                try context.save()
            }
            try await anaPhoneEngine.sync()
            let recorded = try #require(anaPhonePushes.last)
            try await anaLaptopEngine.sync()
            let anaAfterEdit = try await anaLaptopEngine.snapshot()
            #expect(anaAfterEdit[anaJourneyID]?.values["budget"] == "1500")
            #expect(try await post("push", recorded, token: "token-ana", port: port).0 == 200)
            #expect(try await post("push", recorded, token: "token-ben", port: port).0 == 200)
            try await anaLaptopEngine.sync()
            #expect(try await anaLaptopEngine.snapshot() == anaAfterEdit)
            // Ben's own devices still see only their own models: what was sent for models his zone
            // never had makes none (a journey needs its departure), and stays in its ledger.
            try await benPhoneEngine.sync()
            #expect(Set(try ModelContext(benPhone).fetch(FetchDescriptor<Journey>()).map(\.title)) == ["Ben's trip"])
            #expect(try ModelContext(benPhone).fetch(FetchDescriptor<Country>()).map(\.name) == ["Portugal (Ben)"])
            // A device newer than the server is refused, in words its app can show.
            let newer = SyncHTTPTransport(baseURL: URL(string: "http://127.0.0.1:\(port)/sync")!, headers: ["Authorization": "Bearer token-ben"])
            let refusal = try #require(await #expect(throws: SyncError.self) { try await newer.pull(SyncPullRequest(cursor: nil, schemaVersion: "9.0.0")) })
            if case .refused(let status, let message) = refusal {
                #expect(status == 409)
                #expect(message.contains("newer than its server (1.0.0)"), "\(message)")
            } else {
                Issue.record("not a refusal: \(refusal)")
            }
            // One zone open at a time: Ana's and Ben's were opened again and again.
            #expect(zones.openZones.count == 1)
            feeds.close()
            await app.server.shutdown()
        }
    }
}

/// A transport that keeps the body of each push it sends.
private final class RecordingTransport: SyncTransport, @unchecked Sendable {
    let inner: SyncHTTPTransport
    private let lock = NSLock()
    private var pushes: [Data] = []

    init(_ inner: SyncHTTPTransport) { self.inner = inner }

    var last: Data? { lock.withLock { pushes.last } }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let body = try JSONEncoder().encode(request)
        lock.withLock { pushes.append(body) }
        return try await inner.push(request)
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse { try await inner.pull(request) }

    func changes() -> AsyncThrowingStream<Void, any Error> { inner.changes() }
}
