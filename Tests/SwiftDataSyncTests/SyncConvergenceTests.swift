import Foundation
import SwiftData
import Testing
import TestSupport
@testable import SwiftDataSync
import SyncTestModels

/// Three devices and the server's own code change the same models at random, online and
/// offline; once everyone has synced, every device holds what the server holds, model by
/// model (by global identifier) and value by value.
@Suite struct SyncConvergenceTests {
    @Test(arguments: Array(1...6) as [UInt64])
    func everyoneConvergesAfterRandomChangesMadeOnlineAndOffline(seed: UInt64) async throws {
        var random = SplitMix(seed: seed)
        let world = try SyncTestWorld()
        let devices = try ["phone", "tablet", "laptop"].map { try world.device($0) }
        for round in 0..<12 {
            for device in devices {
                let context = device.context
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    try RandomEdit.apply(in: context, using: &random)
                    if Bool.random(using: &random) { try context.save() }
                }
                try context.save()
                if Bool.random(using: &random) { try await device.engine.sync() }
            }
            if round % 3 == 2 {
                let context = ModelContext(world.serverContainer)
                try RandomEdit.apply(in: context, using: &random)
                try context.save()
            }
        }
        for _ in 0..<2 {
            for device in devices { try await device.engine.sync() }
        }
        let onServer = try world.server.snapshot()
        #expect(onServer.count > 5, "seed \(seed): too few models to say anything")
        for (name, device) in zip(["phone", "tablet", "laptop"], devices) {
            let onDevice = try await device.engine.snapshot()
            #expect(onDevice == onServer, "seed \(seed): \(name) differs from the server: \(Self.difference(onDevice, onServer))")
        }
    }

    static func difference(_ device: [String: SyncedModelSnapshot], _ server: [String: SyncedModelSnapshot]) -> String {
        var lines: [String] = []
        for id in Set(device.keys).union(server.keys).sorted() where device[id] != server[id] {
            lines.append("\(id): device \(device[id]?.description ?? "none"), server \(server[id]?.description ?? "none")")
        }
        return lines.prefix(5).joined(separator: "; ")
    }
}
