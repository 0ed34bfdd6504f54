import Foundation
import Synchronization
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels

/// Links that must hold whatever order models arrive in: links to a model two devices made with
/// one unique value offline (the server keeps one model, and every link to either leads to it,
/// on every node), and links to models a device has not received yet.
@Suite struct SyncLinkTests {
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

    /// A device that holds a journey whose label has not reached it yet (a sync cut short
    /// between the two) shows the journey without that label; a change it then makes to the
    /// journey's labels (a label deleted, which touches every journey linked to it, or one
    /// added) is not taken for the removal of the label it never showed.
    @Test(arguments: ["deletes a label", "adds a label"])
    func aLinkToAModelNotArrivedYetIsNotTakenForARemoval(change: String) async throws {
        for _ in 0..<60 {
            let world = try SyncTestWorld()
            let phone = try world.device("phone")
            let context = phone.context
            let (first, second) = (Label(name: "first"), Label(name: "second"))
            let journey = Journey(title: "Andes", departure: .now)
            for model in [first, second] { context.insert(model) }
            context.insert(journey)
            journey.labels = [first, second]
            try context.save()
            try await phone.engine.sync()
            // The tablet walks the server's models one a pull, in the order of their global
            // identifiers; its sync is cut short after the journey and before the second label
            // (after the first, for deleting it).
            let order = try world.server.snapshot().keys.sorted()
            let names = try world.server.snapshot().mapValues { $0.values["title"] ?? $0.values["name"] ?? "" }
            guard let journeyAt = order.firstIndex(where: { names[$0] == "\"Andes\"" }),
                  let firstAt = order.firstIndex(where: { names[$0] == "\"first\"" }),
                  let secondAt = order.firstIndex(where: { names[$0] == "\"second\"" }),
                  journeyAt < secondAt, change == "adds a label" || firstAt < journeyAt else { continue }
            let cut = CuttingTransport(server: world.server, pullsAllowed: journeyAt + 1)
            let tablet = try world.device("tablet", transport: cut, batchSize: 1)
            await #expect(throws: SimulatedFault.self) { try await tablet.engine.sync() }
            let tabletContext = tablet.context
            let held = try #require(try tabletContext.fetch(FetchDescriptor<Journey>()).first)
            #expect(held.labels.map(\.name).sorted().allSatisfy { $0 == "first" })
            if change == "deletes a label" {
                if let label = try tabletContext.fetch(FetchDescriptor<Label>()).first(where: { $0.name == "first" }) { tabletContext.delete(label) }
            } else {
                let third = Label(name: "third")
                tabletContext.insert(third)
                held.labels.append(third)
            }
            try tabletContext.save()
            cut.pullsAllowed = .max
            try await tablet.engine.sync()
            try await phone.engine.sync()
            let expected = change == "deletes a label" ? ["second"] : ["first", "second", "third"]
            for (name, device) in [("phone", phone), ("tablet", tablet)] {
                let deviceContext = device.context
                let journeys = try deviceContext.fetch(FetchDescriptor<Journey>())
                #expect(journeys.map { $0.labels.map(\.name).sorted() } == [expected], "\(name)")
                let onDevice = try await device.engine.snapshot()
                #expect(onDevice == (try world.server.snapshot()), "\(name) differs from the server")
            }
            return
        }
        Issue.record("no world put the models in the order the test needs in sixty tries")
    }
}

/// The server's routes in this process, answering only the first `pullsAllowed` pulls: a sync
/// cut short.
final class CuttingTransport: SyncTransport, @unchecked Sendable {
    private let server: SyncServer
    private let pulls = Mutex(0)
    private let allowed: Mutex<Int>

    init(server: SyncServer, pullsAllowed: Int) {
        self.server = server
        allowed = Mutex(pullsAllowed)
    }

    var pullsAllowed: Int {
        get { allowed.withLock { $0 } }
        set { allowed.withLock { $0 = newValue } }
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await LoopbackTransport(server: server).push(request)
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        let allowed = pullsAllowed
        let count = pulls.withLock { count in
            count += 1
            return count
        }
        guard count <= allowed else { throw SimulatedFault.requestLost }
        return try await LoopbackTransport(server: server).pull(request)
    }
}

extension SyncLinkTests {
    /// One device removes a label from a journey after another, which had removed it and synced,
    /// added it back offline: the removal never saw that addition, so the label stays, on every
    /// node, though the removal came later by every clock. (A label removed and added back
    /// between two syncs of one device is no change at all: a device sends what changed since
    /// its last sync.)
    @Test func aLinkAddedBackWhileAnotherDeviceRemovedItStays() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        do {
            let context = phone.context
            let journey = Journey(title: "Lisbon", departure: .now)
            context.insert(journey)
            let coast = Label(name: "coast")
            context.insert(coast)
            journey.labels.append(coast)
            try context.save()
        }
        try await phone.engine.sync()
        try await laptop.engine.sync()
        func change(_ device: SyncTestWorld.Device, add: Bool) throws {
            let context = device.context
            let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
            if add {
                journey.labels.append(try #require(try context.fetch(FetchDescriptor<Label>()).first))
            } else {
                journey.labels.removeAll { $0.name == "coast" }
            }
            try context.save()
        }
        try change(phone, add: false)
        try await phone.engine.sync()
        try change(phone, add: true)
        try await Task.sleep(for: .milliseconds(5))
        try change(laptop, add: false)
        for device in [laptop, phone, laptop] { try await device.engine.sync() }
        for (name, device) in [("phone", phone), ("laptop", laptop)] {
            let context = device.context
            let journeys = try context.fetch(FetchDescriptor<Journey>())
            #expect(journeys.map { $0.labels.map(\.name) } == [["coast"]], "\(name)")
        }
        #expect(try await phone.engine.snapshot() == world.server.snapshot())
    }
}

extension SyncLinkTests {
    /// A device edits its own model of a country before it learns the server merged it into
    /// another device's (the answer to its push was lost): the edit reaches the model the server
    /// kept, on every node, instead of the merged one, which is gone.
    @Test func anEditOfAMergedModelMadeBeforeLearningOfTheMergeReachesTheSurvivor() async throws {
        let world = try SyncTestWorld()
        let transport = AnswerLosingTransport(server: world.server)
        let phone = try world.device("phone"), laptop = try world.device("laptop", transport: transport)
        for device in [phone, laptop] {
            let context = device.context
            context.insert(Country(code: "PE", name: "Peru"))
            try context.save()
        }
        try await phone.engine.sync()
        transport.losesNextAnswer.withLock { $0 = true }
        await #expect(throws: LostAnswer.self) { try await laptop.engine.sync() }
        do {
            let context = laptop.context
            let peru = try #require(try context.fetch(FetchDescriptor<Country>()).first)
            peru.population = 34_000_000
            try context.save()
        }
        try await laptop.engine.sync()
        try await phone.engine.sync()
        for (name, device) in [("phone", phone), ("laptop", laptop)] {
            let context = device.context
            #expect(try context.fetch(FetchDescriptor<Country>()).map(\.population) == [34_000_000], "\(name)")
        }
        let server = ModelContext(world.serverContainer)
        #expect(try server.fetch(FetchDescriptor<Country>()).map(\.population) == [34_000_000])
        #expect(try await laptop.engine.snapshot() == world.server.snapshot())
    }
}
