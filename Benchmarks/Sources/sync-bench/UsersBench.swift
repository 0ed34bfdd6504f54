import ArgumentParser
import Foundation
import Hummingbird
import OpenSwiftData
import OpenSwiftDataHummingbird
import OpenSwiftDataPostgres
import Synchronization
import SwiftDataSync

/// The many-users roles of the sync benchmark, for `Benchmarks/sync-users.sh`:
///
/// - `serve-users`: a sync server with a zone per user (two PostgreSQL schemas each, one
///   connection each while open, `--open-zones` open at most) behind Hummingbird; the user is
///   the bearer token;
/// - `users`: `--users` users' devices, each filling its user's zone with notes, then
///   `--concurrent` of them editing and syncing at once: changes per second and push and pull
///   latencies.
enum UsersBench {
    static func serve(_ url: URL, port: Int, openZones: Int) async throws {
        let locks = try PostgresAdvisoryLocks(url: url, maximumConnections: 16)
        let zones = SyncZones(models: BenchModels.all, maximumOpen: openZones) { zone in
            var app = PostgresConfiguration(schema: Schema(BenchModels.all), url: url, databaseSchema: "u_\(zone)")
            app.maximumConnections = 1
            var ledger = PostgresConfiguration("sync", url: url, databaseSchema: "u_\(zone)_sync")
            ledger.maximumConnections = 1
            return SyncZones.Stores(
                container: try ModelContainer(for: Schema(BenchModels.all), configurations: [app]),
                ledger: try ModelContainer(for: SyncServer.ledgerSchema, configurations: [ledger]),
                exclusively: { try locks.withLock(named: "sync \(zone)", $0) })
        }
        let feeds = ModelChangeFeeds()
        let router = Router()
        router.group("sync").addSyncRoutes(zones, feeds: feeds) { request, _ in
            // The bench's stand-in for the app's authentication: the bearer token is the user.
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer user"),
                  header.dropFirst(11).allSatisfy(\.isNumber) else { throw HTTPError(.unauthorized) }
            return String(header.dropFirst(7))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), onServerRunning: { channel in
            report("listening \(channel.localAddress?.port ?? port)")
        })
        try await app.runService()
    }

    static func run(_ server: URL, users: Int, concurrent: Int, rounds: Int, notes: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-users-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let timings = Timings()

        // Every user's first device fills the user's zone, eight users at a time.
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in 0..<users {
                if user >= 8 { try await group.next() }
                group.addTask {
                    let (container, engine) = try device(user: user, in: folder, server: server, timings: nil)
                    let context = ModelContext(container)
                    let folders = (0..<2).map { BenchFolder(name: "folder \($0)") }
                    for folder in folders { context.insert(folder) }
                    for index in 0..<notes {
                        let note = BenchNote(title: "note \(index)", body: String(repeating: "lorem ipsum ", count: 8))
                        context.insert(note)
                        note.folder = folders[index % 2]
                    }
                    try context.save()
                    try await engine.sync()
                }
            }
            try await group.waitForAll()
        }
        let filled = ContinuousClock.now - started
        report("filled: \(users) users x \(notes + 2) models, each user's device pushing its own, 8 at a time: \(seconds(filled)) (\(String(format: "%.0f", Double(users * (notes + 2)) / filled.seconds)) models/s)")

        // Then `concurrent` users' devices at once, `rounds` rounds each: edit five notes and add
        // one, save, sync (push, then pull until nothing is left).
        let devices = try (0..<concurrent).map { index in try device(user: index * users / concurrent, in: folder, server: server, timings: timings) }
        report("load-start")
        let loadStarted = ContinuousClock.now
        let changes = Timings()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (container, engine) in devices {
                group.addTask {
                    for round in 0..<rounds {
                        let context = ModelContext(container)
                        var descriptor = FetchDescriptor<BenchNote>(sortBy: [SortDescriptor(\.title)])
                        descriptor.fetchOffset = (round * 5) % max(1, notes - 5)
                        descriptor.fetchLimit = 5
                        for note in try context.fetch(descriptor) { note.isPinned.toggle() }
                        context.insert(BenchNote(title: "added \(round)", body: "a short body"))
                        try context.save()
                        let summary = try await engine.sync()
                        changes.count("changes", summary.pushed)
                    }
                }
            }
            try await group.waitForAll()
        }
        let load = ContinuousClock.now - loadStarted
        report("load-end")
        let total = changes.counted("changes")
        report("load: \(concurrent) devices of \(concurrent) users syncing at once, \(rounds) rounds each (5 edits and 1 insert, save, sync): \(total) changes in \(seconds(load)), \(String(format: "%.0f", Double(total) / load.seconds)) changes/s")
        for (name, durations) in timings.sorted() {
            func percentile(_ p: Double) -> String { milliseconds(durations[min(durations.count - 1, Int(Double(durations.count) * p))]) }
            report("\(name) (\(durations.count) requests): median \(percentile(0.5)), p90 \(percentile(0.9)), p99 \(percentile(0.99)), max \(milliseconds(durations.last!))")
        }
    }

    static func device(user: Int, in folder: URL, server: URL, timings: Timings?) throws -> (ModelContainer, SyncEngine) {
        let container = try ModelContainer(for: Schema(BenchModels.all), configurations: [ModelConfiguration(url: folder.appendingPathComponent("user\(user).store"))])
        let http = SyncHTTPTransport(baseURL: server.appendingPathComponent("sync"), headers: ["Authorization": "Bearer user\(user)"])
        let transport: any SyncTransport = timings.map { TimingTransport(base: http, timings: $0) } ?? http
        let engine = try SyncEngine(
            container: container, models: BenchModels.all, ledgerURL: folder.appendingPathComponent("user\(user)-sync.store"), transport: transport, node: "user\(user)")
        return (container, engine)
    }
}

/// Each kind of request's durations, and counts.
final class Timings: Sendable {
    private let durations = Mutex<[String: [Duration]]>([:])
    private let counts = Mutex<[String: Int]>([:])

    func count(_ name: String, _ amount: Int) {
        counts.withLock { $0[name, default: 0] += amount }
    }

    func counted(_ name: String) -> Int {
        counts.withLock { $0[name] ?? 0 }
    }

    func add(_ name: String, _ duration: Duration) {
        durations.withLock { $0[name, default: []].append(duration) }
    }

    func sorted() -> [(String, [Duration])] {
        durations.withLock { $0 }.map { ($0.key, $0.value.sorted()) }.sorted { $0.0 < $1.0 }
    }
}

/// A transport that times each push and pull.
struct TimingTransport: SyncTransport {
    let base: SyncHTTPTransport
    let timings: Timings

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let started = ContinuousClock.now
        defer { timings.add("push", ContinuousClock.now - started) }
        return try await base.push(request)
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        let started = ContinuousClock.now
        defer { timings.add("pull", ContinuousClock.now - started) }
        return try await base.pull(request)
    }

    func changes() -> AsyncThrowingStream<Void, any Error> {
        base.changes()
    }
}
