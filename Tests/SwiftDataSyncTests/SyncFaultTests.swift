import Foundation
import Synchronization
import SwiftData
import Testing
import TestSupport
@testable import SwiftDataSync
import SyncTestModels

/// Devices and a server that crash between their two saves (mid-apply, mid-push, the server
/// mid-request), lose requests and answers, get answers twice, and run clocks hours off, at
/// random: once the faults stop and everyone syncs, every node holds the same, every mark
/// made is there exactly once and every device's own counter has its last value.
@Suite struct SyncFaultTests {
    /// Seeds times rounds: a few hundred randomized rounds in all (more with SYNC_FAULT_SEEDS;
    /// SYNC_FAULT_SEED=N runs seed N alone).
    static let seeds = UInt64(ProcessInfo.processInfo.environment["SYNC_FAULT_SEEDS"] ?? "") ?? 24
    static let rounds = 12

    @Test func nothingIsLostOrAppliedTwiceThroughCrashesLostAnswersAndSkewedClocks() async throws {
        var failed: [UInt64] = []
        let only = ProcessInfo.processInfo.environment["SYNC_FAULT_SEED"].flatMap(UInt64.init)
        for seed in 1...Self.seeds where only == nil || only == seed {
            let problems = try await FaultWorld(seed: seed).run(rounds: Self.rounds)
            if !problems.isEmpty {
                failed.append(seed)
                Issue.record("seed \(seed) (SYNC_FAULT_SEED=\(seed) runs it alone): \(problems.prefix(6).joined(separator: "; "))")
            }
        }
        #expect(failed.isEmpty, "failing seeds: \(failed)")
    }
}

/// Random draws shared by the faults the transport and the interruption points make.
final class Dice: Sendable {
    private let random: Mutex<SplitMix>

    init(seed: UInt64) { random = Mutex(SplitMix(seed: seed)) }

    /// True once in `n` draws.
    func oneIn(_ n: Int) -> Bool { random.withLock { Int.random(in: 0..<n, using: &$0) == 0 } }
}

/// Whether something happened, set from any thread.
final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set(_ isSet: Bool) { value.withLock { $0 = isSet } }
}

/// A failure the fault tests make, as a process dying or a network losing a message.
enum SimulatedFault: Error {
    case crashed, requestLost, answerLost
}

/// A server whose process can die mid-request and start again on the same stores.
final class RestartingServer: @unchecked Sendable {
    let folder: URL
    private let lock = NSLock()
    private var server: SyncServer
    private(set) var container: ModelContainer
    /// Whether the server's process died since the last restart.
    private var died = false
    var faults: Dice?

    init(folder: URL) throws {
        self.folder = folder
        (server, container) = try Self.open(folder)
    }

    private static func open(_ folder: URL) throws -> (SyncServer, ModelContainer) {
        let container = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("server.store")))
        let ledger = try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("server-sync.store")))
        return (try SyncServer(container: container, models: SyncTestModels.all, ledger: ledger, node: "server"), container)
    }

    /// The server to send a request to, with the interruption point armed when faults are on.
    var current: SyncServer {
        lock.withLock {
            let dice = faults
            server.simulateFaults(interruption: dice.map { dice in
                { [weak self] _ in
                    if dice.oneIn(6) {
                        self?.lock.withLock { self?.died = true }
                        throw SimulatedFault.crashed
                    }
                }
            })
            return server
        }
    }

    /// Starts the server again if its process died: what it had not saved is gone.
    func restartIfDied() throws {
        try lock.withLock {
            guard died else { return }
            (server, container) = try Self.open(folder)
            died = false
        }
    }
}

/// The server's routes over the loopback, losing requests and answers and sending requests
/// twice while `faults` is set.
final class FaultyTransport: SyncTransport, @unchecked Sendable {
    let server: RestartingServer
    private let lock = NSLock()
    private var dice: Dice?

    init(server: RestartingServer) { self.server = server }

    var faults: Dice? {
        get { lock.withLock { dice } }
        set { lock.withLock { dice = newValue } }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try exchange(request) { try server.current.push($0) }
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try exchange(request) { try server.current.pull($0) }
    }

    private func exchange<Request: Codable, Response: Codable>(_ request: Request, _ serve: (Request) throws -> Response) throws -> Response {
        let dice = faults
        if dice?.oneIn(8) == true { throw SimulatedFault.requestLost }
        let sent = try roundTrip(request)
        var answer = try serve(sent)
        if dice?.oneIn(8) == true { answer = try serve(sent) }
        if dice?.oneIn(8) == true { throw SimulatedFault.answerLost }
        return try roundTrip(answer)
    }

    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }
}

/// One seed's world: a server and three devices, two with clocks hours off.
final class FaultWorld {
    let seed: UInt64
    let folder: URL
    let server: RestartingServer
    var random: SplitMix
    let dice: Dice
    let names = ["phone", "tablet", "laptop"]
    let skews: [TimeInterval] = [0, 3 * 3600, -5 * 3600]
    var devices: [Device] = []
    /// Every mark made, with the pins its device linked it to, and each device's last count.
    var marks: Set<String> = []
    var pins: [String: [String]] = [:]
    var counts: [String: Int] = [:]

    final class Device {
        let name: String
        let transport: FaultyTransport
        var container: ModelContainer
        var engine: SyncEngine
        let crashed = Flag()

        init(name: String, folder: URL, transport: FaultyTransport) throws {
            self.name = name
            self.transport = transport
            (container, engine) = try Self.open(name, folder, transport)
        }

