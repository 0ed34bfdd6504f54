import Foundation
import Synchronization
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels

/// Devices syncing through a server, each with its own SQLite store.
@Suite struct SyncEngineTests {
    @Test func aModelSavedOnOneDeviceAppearsOnAnotherWithEveryValueAndLink() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        let departure = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7)
        do {
            let context = phone.context
            let journey = Journey(title: "Lisbon → Porto", departure: departure, budget: 0.1 + 0.2, notes: Data([0, 1, 255]))
            context.insert(journey)
            let work = Label(name: "work")
            context.insert(work)
            journey.labels.append(work)
            for (position, place) in ["Lisbon", "Coimbra", "Porto"].enumerated() {
                let leg = Leg(place: place, position: position)
                context.insert(leg)
                leg.journey = journey
            }
            try context.save()
        }
        let pushed = try await phone.engine.sync()
        #expect(pushed.pushed == 5)
        try await laptop.engine.sync()

        let laptopContext = laptop.context
        let journeys = try laptopContext.fetch(FetchDescriptor<Journey>())
        let journey = try #require(journeys.first)
        #expect(journeys.count == 1)
        #expect(journey.title == "Lisbon → Porto")
        #expect(journey.departure == departure)
        #expect(journey.budget == 0.1 + 0.2)
        #expect(journey.notes == Data([0, 1, 255]))
        #expect(journey.isBooked == false)
        #expect(journey.legs.sorted { $0.position < $1.position }.map(\.place) == ["Lisbon", "Coimbra", "Porto"])
        #expect(journey.labels.map(\.name) == ["work"])
        // And the server holds the same, in the app's own models.
        let serverContext = ModelContext(world.serverContainer)
        let onServer = try serverContext.fetch(FetchDescriptor<Leg>())
        #expect(Set(onServer.map(\.place)) == ["Lisbon", "Coimbra", "Porto"])
        #expect(onServer.allSatisfy { $0.journey?.title == "Lisbon → Porto" })
    }

    /// A new device takes the server's models a batch at a time: a link to a model of a later
    /// batch is made when that model arrives.
    @Test func linksToModelsOfALaterBatchAreMadeWhenTheyArrive() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone")
        let context = phone.context
        for index in 0..<4 {
            let journey = Journey(title: "journey \(index)", departure: .now)
            context.insert(journey)
            let label = Label(name: "label \(index)")
            context.insert(label)
            journey.labels.append(label)
            for position in 0..<3 {
                let leg = Leg(place: "leg \(index).\(position)", position: position)
                context.insert(leg)
                leg.journey = journey
            }
        }
        try context.save()
        try await phone.engine.sync()

        let tablet = try world.device("tablet", batchSize: 2)
        #expect(try await tablet.engine.sync().pulled == 20)
        let tabletContext = tablet.context
        let legs = try tabletContext.fetch(FetchDescriptor<Leg>())
        #expect(legs.count == 12)
        for leg in legs { #expect(leg.journey.map { leg.place.hasPrefix($0.title.replacingOccurrences(of: "journey", with: "leg")) } == true, "\(leg.place)") }
        let journeys = try tabletContext.fetch(FetchDescriptor<Journey>())
        for journey in journeys { #expect(journey.labels.map(\.name) == [journey.title.replacingOccurrences(of: "journey", with: "label")]) }
        #expect(try await tablet.engine.snapshot() == (try world.server.snapshot()))
    }

    @Test func editsOfDifferentPropertiesBothSurviveAndTheLaterEditOfOnePropertyWins() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        let context = phone.context
        context.insert(Journey(title: "Rome", departure: .distantPast))
        try context.save()
        try await phone.engine.sync()
        try await laptop.engine.sync()

        // Offline on both: the phone renames and books, the laptop renames later and sets a budget.
        let phoneContext = phone.context
        let onPhone = try #require(try phoneContext.fetch(FetchDescriptor<Journey>()).first)
        onPhone.title = "Rome, phone"
        onPhone.isBooked = true
        try onPhone.modelContext?.save()
        try await Task.sleep(for: .milliseconds(5))
        let laptopContext = laptop.context
        let onLaptop = try #require(try laptopContext.fetch(FetchDescriptor<Journey>()).first)
        onLaptop.title = "Rome, laptop"
        onLaptop.budget = 1200
        try onLaptop.modelContext?.save()

        try await laptop.engine.sync()
        try await phone.engine.sync()
        try await laptop.engine.sync()
        for device in [phone, laptop] {
            let context = device.context
            let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
            #expect(journey.title == "Rome, laptop")
            #expect(journey.isBooked == true)
            #expect(journey.budget == 1200)
        }
    }

    @Test func aDeletionWinsOverAConcurrentEditAndItsCascadeHappensOnce() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        let context = phone.context
        let journey = Journey(title: "Oslo", departure: .now)
        context.insert(journey)
        let leg = Leg(place: "Bergen", position: 0)
        context.insert(leg)
        leg.journey = journey
        try context.save()
        try await phone.engine.sync()
        try await laptop.engine.sync()

        let laptopContext = laptop.context
        let onLaptop = try #require(try laptopContext.fetch(FetchDescriptor<Journey>()).first)
        onLaptop.title = "Oslo, edited later"
        try onLaptop.modelContext?.save()
        let phoneContext = phone.context
        let onPhone = try #require(try phoneContext.fetch(FetchDescriptor<Journey>()).first)
        phoneContext.delete(onPhone)
        try phoneContext.save()

        try await laptop.engine.sync()
        try await phone.engine.sync()
        try await laptop.engine.sync()
        for container in [phone.container, laptop.container, world.serverContainer] {
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Journey>()) == 0)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Leg>()) == 0)
        }
    }

    @Test func membershipsAddedOnTwoDevicesAreBothKept() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        let context = phone.context
        context.insert(Journey(title: "Kyoto", departure: .now))
        context.insert(Label(name: "family"))
        context.insert(Label(name: "food"))
        try context.save()
        try await phone.engine.sync()
        try await laptop.engine.sync()

        for (device, label) in [(phone, "family"), (laptop, "food")] {
            let context = device.context
            let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
            let tag = try #require(try context.fetch(FetchDescriptor<Label>(predicate: #Predicate { $0.name == label })).first)
            journey.labels.append(tag)
            try context.save()
        }
        try await phone.engine.sync()
        try await laptop.engine.sync()
        try await phone.engine.sync()
        for container in [phone.container, laptop.container, world.serverContainer] {
            let context = ModelContext(container)
            let journey = try #require(try context.fetch(FetchDescriptor<Journey>()).first)
            #expect(Set(journey.labels.map(\.name)) == ["family", "food"])
        }
    }

    @Test func twoDevicesMakingTheSameUniqueModelEndWithOneHoldingTheLaterValues() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone"), laptop = try world.device("laptop")
        let phoneContext = phone.context
        phoneContext.insert(Country(code: "PT", name: "Portugal"))
        try phoneContext.save()
        try await Task.sleep(for: .milliseconds(5))
        let laptopContext = laptop.context
        let country = Country(code: "PT", name: "Portuguese Republic")
        country.population = 10_300_000
        laptopContext.insert(country)
        try laptopContext.save()

        try await phone.engine.sync()
        try await laptop.engine.sync()
        try await phone.engine.sync()
        for container in [phone.container, laptop.container, world.serverContainer] {
            let context = ModelContext(container)
            let countries = try context.fetch(FetchDescriptor<Country>())
            #expect(countries.map(\.code) == ["PT"])
            #expect(countries.first?.name == "Portuguese Republic")
            #expect(countries.first?.population == 10_300_000)
        }
        let onServer = try world.server.snapshot()
        #expect(try await phone.engine.snapshot() == onServer)
        #expect(try await laptop.engine.snapshot() == onServer)
        // Edits after the merge go to the one model.
        let kept = try #require(try phoneContext.fetch(FetchDescriptor<Country>()).first)
        kept.name = "Portugal, again"
        try phoneContext.save()
        try await phone.engine.sync()
        try await laptop.engine.sync()
        #expect(try ModelContext(laptop.container).fetch(FetchDescriptor<Country>()).map(\.name) == ["Portugal, again"])
    }

    @Test func aChangeServerCodeSavesReachesTheDevices() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone")
        let context = phone.context
        context.insert(Journey(title: "Cairo", departure: .now))
        try context.save()
        try await phone.engine.sync()

        let serverContext = ModelContext(world.serverContainer)
        let journey = try #require(try serverContext.fetch(FetchDescriptor<Journey>()).first)
        journey.isBooked = true
        serverContext.insert(Journey(title: "Made on the server", departure: .distantFuture))
        try serverContext.save()

        try await phone.engine.sync()
        let phoneContext = phone.context
        let titles = try phoneContext.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)])).map { "\($0.title) \($0.isBooked)" }
        #expect(titles == ["Cairo true", "Made on the server false"])
    }

    @Test func aPushRetriedAfterItsAnswerWasLostAppliesNothingTwice() async throws {
        let world = try SyncTestWorld()
        let lossy = AnswerLosingTransport(server: world.server)
        let phone = try world.device("phone", transport: lossy)
        let context = phone.context
        let journey = Journey(title: "Lima", departure: .now)
        context.insert(journey)
        for position in 0..<3 {
            let leg = Leg(place: "stop \(position)", position: position)
            context.insert(leg)
            leg.journey = journey
        }
        try context.save()
        lossy.losesNextAnswer.withLock { $0 = true }
        await #expect(throws: LostAnswer.self) { try await phone.engine.sync() }
        #expect(try await phone.engine.pendingChangeCount() == 4)
        // What a UI shows: the error, the changes waiting, no sync yet.
        await MainActor.run {
            #expect(phone.engine.status.lastError?.contains("LostAnswer") == true)
            #expect(phone.engine.status.pendingChanges == 4)
            #expect(phone.engine.status.lastSync == nil)
            #expect(!phone.engine.status.isSyncing)
        }
        try await phone.engine.sync()
        #expect(try await phone.engine.pendingChangeCount() == 0)
        await MainActor.run {
            #expect(phone.engine.status.lastError == nil)
            #expect(phone.engine.status.pendingChanges == 0)
            #expect(phone.engine.status.lastSync != nil)
        }
        let server = ModelContext(world.serverContainer)
        #expect(try server.fetchCount(FetchDescriptor<Journey>()) == 1)
        #expect(try server.fetchCount(FetchDescriptor<Leg>()) == 3)
        #expect(try phone.context.fetchCount(FetchDescriptor<Leg>()) == 3)
    }
}

