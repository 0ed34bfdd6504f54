import Foundation
import SwiftData
import SwiftDataSync
import SyncTestModels
import Testing
import TestSupport

/// Device processes and server processes killed (SIGKILL) at random moments while they sync,
/// mid-push, mid-apply and mid-transaction, and a proxy between them cutting one connection in
/// five (before the request, or as the answer starts): once the killing stops and everyone
/// syncs, every node holds the same, every mark a device said it saved is on every node
/// exactly once with the pins the device linked it to, and no device's counter went back.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct SyncKillTests {
    /// SYNC_KILL_SEED and SYNC_KILL_SECONDS vary the run.
    static let seed: UInt64 = UInt64(ProcessInfo.processInfo.environment["SYNC_KILL_SEED"] ?? "") ?? 51
    static let seconds = Double(ProcessInfo.processInfo.environment["SYNC_KILL_SECONDS"] ?? "") ?? 30

    @Test func killedDevicesAndServersAndCutConnectionsLoseNothingAndApplyNothingTwice() async throws {
        let world = try SyncProcesses(servers: 2)
        defer { world.stop() }
        let proxies = try world.serverPorts.enumerated().map { index, port in try DroppingProxy(to: port, dropsOneIn: 5, seed: Self.seed &+ UInt64(index)) }
        defer { for proxy in proxies { proxy.stop() } }
        let devices = ["phone", "tablet", "laptop"]
        let seed = Self.seed, seconds = Self.seconds
        let (saved, kills) = try await onAThreadOfItsOwn { () throws -> ([String: [(mark: String, count: Int, pins: Set<String>)]], [String]) in
            var random = SplitMix(seed: seed)
            var runs: [String: Int] = [:]
            var saved: [String: [(mark: String, count: Int, pins: Set<String>)]] = [:]
            var kills: [String] = []
            func start(_ name: String) throws -> Process {
                let run = runs[name, default: 0]
                runs[name] = run + 1
                let proxy = proxies[name.count % proxies.count]
                return try world.start(
                    device: name, ["work", "\(seed &* 31 &+ UInt64(run * 7 + name.count))", "100000", "\(run)"],
                    server: URL(string: "http://127.0.0.1:\(proxy.port)")!)
            }
            func collect(_ name: String, _ process: Process) {
                for line in world.finish(process).output.split(separator: "\n") where line.hasPrefix("saved ") {
                    let words = line.split(separator: " ")
                    if words.count == 4, let count = Int(words[2]) {
                        saved[name, default: []].append((String(words[1]), count, Set(words[3].split(separator: ",").map(String.init))))
                    }
                }
            }
            var running = try Dictionary(uniqueKeysWithValues: devices.map { ($0, try start($0)) })
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                Thread.sleep(forTimeInterval: Double.random(in: 0.2...0.8, using: &random))
                if Int.random(in: 0..<4, using: &random) == 0 {
                    let index = Int.random(in: 0..<world.servers.count, using: &random)
                    try world.killAndRestartServer(index)
                    kills.append("server \(index)")
                } else {
                    let name = devices.randomElement(using: &random)!
                    kill(running[name]!.processIdentifier, SIGKILL)
                    collect(name, running[name]!)
                    running[name] = try start(name)
                    kills.append(name)
                }
            }
            for name in devices {
                kill(running[name]!.processIdentifier, SIGKILL)
                collect(name, running[name]!)
            }
            return (saved, kills)
        }
        #expect(kills.count > 20, "only \(kills.count) kills")
        for proxy in proxies { #expect(proxy.cuts.requests + proxy.cuts.answers > 0) }

        // Everyone syncs, straight to the servers.
        for _ in 0..<2 {
            for name in devices {
                let sync = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["sync"])) }
                #expect(sync.status == 0, "seed \(Self.seed), \(name): \(sync.output)")
            }
        }
        let onServer = try await world.serverSnapshot()
        let marks = Dictionary(onServer.values.filter { $0.entity == "Mark" }.map { ($0.values["name"] ?? "", 1) }, uniquingKeysWith: +)
        #expect(marks.values.allSatisfy { $0 == 1 }, "seed \(Self.seed): marks more than once: \(marks.filter { $0.value > 1 }.keys.sorted().prefix(5))")
        for name in devices {
            let said = saved[name] ?? []
            #expect(said.count > 5, "\(name) saved only \(said.count) rounds")
            let lost = said.map(\.mark).filter { marks["\"\($0)\""] == nil }
            #expect(lost.isEmpty, "seed \(Self.seed): \(name)'s marks lost: \(lost.prefix(5))")
            let unpinned = said.filter { mark in
                let found = onServer.values.first { $0.entity == "Mark" && $0.values["name"] == "\"\(mark.mark)\"" }
                let names = (found?.members["pins"] ?? []).compactMap { onServer[$0]?.values["name"] }.map { String($0.dropFirst().dropLast()) }
                return found != nil && Set(names) != mark.pins
            }
            #expect(unpinned.isEmpty, "seed \(Self.seed): \(unpinned.count) of \(name)'s marks lost pins, such as \(unpinned.prefix(3).map(\.mark))")
            let counter = onServer.values.first { $0.entity == "Tally" && $0.values["device"] == "\"\(name)\"" }?.values["count"].flatMap { Int($0) }
            #expect((counter ?? 0) >= (said.map(\.count).max() ?? 0), "seed \(Self.seed): \(name)'s counter went back to \(counter ?? 0)")
            let dump = try await onAThreadOfItsOwn { world.finish(try world.start(device: name, ["snapshot"])) }
            let onDevice = try JSONDecoder().decode([String: SyncedModelSnapshot].self, from: Data(dump.output.utf8))
            #expect(onDevice == onServer, "seed \(Self.seed): \(name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
        }
    }
}
