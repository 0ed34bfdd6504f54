import Foundation
import Testing
@testable import OpenSwiftData

/// A hierarchy in a store: one table for the whole hierarchy, fetches of a class returning its
/// instances and its subclasses', each as its own class.
@Suite struct HierarchyStoreTests {
    /// Writes one journey of each class, with expenses, and closes the store.
    func writeJourneys(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let plain = Journey(name: "Visit", destination: "Lyon")
        let business = BusinessJourney(name: "Pitch", destination: "Berlin", perDiem: 120)
        business.client = "ACME"
        let conference = ConferenceJourney(name: "WWDC", destination: "Cupertino", talk: "291")
        conference.days = 5
        let leisure = LeisureJourney(name: "Beach", destination: "Nice", reason: .vacation)
        for journey in [plain, business, conference, leisure] as [Journey] { context.insert(journey) }
        let taxi = JourneyExpense(label: "taxi", amount: 42)
        let hotel = JourneyExpense(label: "hotel", amount: 300)
        context.insert(taxi)
        context.insert(hotel)
        taxi.journey = business
        hotel.journey = conference
        try context.save()
    }

    @Test func aFetchOfTheParentReturnsEveryClassWithItsValues() throws {
        let url = temporaryStoreURL("journeys")
        try writeJourneys(url)
        #expect(try rawColumns(url, table: "Journey").contains("_entity"))
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
        #expect(journeys.map(\.name) == ["Beach", "Pitch", "Visit", "WWDC"])
        #expect(journeys.map { String(describing: type(of: $0)) } == ["LeisureJourney", "BusinessJourney", "Journey", "ConferenceJourney"])
        let business = try #require(journeys[1] as? BusinessJourney)
        #expect(business.perDiem == 120 && business.client == "ACME" && business.destination == "Berlin")
        let conference = try #require(journeys[3] as? ConferenceJourney)
        #expect(conference.talk == "291" && conference.perDiem == 80 && conference.days == 5)
        #expect((journeys[0] as? LeisureJourney)?.reason == .vacation)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 4)
    }

    @Test func aFetchOfASubclassReturnsItAndItsSubclasses() throws {
        let url = temporaryStoreURL("journeys")
        try writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let business = try context.fetch(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\.perDiem)]))
        #expect(business.map(\.name) == ["WWDC", "Pitch"])
        // Sorted by a property the subclass inherits, its key path rooted at the subclass.
        let byName = try context.fetch(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\BusinessJourney.name, order: .reverse)]))
        #expect(byName.map(\.name) == ["WWDC", "Pitch"])
        #expect(try context.fetchCount(FetchDescriptor<BusinessJourney>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<ConferenceJourney>()) == 1)
        #expect(try context.fetch(FetchDescriptor<LeisureJourney>()).map(\.destination) == ["Nice"])
        let long = try context.fetch(FetchDescriptor<BusinessJourney>(predicate: #Predicate { $0.days > 2 }))
        #expect(long.map(\.name) == ["WWDC"])
        let byDestination = try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.destination.starts(with: "N") }))
        #expect(byDestination.map(\.name) == ["Beach"])
        // The same object for a row, whichever class it was fetched as.
        let all = try context.fetch(FetchDescriptor<Journey>())
        #expect(all.contains { $0 === business[0] })
    }

    @Test func aRelationshipToTheParentHoldsSubclassInstances() throws {
        let url = temporaryStoreURL("journeys")
        try writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let expenses = try context.fetch(FetchDescriptor<JourneyExpense>(sortBy: [SortDescriptor(\.label)]))
        #expect(expenses.map(\.label) == ["hotel", "taxi"])
        #expect((expenses[0].journey as? ConferenceJourney)?.talk == "291")
        #expect((expenses[1].journey as? BusinessJourney)?.client == "ACME")
        let conference = try #require(try context.fetch(FetchDescriptor<ConferenceJourney>()).first)
        #expect(conference.expenses.map(\.label) == ["hotel"])
    }

    @Test func changesAndDeletesOfSubclassInstancesAreSaved() throws {
        let url = temporaryStoreURL("journeys")
        try writeJourneys(url)
        do {
            let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
            let business = try #require(try context.fetch(FetchDescriptor<BusinessJourney>(predicate: #Predicate { $0.name == "Pitch" })).first)
            business.perDiem = 150
            business.name = "Pitch 2"
            let leisure = try #require(try context.fetch(FetchDescriptor<LeisureJourney>()).first)
            context.delete(leisure)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
        #expect(journeys.map(\.name) == ["Pitch 2", "Visit", "WWDC"])
        #expect((journeys[0] as? BusinessJourney)?.perDiem == 150)
    }
}