        static func open(_ name: String, _ folder: URL, _ transport: FaultyTransport) throws -> (ModelContainer, SyncEngine) {
            let container = try ModelContainer(for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
            let engine = try SyncEngine(
                container: container, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
                transport: transport, node: name, batchSize: 7)
            return (container, engine)
        }
    }

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix(seed: seed)
        dice = Dice(seed: seed &* 7919)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-faults-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try RestartingServer(folder: folder)
        for name in names { devices.append(try Device(name: name, folder: folder, transport: FaultyTransport(server: server))) }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Arms (or disarms) a device's faults: its interruption point and its transport's.
    private func arm(_ device: Device, skew: TimeInterval, faults: Bool) async {
        let dice = self.dice
        let crashed = device.crashed
        await device.engine.simulateFaults(interruption: faults ? { _ in
            if dice.oneIn(5) {
                crashed.set(true)
                throw SimulatedFault.crashed
            }
        } : nil, clockSkew: skew)
        device.transport.faults = faults ? dice : nil
    }

    /// The device's process starting again: a new container and engine on its files.
    private func restart(_ device: Device, skew: TimeInterval) async throws {
        await device.container.close()
        (device.container, device.engine) = try Device.open(device.name, folder, device.transport)
        device.crashed.set(false)
        await arm(device, skew: skew, faults: true)
    }

    /// Runs the rounds, then syncs everyone without faults; returns what is wrong.
    func run(rounds: Int) async throws -> [String] {
        server.faults = dice
        for (device, skew) in zip(devices, skews) { await arm(device, skew: skew, faults: true) }
        for round in 0..<rounds {
            for (device, skew) in zip(devices, skews) {
                let context = ModelContext(device.container)
                for _ in 0..<Int.random(in: 0...3, using: &random) { try RandomEdit.apply(in: context, using: &random) }
                let mark = "\(device.name)-\(round)"
                let made = Mark(name: mark)
                context.insert(made)
                marks.insert(mark)
                pins[mark] = try RandomEdit.pin(made, of: device.name, in: context, using: &random)
                let name = device.name
                if let tally = try context.fetch(FetchDescriptor<Tally>(predicate: #Predicate { $0.device == name })).first {
                    tally.count += 1
                } else {
                    context.insert(Tally(device: name, count: 1))
                }
                counts[name, default: 0] += 1
                try context.save()
                guard Int.random(in: 0..<3, using: &random) > 0 else { continue }
                do {
                    try await device.engine.sync()
                } catch {
                    try server.restartIfDied()
                    // A device that died, or (now and then) one whose answer was lost: it dies
                    // mid-push, before it could take the answer in.
                    if device.crashed.isSet || (error as? SimulatedFault == .answerLost && Bool.random(using: &random)) {
                        try await restart(device, skew: skew)
                    }
                }
            }
            if round % 4 == 3 {
                let context = ModelContext(server.container)
                try RandomEdit.apply(in: context, using: &random)
                try context.save()
            }
        }
        server.faults = nil
        for (device, skew) in zip(devices, skews) { await arm(device, skew: skew, faults: false) }
        for _ in 0..<2 {
            for device in devices {
                try await device.engine.sync()
            }
        }
        return try await problems()
    }

    private func problems() async throws -> [String] {
        var problems: [String] = []
        let onServer = try server.current.snapshot()
        let serverMarks = try ModelContext(server.container).fetch(FetchDescriptor<Mark>()).map(\.name)
        problems += Self.markProblems(serverMarks, expected: marks, node: "server")
        problems += try Self.pinProblems(ModelContext(server.container), expected: pins, node: "server")
        problems += try Self.countProblems(ModelContext(server.container), expected: counts, node: "server")
        for device in devices {
            let onDevice = try await device.engine.snapshot()
            if onDevice != onServer {
                problems.append("\(device.name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
            }
            let context = ModelContext(device.container)
            problems += Self.markProblems(try context.fetch(FetchDescriptor<Mark>()).map(\.name), expected: marks, node: device.name)
            problems += try Self.countProblems(context, expected: counts, node: device.name)
            problems += try Self.pinProblems(context, expected: pins, node: device.name)
        }
        return problems
    }

    private static func markProblems(_ names: [String], expected: Set<String>, node: String) -> [String] {
        var problems: [String] = []
        let counted = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +)
        let twice = counted.filter { $0.value > 1 }.keys.sorted()
        if !twice.isEmpty { problems.append("\(node) has marks more than once: \(twice.prefix(5))") }
        let missing = expected.subtracting(counted.keys).sorted()
        if !missing.isEmpty { problems.append("\(node) lost marks: \(missing.prefix(5))") }
        return problems
    }

    /// Marks whose pins are not the ones their device linked them to.
    static func pinProblems(_ context: ModelContext, expected: [String: [String]], node: String) throws -> [String] {
        let wrong = try context.fetch(FetchDescriptor<Mark>()).filter { mark in
            expected[mark.name].map { $0 != mark.pins.map(\.name).sorted() } ?? false
        }
        guard !wrong.isEmpty else { return [] }
        return ["\(node) has \(wrong.count) marks linked to other pins than their device's, such as \(wrong.prefix(3).map { "\($0.name): \($0.pins.map(\.name).sorted()), not \(expected[$0.name] ?? [])" })"]
    }

    private static func countProblems(_ context: ModelContext, expected: [String: Int], node: String) throws -> [String] {
        let tallies = try context.fetch(FetchDescriptor<Tally>())
        var problems: [String] = []
        for (device, count) in expected {
            let found = tallies.filter { $0.device == device }.map(\.count)
            if found != [count] { problems.append("\(node) has \(device)'s counter at \(found), not \(count)") }
        }
        return problems
    }
}
