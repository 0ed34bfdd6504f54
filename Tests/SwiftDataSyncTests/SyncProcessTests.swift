import Foundation
import OpenSwiftDataPostgres
import SwiftData
import SwiftDataSync
import SyncTestModels
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Three device processes, each with its own SQLite store, and two server processes on one
/// PostgreSQL database behind Hummingbird (each device talks to one), syncing over HTTP: random
/// edits made online and offline, a change made by other server code on the same database;
/// after everyone syncs, every device holds what the server holds, model by model and value by
/// value.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct SyncProcessTests {
    @Test func threeDeviceProcessesAndAServerProcessConverge() async throws {
        let world = try SyncProcesses(servers: 2)
        defer { world.stop() }
        let devices = ["phone", "tablet", "laptop"]
        let edits = try await onAThreadOfItsOwn {
            let running = try devices.enumerated().map { index, name in try world.start(device: name, ["edit", "\(index + 11)", "15"]) }
            return running.map { world.finish($0) }
        }
        for (name, edit) in zip(devices, edits) { #expect(edit.status == 0, "\(name): \(edit.output)") }

        // Server code in another process changes the same models: a new journey, and a rename.
        let server = try ModelContainer(
            for: Schema(SyncTestModels.all),
            configurations: [PostgresConfiguration(url: world.postgres, databaseSchema: world.schema)])
        let context = ModelContext(server)
        context.insert(Journey(title: "from the server", departure: Date(timeIntervalSinceReferenceDate: 1)))
        let renamed = try #require(try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)])).first)
        renamed.title = "renamed on the server"
        try context.save()

        for _ in 0..<2 {
            for name in devices {
                let sync = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["sync"])) }
                #expect(sync.status == 0, "\(name): \(sync.output)")
            }
        }
        let onServer = try await world.serverSnapshot()
        #expect(onServer.values.contains { $0.values["title"] == "\"from the server\"" })
        #expect(onServer.values.contains { $0.values["title"] == "\"renamed on the server\"" })
        #expect(onServer.count > 10)
        for name in devices {
            let dump = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["snapshot"])) }
            let onDevice = try JSONDecoder().decode([String: SyncedModelSnapshot].self, from: Data(dump.output.utf8))
            #expect(onDevice == onServer, "\(name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
        }
    }

    /// Device processes offline: two make the same country (a unique code) and each links a
    /// journey to it; then one removes a label from a journey after another, which had removed
    /// it and synced, added it back. After everyone syncs, both journeys lead to the one
    /// country the server kept and the label added back is there (the removal never saw that
    /// addition), on every node.
    @Test func devicesLinkingToOneUniqueModelAndRemovingAndAddingOneLinkConverge() async throws {
        let world = try SyncProcesses()
        defer { world.stop() }
        func run(_ name: String, _ arguments: [String]) async throws {
            let done = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, arguments)) }
            #expect(done.status == 0, "\(name) \(arguments): \(done.output)")
        }
        let devices = ["phone", "laptop", "tablet"]
        try await run("phone", ["journey", "Lisbon", "PT"])
        try await run("laptop", ["journey", "Porto", "PT"])
        try await run("phone", ["label", "Lisbon", "coast", "add"])
        for name in devices + devices { try await run(name, ["sync"]) }
        // The phone removes the label and syncs, then adds it back offline; the laptop, offline
        // since before, removes the label after that.
        try await run("phone", ["label", "Lisbon", "coast", "remove"])
        try await run("phone", ["sync"])
        try await run("phone", ["label", "Lisbon", "coast", "add"])
        try await run("laptop", ["label", "Lisbon", "coast", "remove"])
        for name in ["laptop", "phone"] + devices { try await run(name, ["sync"]) }

        let onServer = try await world.serverSnapshot()
        let countries = onServer.filter { $0.value.entity == "Country" }
        #expect(countries.count == 1, "\(countries)")
        func journey(_ title: String) -> SyncedModelSnapshot? { onServer.values.first { $0.entity == "Journey" && $0.values["title"] == "\"\(title)\"" } }
        for title in ["Lisbon", "Porto"] {
            #expect(journey(title)?.values["country"] == countries.keys.first.map { "\"\($0)\"" }, "\(title): \(journey(title)?.description ?? "none")")
        }
        let coast = onServer.first { $0.value.entity == "Label" && $0.value.values["name"] == "\"coast\"" }?.key
        #expect(coast != nil && journey("Lisbon")?.members["labels"] == [coast!], "\(journey("Lisbon")?.description ?? "none")")
        for name in devices {
            let onDevice = try await world.deviceSnapshot(name)
            #expect(onDevice == onServer, "\(name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
        }
    }

    /// A device killed (SIGKILL) at a random moment while it syncs 300 new journeys and their
    /// labels, then started again: once everyone has synced, every journey has the labels the
    /// device gave it, on the server and on every device, and every node holds the same.
    @Test func aDeviceKilledWhilePushingLinksLosesNoneOfThem() async throws {
        let world = try SyncProcesses()
        defer { world.stop() }
        let devices = ["phone", "tablet", "laptop"]
        // Some history first, on every device.
        for (index, name) in devices.enumerated() {
            let edit = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["edit", "\(index + 41)", "6"])) }
            #expect(edit.status == 0, "\(name): \(edit.output)")
        }
        var random = SplitMix(seed: 62)
        for run in 0..<3 {
            let prefix = "bulk\(run)"
            let delay = Double.random(in: 0.05...1.5, using: &random)
            let killed = try await onAThreadOfItsOwn { () throws -> String in
                let process = try world.start(device: "phone", ["bulk", prefix, "300"])
                let said = world.waitForLine("saved", from: process)
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
                return said + world.finish(process).output
            }
            #expect(killed.hasPrefix("saved"), "\(prefix): \(killed)")
            for _ in 0..<2 {
                for name in devices {
                    let sync = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["sync"])) }
                    #expect(sync.status == 0, "\(name): \(sync.output)")
                }
            }
            let onServer = try await world.serverSnapshot()
            let made = try await world.deviceSnapshot("phone")
            let journeys = made.filter { $0.value.entity == "Journey" && $0.value.values["title"]?.hasPrefix("\"\(prefix)-") == true }
            #expect(journeys.count == 300, "\(prefix): the phone has \(journeys.count) of its journeys")
            let lost = journeys.filter { id, journey in
                journey.members["labels"]?.isEmpty != false || onServer[id]?.members["labels"] != journey.members["labels"]
            }
            #expect(lost.isEmpty, "\(prefix), killed after \(delay) s: \(lost.count) journeys differ on the server, such as \(lost.keys.sorted().prefix(3).map { "\($0): phone \(made[$0]!.description), server \(onServer[$0]?.description ?? "none")" })")
            for name in devices {
                let onDevice = try await world.deviceSnapshot(name)
                #expect(onDevice == onServer, "\(prefix): \(name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
            }
        }
    }

    /// Engines left running sync on their own: a save on one device reaches the others through
    /// the server's change signal, with no call to `sync()` and no timer (its interval is an
    /// hour). Thirty saves, from each device in turn, at random moments; the time each takes to
    /// reach the server and every other device is reported, and none may go quiet.
    @Test func aSaveOnOneDeviceAppearsOnTheOthersWithoutAskingToSync() async throws {
        let world = try SyncProcesses()
        defer { world.stop() }
        let transport = SyncHTTPTransport(baseURL: world.serverURL.appendingPathComponent("sync"))
        let names = ["phone", "watch", "tablet"]
        var devices: [(container: ModelContainer, engine: SyncEngine)] = []
        for name in names {
            let container = try ModelContainer(
                for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: world.folder.appendingPathComponent("\(name).store")))
            let engine = try SyncEngine(
                container: container, models: SyncTestModels.all, ledgerURL: world.folder.appendingPathComponent("\(name)-sync.store"),
                transport: transport, node: name)
            devices.append((container, engine))
        }
        let running = devices.map { device in Task { await device.engine.run(every: .seconds(3600)) } }
        defer { for task in running { task.cancel() } }
        // Every engine has made its first sync and holds the server's signal.
        try await Task.sleep(for: .seconds(1))

        let server = try ModelContainer(
            for: Schema(SyncTestModels.all), configurations: [PostgresConfiguration(url: world.postgres, databaseSchema: world.schema)])
        var random = SplitMix(seed: 62)
        var latencies: [Duration] = []
        var toServer: [Duration] = []
        var quiet: [String] = []
        for index in 0..<30 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &random)))
            let sender = index % devices.count
            let title = "save \(index) from \(names[sender])"
            let context = ModelContext(devices[sender].container)
            context.insert(Journey(title: title, departure: .now))
            let saved = ContinuousClock.now
            try context.save()
            let receivers = devices.indices.filter { $0 != sender }.map { devices[$0].container }
            var reachedServer: Duration?
            let arrived = await eventually(timeout: .seconds(60)) {
                if reachedServer == nil, (try? ModelContext(server).fetchCount(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == title }))) == 1 {
                    reachedServer = ContinuousClock.now - saved
                }
                return receivers.allSatisfy { (try? ModelContext($0).fetchCount(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == title }))) == 1 }
            }
            if arrived { latencies.append(ContinuousClock.now - saved) } else { quiet.append(title) }
            toServer.append(reachedServer ?? .seconds(-1))
        }
        let sorted = latencies.sorted()
        let milliseconds = { (duration: Duration) in Int(duration / .milliseconds(1)) }
        if let last = sorted.last {
            print("SyncProcessTests: the server had each save after \(toServer.map(milliseconds)) ms")
            print("SyncProcessTests: a save reached every other device in \(milliseconds(sorted[sorted.count / 2])) ms (median), \(milliseconds(sorted[min(sorted.count - 1, sorted.count * 9 / 10)])) ms (p90), \(milliseconds(last)) ms (slowest) over \(sorted.count) saves: \(sorted.map(milliseconds))")
        }
        #expect(quiet.isEmpty, "saves that never reached every device within 60 s: \(quiet)")
        for (name, device) in zip(names, devices) {
            let status = device.engine.status
            let error = await MainActor.run { status.lastError }
            #expect(error == nil, "\(name): \(error ?? "")")
        }
    }
}

