import Foundation
import Testing
@testable import OpenSwiftData

struct MapPin: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var label: String?
}

enum VenueTier: String, Codable {
    case gold, silver
}

@Model final class Venue {
    var name: String
    @Attribute(.codable) var pin: MapPin?
    /// A type the store holds as its raw value otherwise: `.codable` keeps its JSON instead.
    @Attribute(.codable) var tier: VenueTier
    @Attribute(.codable) var code: UUID

    init(name: String, pin: MapPin?, tier: VenueTier, code: UUID) {
        self.name = name
        self.pin = pin
        self.tier = tier
        self.code = code
    }
}

/// `@Attribute(.codable)` (iOS 27): the value is stored through its `Codable` representation,
/// which the store does not look inside.
@Suite struct CodableAttributeTests {
    @Test func theSchemaSaysSo() throws {
        let attributes = try #require(Schema([Venue.self]).entitiesByName["Venue"]?.attributesByName)
        #expect(attributes["pin"]?.isCodable == true)
        #expect(attributes["tier"]?.isCodable == true)
        #expect(attributes["name"]?.isCodable == false)
        #expect(attributes["tier"]?.options == [.codable])
    }

    @Test func valuesRoundTripAsTheirJSON() throws {
        let url = temporaryStoreURL("venues")
        let code = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!
        do {
            let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
            context.insert(Venue(name: "hall", pin: MapPin(latitude: 48.85, longitude: 2.35, label: "Paris"), tier: .gold, code: code))
            context.insert(Venue(name: "shed", pin: nil, tier: .silver, code: code))
            try context.save()
        }
        #expect(try rawRow(url, sql: "SELECT tier FROM Venue WHERE name = 'hall'")[0] as String == #""gold""#)
        #expect(try rawRow(url, sql: "SELECT code FROM Venue WHERE name = 'hall'")[0] as String == #""6F9619FF-8B86-D011-B42D-00CF4FC964FF""#)
        let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
        let venues = try context.fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.name)]))
        #expect(venues.map(\.pin) == [MapPin(latitude: 48.85, longitude: 2.35, label: "Paris"), nil])
        #expect(venues.map(\.tier) == [.gold, .silver])
        #expect(venues.map(\.code) == [code, code])
        let withoutPin = try context.fetch(FetchDescriptor(predicate: #Predicate<Venue> { $0.pin == nil }))
        #expect(withoutPin.map(\.name) == ["shed"])
    }

    @Test func predicatesAndSortsCannotLookInside() throws {
        let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let gold = VenueTier.gold
        let error = #expect(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor(predicate: #Predicate<Venue> { $0.tier == gold }))
        }
        #expect("\(error!)".contains(#"\Venue.tier (column "Venue"."tier") is stored through its Codable representation (@Attribute(.codable))"#))
        let sortError = #expect(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.code)]))
        }
        #expect("\(sortError!)".contains("@Attribute(.codable)"))
    }
}
