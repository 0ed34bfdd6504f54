import ArgumentParser
import Foundation
import Hummingbird
import OpenSwiftData
import OpenSwiftDataHummingbird
import OpenSwiftDataPostgres

import SwiftDataSync

/// The sync benchmark's three roles, for `Benchmarks/sync.sh`:
///
/// - `serve`: a sync server on PostgreSQL behind Hummingbird, its store first filled with
///   `--seed` notes by server code (and taken in by the sync), saying `listening <port>`;
/// - `initial`: a new device in a process of its own that syncs everything the server has:
///   time and peak memory;
/// - `measure`: two devices left running (`SyncEngine.run`), the time from a save on one to the
///   note in the other's store, and the bytes a change costs each way.
@main struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync-bench")

    @Option(help: "serve, initial, measure, serve-users or users.") var role: String
    @Option(help: "The PostgreSQL server (serve).") var databaseURL = ""
    @Option(help: "The port to serve on (serve; 0: any).") var port = 0
    @Option(help: "Notes to fill the store with (serve).") var seed = 100_000
    @Option(help: "The sync server's URL (initial, measure).") var server = ""
    @Option(help: "Saves to time (measure).") var saves = 200
    @Option(help: "Users (users).") var users = 1000
    @Option(help: "Users syncing at once (users).") var concurrent = 100
    @Option(help: "Rounds each syncing user makes (users).") var rounds = 10
    @Option(help: "Notes per user (users).") var notes = 20
    @Option(help: "Zones open at once (serve-users).") var openZones = 64

    func run() async throws {
        switch role {
        case "serve": try await Self.serve(URL(string: databaseURL)!, port: port, seed: seed)
        case "initial": try await Self.initial(URL(string: server)!)
        case "measure": try await Self.measure(URL(string: server)!, saves: saves)
        case "serve-users": try await UsersBench.serve(URL(string: databaseURL)!, port: port, openZones: openZones)
        case "users": try await UsersBench.run(URL(string: server)!, users: users, concurrent: concurrent, rounds: rounds, notes: notes)
        default: throw ValidationError("unknown role \(role): serve, initial, measure, serve-users or users")
        }
    }

    static func serve(_ url: URL, port: Int, seed: Int) async throws {
        let container = try ModelContainer(for: Schema(BenchModels.all), configurations: [PostgresConfiguration(url: url, databaseSchema: "syncbench")])
        let ledger = try ModelContainer(for: SyncServer.ledgerSchema, configurations: [PostgresConfiguration("sync", url: url, databaseSchema: "syncbench_sync")])
        let started = ContinuousClock.now
        try await container.perform { context in
            let folders = (0..<100).map { BenchFolder(name: "folder \($0)") }
            for folder in folders { context.insert(folder) }
            try context.save()
            for start in stride(from: 0, to: seed, by: 5000) {
                for index in start..<min(start + 5000, seed) {
                    let note = BenchNote(title: "note \(index)", body: String(repeating: "lorem ipsum ", count: 8), updatedAt: Date(timeIntervalSince1970: Double(index)))
                    context.insert(note)
                    note.folder = folders[index % folders.count]
                }
                try context.save()
            }
        }
        let seeded = ContinuousClock.now
        let sync = try SyncServer(container: container, models: BenchModels.all, ledger: ledger)
        // The first request takes the server code's saves in.
        _ = try await container.perform { _ in try sync.pull(SyncPullRequest(cursor: nil, limit: 1)) }
        let taken = ContinuousClock.now
        report("server: \(seed) notes saved by server code in \(seconds(seeded - started)), taken in by the sync in \(seconds(taken - seeded))")
        let feed = try ModelChangeFeed(container: container)
        let router = Router()
        router.group("sync").addSyncRoutes(sync, feed: feed)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), onServerRunning: { channel in
            report("listening \(channel.localAddress?.port ?? port)")
        })
        try await app.runService()
    }

    static func initial(_ server: URL) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (container, engine) = try device("new", in: folder, server: server, counting: nil)
        let started = ContinuousClock.now
        let summary = try await engine.sync()
        let took = ContinuousClock.now - started
        let notes = try ModelContext(container).fetchCount(FetchDescriptor<BenchNote>())
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMiB = usage.ru_maxrss / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        let peakMiB = usage.ru_maxrss / 1_048_576
        #endif
        report("initial: \(summary.pulled) models (\(notes) notes) to a new device in \(seconds(took)), \(Int(Double(summary.pulled) / took.seconds)) models/s, peak memory \(peakMiB) MiB")
    }

    static func measure(_ server: URL, saves: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = ByteCount()
        let (phone, phoneEngine) = try device("phone", in: folder, server: server, counting: bytes)
        let (laptop, laptopEngine) = try device("laptop", in: folder, server: server, counting: nil)
        // Both start from the server's notes.
        try await phoneEngine.sync()
        try await laptopEngine.sync()

        // Bytes: one property edited on each of `saves` notes, then one insert each.
        let context = ModelContext(phone)
        var descriptor = FetchDescriptor<BenchNote>(sortBy: [SortDescriptor(\.title)])
        descriptor.fetchLimit = saves
        for note in try context.fetch(descriptor) { note.isPinned.toggle() }
        try context.save()
        bytes.reset()
        try await phoneEngine.sync()
        let edits = bytes.reset()
        for index in 0..<saves { context.insert(BenchNote(title: "new \(index)", body: "a short body", updatedAt: .now)) }
        try context.save()
        try await phoneEngine.sync()
        let inserts = bytes.reset()
        try await laptopEngine.sync()
        report("bytes per change, one Bool edited: pushed \(edits.pushed / saves), answered \(edits.pushAnswered / saves); one note inserted: pushed \(inserts.pushed / saves), answered \(inserts.pushAnswered / saves) (JSON, uncompressed)")

        // Latency: both engines left running; a save on the phone until the note is in the laptop's store.
        let running = [Task { await phoneEngine.run(every: .seconds(3600)) }, Task { await laptopEngine.run(every: .seconds(3600)) }]
        defer { for task in running { task.cancel() } }
        try await Task.sleep(for: .seconds(1))
        var latencies: [Duration] = []
        for index in 0..<saves {
            let title = "timed \(index)"
            let started = ContinuousClock.now
            let saving = ModelContext(phone)
            saving.insert(BenchNote(title: title, body: "timed", updatedAt: .now))
            try saving.save()
            let watching = ModelContext(laptop)
            while try watching.fetchCount(FetchDescriptor<BenchNote>(predicate: #Predicate { $0.title == title })) == 0 {
                guard ContinuousClock.now - started < .seconds(30) else { throw ValidationError("\(title) never arrived") }
                try await Task.sleep(for: .milliseconds(1))
            }
            latencies.append(ContinuousClock.now - started)
            try await Task.sleep(for: .milliseconds(20))
        }
        latencies.sort()
        func percentile(_ p: Double) -> String { milliseconds(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) }
        report("save on one device to the note in the other's store (\(saves) saves, engines running, server-sent events): median \(percentile(0.5)), p90 \(percentile(0.9)), p99 \(percentile(0.99)), max \(milliseconds(latencies.last!))")
    }

    static func device(_ name: String, in folder: URL, server: URL, counting: ByteCount?) throws -> (ModelContainer, SyncEngine) {
        let container = try ModelContainer(for: Schema(BenchModels.all), configurations: [ModelConfiguration(url: folder.appendingPathComponent("\(name).store"))])
        let http = SyncHTTPTransport(baseURL: server.appendingPathComponent("sync"))
        let transport: any SyncTransport = counting.map { CountingTransport(base: http, bytes: $0) } ?? http
        let engine = try SyncEngine(container: container, models: BenchModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"), transport: transport, node: name)
        return (container, engine)
    }
}

func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func seconds(_ duration: Duration) -> String {
    String(format: "%.2f s", duration.seconds)
}

func milliseconds(_ duration: Duration) -> String {
    String(format: "%.0f ms", duration.seconds * 1000)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
