import Foundation
import SwiftData
import Testing
import TestSupport
@testable import SwiftDataSync

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
        let onServer = try await world.server.snapshot()
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

/// One random change to the test models: inserts, edits of every attribute type, links moved,
/// memberships added and removed, deletions (with the cascade from journeys to legs).
enum RandomEdit {
    static func apply(in context: ModelContext, using random: inout SplitMix) throws {
        let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
        let legs = try context.fetch(FetchDescriptor<Leg>(sortBy: [SortDescriptor(\.place)]))
        let labels = try context.fetch(FetchDescriptor<Label>(sortBy: [SortDescriptor(\.name)]))
        let word = ["amber", "birch", "cedar", "dune", "ember", "fjord"].randomElement(using: &random)! + String(Int.random(in: 0..<100, using: &random))
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1:
            context.insert(Journey(title: word, departure: Date(timeIntervalSinceReferenceDate: Double.random(in: 0..<1e9, using: &random))))
        case 2:
            let leg = Leg(place: word, position: Int.random(in: 0..<10, using: &random))
            context.insert(leg)
            leg.journey = journeys.randomElement(using: &random)
        case 3:
            context.insert(Label(name: word))
        case 4:
            journeys.randomElement(using: &random)?.title = word
        case 5:
            journeys.randomElement(using: &random)?.budget = Bool.random(using: &random) ? nil : Double(Int.random(in: 0..<5000, using: &random)) / 7
        case 6:
            if let journey = journeys.randomElement(using: &random) {
                journey.isBooked.toggle()
                journey.notes = Data(word.utf8)
            }
        case 7:
            legs.randomElement(using: &random)?.journey = journeys.randomElement(using: &random)
        case 8:
            if let journey = journeys.randomElement(using: &random), let label = labels.randomElement(using: &random),
               !journey.labels.contains(where: { $0 === label }) {
                journey.labels.append(label)
            }
        case 9:
            if let journey = journeys.randomElement(using: &random), !journey.labels.isEmpty {
                journey.labels.remove(at: Int.random(in: 0..<journey.labels.count, using: &random))
            }
        case 10:
            if let journey = journeys.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 { context.delete(journey) }
        default:
            if Bool.random(using: &random), let leg = legs.randomElement(using: &random) {
                context.delete(leg)
            } else if let label = labels.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
                context.delete(label)
            }
        }
    }
}