/// `is`, `as?` and `as!` in predicates, in SQL, agreeing with `Predicate.evaluate`.
@Suite struct HierarchyPredicateTests {
    @Test func typeChecksAndCastsAgreeWithSwift() throws {
        let url = temporaryStoreURL("journeys")
        try HierarchyStoreTests().writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let journeys = try context.fetch(FetchDescriptor<Journey>())
        let predicates: [Predicate<Journey>] = [
            #Predicate { $0 is BusinessJourney },
            #Predicate { $0 is ConferenceJourney },
            #Predicate { !($0 is LeisureJourney) },
            #Predicate { ($0 as? BusinessJourney)?.perDiem ?? 0 > 100 },
            #Predicate { ($0 as? ConferenceJourney)?.talk == "291" },
            #Predicate { ($0 as? BusinessJourney)?.client == nil },
        ]
        for predicate in predicates {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name).sorted()
            let expected = try journeys.filter { try predicate.evaluate($0) }.map(\.name).sorted()
            #expect(fetched == expected, "\(expected)")
        }
        let expenses = try context.fetch(FetchDescriptor<JourneyExpense>(predicate: #Predicate { $0.journey is ConferenceJourney }))
        #expect(expenses.map(\.label) == ["hotel"])
    }

    @Test func aForceCastOfARowOfAnotherClassFailsTheFetch() throws {
        let url = temporaryStoreURL("journeys")
        try HierarchyStoreTests().writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let onlyBusiness = #Predicate<Journey> { $0 is BusinessJourney && ($0 as! BusinessJourney).perDiem > 100 }
        #expect(try context.fetch(FetchDescriptor(predicate: onlyBusiness)).map(\.name) == ["Pitch"])
        #expect(throws: (any Error).self) {
            try context.fetch(FetchDescriptor(predicate: #Predicate<Journey> { ($0 as! BusinessJourney).perDiem > 100 }))
        }
    }
}

@Model class Device {
    @Attribute(.unique) var serial: String
    var label: String
    init(serial: String, label: String) {
        self.serial = serial
        self.label = label
    }
}

@Model class Tablet: Device {
    var hasStylus: Bool
    init(serial: String, label: String, hasStylus: Bool) {
        self.hasStylus = hasStylus
        super.init(serial: serial, label: label)
    }
}

/// Rules across a hierarchy: uniqueness declared on the parent, identifiers, batch deletes.
@Suite struct HierarchyRuleTests {
    @Test func aUniqueAttributeOfTheParentIsUniqueAcrossSubclassesAndUpserts() throws {
        let url = temporaryStoreURL("devices")
        do {
            let context = ModelContext(try ModelContainer(for: Device.self, Tablet.self, configurations: ModelConfiguration(url: url)))
            context.insert(Device(serial: "A1", label: "router"))
            context.insert(Tablet(serial: "B2", label: "pad", hasStylus: false))
            try context.save()
            // The same serial as a tablet: the stored row takes the new values and class.
            context.insert(Tablet(serial: "A1", label: "router, replaced", hasStylus: true))
            context.insert(Device(serial: "B2", label: "pad, as a device"))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Device.self, Tablet.self, configurations: ModelConfiguration(url: url)))
        let devices = try context.fetch(FetchDescriptor<Device>(sortBy: [SortDescriptor(\.serial)]))
        #expect(devices.map(\.serial) == ["A1", "B2"])
        #expect(devices.map(\.label) == ["router, replaced", "pad, as a device"])
        #expect((devices[0] as? Tablet)?.hasStylus == true)
        #expect(type(of: devices[1]) == Device.self)
    }

    @Test func identifiersNameEachRowsOwnClass() throws {
        let context = ModelContext(try ModelContainer(for: Device.self, Tablet.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Device(serial: "A1", label: "router"))
        context.insert(Tablet(serial: "B2", label: "pad", hasStylus: false))
        try context.save()
        let models = try context.fetch(FetchDescriptor<Device>(sortBy: [SortDescriptor(\.serial)]))
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Device>(sortBy: [SortDescriptor(\.serial)]))
        #expect(identifiers == models.map(\.persistentModelID))
        #expect(identifiers.map(\.entityName) == ["Device", "Tablet"])
        let tablet: Tablet? = context.registeredModel(for: identifiers[1])
        #expect(tablet?.label == "pad")
    }

    @Test func batchDeletesHonourIncludeSubclasses() throws {
        let context = ModelContext(try ModelContainer(for: Device.self, Tablet.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        for index in 0..<4 {
            context.insert(index.isMultiple(of: 2)
                ? Device(serial: "D\(index)", label: "device") : Tablet(serial: "T\(index)", label: "tablet", hasStylus: true))
        }
        try context.save()
        try context.delete(model: Device.self, includeSubclasses: false)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Device>(sortBy: [SortDescriptor(\.serial)])).map(\.serial) == ["T1", "T3"])
        try context.delete(model: Device.self, where: #Predicate { $0.serial == "T1" })
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Device>()).map(\.serial) == ["T3"])
    }

    @Test func deleteRulesApplyToSubclassInstances() throws {
        let url = temporaryStoreURL("journeys")
        try HierarchyStoreTests().writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let conference = try #require(try context.fetch(FetchDescriptor<ConferenceJourney>()).first)
        context.delete(conference)
        try context.save()
        // Journey.expenses cascades, from an instance of a subclass too.
        #expect(try context.fetch(FetchDescriptor<JourneyExpense>()).map(\.label) == ["taxi"])
    }
}