/// A sync server process on a schema of its own in the tests' PostgreSQL, and the device
/// processes that talk to it, each with its store in one folder.
final class SyncProcesses: @unchecked Sendable {
    let postgres: URL
    let schema = "sync_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
    let folder: URL
    private(set) var servers: [Process] = []
    private(set) var serverPorts: [Int] = []
    var serverURLs: [URL] { serverPorts.map { URL(string: "http://127.0.0.1:\($0)")! } }
    /// The first server's address.
    var serverURL: URL { serverURLs[0] }
    private static let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    init(servers count: Int = 1) throws {
        postgres = try #require(PostgresTestServer.url)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-processes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for _ in 0..<count {
            let (server, port) = try Self.startServer(postgres: postgres, schema: schema, port: 0)
            servers.append(server)
            serverPorts.append(port)
        }
    }

    private static func startServer(postgres: URL, schema: String, port: Int) throws -> (Process, Int) {
        let server = Process()
        server.executableURL = products.appendingPathComponent("SyncServerProcess")
        server.arguments = [postgres.absoluteString, schema, "\(port)"]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        // The first line says where it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        let listening = try #require(text.split(separator: "\n").first.flatMap { $0.hasPrefix("listening ") ? Int($0.dropFirst(10)) : nil }, "the server said \(text)")
        return (server, listening)
    }

    /// Kills server `index` (SIGKILL: whatever it was doing stops there) and starts it again on
    /// its port.
    func killAndRestartServer(_ index: Int) throws {
        kill(servers[index].processIdentifier, SIGKILL)
        servers[index].waitUntilExit()
        for attempt in 0..<50 {
            do {
                (servers[index], _) = try Self.startServer(postgres: postgres, schema: schema, port: serverPorts[index])
                return
            } catch where attempt < 49 {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// A device process talking to `server`, or to the server the device's name picks (devices
    /// keep to one).
    func start(device name: String, _ arguments: [String], server: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = Self.products.appendingPathComponent("SyncDeviceProcess")
        let server = server ?? serverURLs[name.count % serverURLs.count]
        process.arguments = [server.absoluteString, folder.path, name] + arguments
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    func finish(_ process: Process) -> (status: Int32, output: String) {
        let output = String(decoding: (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Reads the process's output until it says `line` (or ends); returns what it said.
    func waitForLine(_ line: String, from process: Process) -> String {
        var said = Data()
        let handle = (process.standardOutput as! Pipe).fileHandleForReading
        while !String(decoding: said, as: UTF8.self).split(separator: "\n").contains(Substring(line)) {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { break }
            said += chunk
        }
        return String(decoding: said, as: UTF8.self)
    }

    /// The device's store, as its snapshot (no sync).
    func deviceSnapshot(_ name: String) async throws -> [String: SyncedModelSnapshot] {
        let dump = try await onAThreadOfItsOwn { self.finish(try self.start(device: name, ["snapshot"])) }
        return try JSONDecoder().decode([String: SyncedModelSnapshot].self, from: Data(dump.output.utf8))
    }

    func serverSnapshot() async throws -> [String: SyncedModelSnapshot] {
        let (data, _) = try await URLSession.shared.data(from: serverURL.appendingPathComponent("snapshot"))
        return try JSONDecoder().decode([String: SyncedModelSnapshot].self, from: data)
    }

    func stop() {
        for server in servers {
            server.terminate()
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