extension SyncEngineTests {
    /// Two calls at once (the app's, and `run()`'s after a save) make one round after another:
    /// a change goes to the server in one push, not once per call.
    @Test func syncsCalledAtOnceRunOneAfterTheOther() async throws {
        let world = try SyncTestWorld()
        let counting = PushCountingTransport(server: world.server)
        let phone = try world.device("phone", transport: counting)
        let context = phone.context
        context.insert(Journey(title: "Nara", departure: .now))
        try context.save()
        async let first = phone.engine.sync()
        async let second = phone.engine.sync()
        let summaries = try await [first, second]
        #expect(summaries.map(\.pushed).sorted() == [0, 1])
        #expect(counting.pushesWithChanges.withLock { $0 } == 1)
        #expect(try ModelContext(world.serverContainer).fetchCount(FetchDescriptor<Journey>()) == 1)
    }
}

/// Counts the pushes that carry changes.
final class PushCountingTransport: SyncTransport {
    let server: SyncServer
    let pushesWithChanges = Mutex(0)

    init(server: SyncServer) {
        self.server = server
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        if !request.changes.isEmpty { pushesWithChanges.withLock { $0 += 1 } }
        // Gives the other call its chance to start while this one waits for the network.
        try await Task.sleep(for: .milliseconds(50))
        return try await LoopbackTransport(server: server).push(request)
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await LoopbackTransport(server: server).pull(request)
    }
}

struct LostAnswer: Error {}

/// Delivers every request; loses the answer to the next push when told to.
final class AnswerLosingTransport: SyncTransport {
    let server: SyncServer
    let losesNextAnswer = Mutex(false)

    init(server: SyncServer) {
        self.server = server
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await LoopbackTransport(server: server).push(request)
        if losesNextAnswer.withLock({ lose in defer { lose = false }; return lose }) { throw LostAnswer() }
        return response
    }

    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await LoopbackTransport(server: server).pull(request)
    }
}
