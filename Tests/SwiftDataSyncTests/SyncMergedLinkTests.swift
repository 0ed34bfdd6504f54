import Foundation
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels

/// Links to a model two devices made with one unique value, offline: the server keeps one
/// model, and every link to either leads to it, on every node, whichever device syncs first and
/// whatever order the states reach a third device in.
@Suite struct SyncMergedLinkTests {
    @Test(arguments: ["phone", "laptop"], [(batch: 500, early: false), (batch: 1, early: false), (batch: 500, early: true), (batch: 1, early: true)])
    func linksToTheSameUniqueModelMadeOnTwoDevicesBothHold(first: String, third: (batch: Int, early: Bool)) async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        for (device, city) in [(phone, "Lisbon"), (laptop, "Porto")] {
            let context = device.context
            let country = Country(code: "PT", name: "Portugal (\(city))")
            context.insert(country)
            let journey = Journey(title: city, departure: .now)
            context.insert(journey)
            journey.country = country
            try context.save()
        }
        // A third device takes it all, in batches of one or all at once: from the start once
        // both have synced, or following the server's changes from before the second synced.
        let tablet = try world.device("tablet", batchSize: third.batch)
        let order = first == "phone" ? [phone, laptop] : [laptop, phone]
        try await order[0].engine.sync()
        if third.early { try await tablet.engine.sync() }
        try await order[1].engine.sync()
        try await order[0].engine.sync()
        try await tablet.engine.sync()

        let onServer = try world.server.snapshot()
        for (name, device) in [("phone", phone), ("laptop", laptop), ("tablet", tablet)] {
            let context = device.context
            let countries = try context.fetch(FetchDescriptor<Country>())
            #expect(countries.map(\.code) == ["PT"], "\(name)")
            let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
            #expect(journeys.map { "\($0.title) in \($0.country?.code ?? "none")" } == ["Lisbon in PT", "Porto in PT"], "\(name)")
            let onDevice = try await device.engine.snapshot()
            #expect(onDevice == onServer, "\(name) differs from the server: \(SyncConvergenceTests.difference(onDevice, onServer))")
        }
        let serverContext = ModelContext(world.serverContainer)
        let serverJourneys = try serverContext.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
        #expect(serverJourneys.map { "\($0.title) in \($0.country?.code ?? "none")" } == ["Lisbon in PT", "Porto in PT"])
    }

    /// A device links to its own model of the country again after syncing it once, before it
    /// learns the server merged it: the link still leads to the one the server kept.
    @Test func aLinkMadeToAMergedModelBeforeLearningOfTheMergeLeadsToTheSurvivor() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        for device in [phone, laptop] {
            let context = device.context
            context.insert(Country(code: "NO", name: "Norway"))
            try context.save()
        }
        try await phone.engine.sync()
        try await laptop.engine.sync()
        // The laptop's row is the phone's model now; a journey linked to it goes up as such.
        let context = laptop.context
        let norway = try #require(try context.fetch(FetchDescriptor<Country>()).first)
        let journey = Journey(title: "Fjords", departure: .now)
        context.insert(journey)
        journey.country = norway
        try context.save()
        try await laptop.engine.sync()
        try await phone.engine.sync()
        let phoneContext = phone.context
        let onPhone = try phoneContext.fetch(FetchDescriptor<Journey>())
        #expect(onPhone.map { $0.country?.code } == ["NO"])
        #expect(try await phone.engine.snapshot() == world.server.snapshot())
    }
}
