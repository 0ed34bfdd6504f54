import Foundation
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels

/// The server's history, pruned once every device has pulled it; a device forgotten meanwhile
/// walks the models again and still ends with everything, deletions included.
@Suite struct SyncPruningTests {
    private func historyCount(_ container: ModelContainer) throws -> Int {
        try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count
    }

    @Test func historyEveryDeviceHasPulledIsPrunedAndAForgottenDeviceCatchesUp() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop"), tablet = try world.device("tablet")
        do {
            let context = phone.context
            for index in 0..<5 { context.insert(Journey(title: "journey \(index)", departure: .now)) }
            try context.save()
        }
        try await phone.engine.sync()
        try await tablet.engine.sync()
        try await laptop.engine.sync()
        let seenTablet = Date()

        // The tablet goes quiet; the others edit, delete and sync on.
        for round in 0..<3 {
            let context = phone.context
            let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
            journeys[round].title = "renamed \(round)"
            if round == 2 { context.delete(journeys[4]) }
            try context.save()
            try await phone.engine.sync()
            try await laptop.engine.sync()
        }
        try await phone.engine.sync()
        // While the tablet is remembered, only the history before its place goes.
        let total = try historyCount(world.serverContainer)
        let beforeTablet = try world.server.pruneHistory(forgettingDevicesNotSeenSince: .distantPast)
        #expect(try historyCount(world.serverContainer) == total - beforeTablet)
        #expect(try world.server.pruneHistory(forgettingDevicesNotSeenSince: .distantPast) == 0)
        let held = try historyCount(world.serverContainer)
        #expect(held >= 3, "the phone's three saves since the tablet's place are kept")
        // Forgotten, it holds nothing back (the others' places are where their last pull asked
        // from, one pull behind).
        let pruned = try world.server.pruneHistory(forgettingDevicesNotSeenSince: seenTablet)
        #expect(pruned > 0)
        #expect(try historyCount(world.serverContainer) == held - pruned)

        // The others go on from their places.
        do {
            let context = laptop.context
            context.insert(Journey(title: "after pruning", departure: .now))
            try context.save()
        }
        try await laptop.engine.sync()
        try await phone.engine.sync()
        #expect(try phone.context.fetchCount(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == "after pruning" })) == 1)

        // The tablet's place was pruned: it walks again, and the deletion reaches it too.
        try await tablet.engine.sync()
        let onServer = try world.server.snapshot()
        #expect(try await tablet.engine.snapshot() == onServer)
        #expect(try await phone.engine.snapshot() == onServer)
        #expect(try await laptop.engine.snapshot() == onServer)
        #expect(try tablet.context.fetchCount(FetchDescriptor<Journey>()) == 5)
    }
}