/// `osd inspect`, `check` and `export` on a store holding a hierarchy.
@Suite struct HierarchyToolTests {
    @Test func inspectionShowsTheHierarchyAndCountsEachClassesRows() throws {
        let url = temporaryStoreURL("journeys")
        try HierarchyStoreTests().writeJourneys(url)
        let inspection = try StoreInspection(storeAt: url)
        let byName = Dictionary(uniqueKeysWithValues: inspection.entities.map { ($0.name, $0) })
        #expect(byName["BusinessJourney"]?.superentity == "Journey")
        #expect(byName["ConferenceJourney"]?.superentity == "BusinessJourney")
        #expect(byName["Journey"]?.superentity == nil)
        #expect(["Journey", "BusinessJourney", "ConferenceJourney", "LeisureJourney"].map { byName[$0]?.rows } == [1, 1, 1, 1])
        #expect(try StoreInspection.problems(inStoreAt: url).isEmpty)

        var lines: [String] = []
        try StoreExport.export(storeAt: url, entity: "BusinessJourney", format: .json) { lines.append($0) }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains(#""_entity":"BusinessJourney""#) || $0.contains(#""_entity":"ConferenceJourney""#) })
        #expect(lines.contains { $0.contains(#""perDiem":120"#) })
    }
}

/// Batched fetches and `enumerate` over a hierarchy, and the dry run of a migration adopting one.
@Suite struct HierarchyBatchTests {
    @Test func batchesAndEnumerationMakeEachRowItsOwnClass() throws {
        let url = temporaryStoreURL("journeys")
        try HierarchyStoreTests().writeJourneys(url)
        let context = ModelContext(try ModelContainer(for: Schema(journeyModels), configurations: ModelConfiguration(url: url)))
        let batched = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]), batchSize: 2)
        #expect(batched.map { String(describing: type(of: $0)) } == ["LeisureJourney", "BusinessJourney", "Journey", "ConferenceJourney"])
        var perDiems: [Double] = []
        try context.enumerate(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\.perDiem)]), batchSize: 1) { perDiems.append($0.perDiem) }
        #expect(perDiems == [80, 120])
    }

    @Test func theDryRunOfAMigrationAdoptingInheritanceLeavesTheStoreAlone() throws {
        let url = temporaryStoreURL("tours")
        try HierarchyMigrationTests().writeVersion1(url)
        let before = try storeFiles(url)
        let preview = try ModelContainer.previewMigration(
            for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlan.self, configurations: ModelConfiguration(url: url))
        #expect(preview.refusal == nil)
        #expect(preview.stores.first?.steps.first?.kind == .lightweight)
        #expect(try storeFiles(url) == before)
    }
}

@Model final class Traveller {
    var name: String
    @Relationship(inverse: \Voyage.travellers) var voyages: [Voyage] = []
    init(name: String) { self.name = name }
}

@Model class Voyage {
    var title: String
    var travellers: [Traveller] = []
    init(title: String) { self.title = title }
}

@Model class Cruise: Voyage {
    var ship: String
    init(title: String, ship: String) {
        self.ship = ship
        super.init(title: title)
    }
}

/// A many-to-many relationship whose destination is a hierarchy: a join table's rows read as
/// each class, loaded on access and prefetched.
@Suite struct HierarchyManyToManyTests {
    @Test func aJoinTableToAHierarchyLoadsEachClass() throws {
        let url = temporaryStoreURL("voyages")
        do {
            let context = ModelContext(try ModelContainer(for: Traveller.self, Voyage.self, Cruise.self, configurations: ModelConfiguration(url: url)))
            let ada = Traveller(name: "Ada")
            context.insert(ada)
            ada.voyages = [Voyage(title: "Rhine"), Cruise(title: "Fjords", ship: "Nordlys")]
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Traveller.self, Voyage.self, Cruise.self, configurations: ModelConfiguration(url: url)))
        let ada = try #require(try context.fetch(FetchDescriptor<Traveller>()).first)
        let voyages = ada.voyages.sorted { $0.title < $1.title }
        #expect(voyages.map(\.title) == ["Fjords", "Rhine"])
        #expect((voyages[0] as? Cruise)?.ship == "Nordlys")
        let prefetching = ModelContext(try ModelContainer(for: Traveller.self, Voyage.self, Cruise.self, configurations: ModelConfiguration(url: url)))
        var descriptor = FetchDescriptor<Traveller>()
        descriptor.relationshipKeyPathsForPrefetching = [\.voyages]
        let prefetched = try #require(try prefetching.fetch(descriptor).first)
        #expect(prefetched.voyages.compactMap { ($0 as? Cruise)?.ship } == ["Nordlys"])
        let cruise = try #require(try context.fetch(FetchDescriptor<Cruise>()).first)
        #expect(cruise.travellers.map(\.name) == ["Ada"])
    }
}
