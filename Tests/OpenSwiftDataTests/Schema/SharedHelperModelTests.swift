import Foundation
import Testing
@testable import OpenSwiftData

/// Entities are identified by name, as in SwiftData: a helper model outside the versions that
/// points at the live class does not conflict with the class each version lists.
@Suite struct SharedHelperModelTests {
    @Test func eachVersionsEntityIsTheClassItsModelsList() throws {
        let v1 = Schema(versionedSchema: FlashV1.self)
        try v1.validate()
        #expect(v1.entities.map(\.name) == ["Card", "CardTag"])
        #expect(v1.entity(for: FlashV1.Card.self)?.attributesByName["back"] == nil)
        #expect(v1.entitiesByName["CardTag"]?.relationshipsByName["cards"]?.destination == "Card")
        #expect(v1.entitiesByName["CardTag"]?.relationshipsByName["cards"]?.inverseName == "tags")
        let v3 = Schema(versionedSchema: FlashV3.self)
        try v3.validate()
        #expect(v3.entities.map(\.name) == ["Card", "CardTag", "Deck"])
    }

    @Test func aFreshInstallOpensAndLinksTagsAndCards() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try ModelContainer(
                for: Schema(versionedSchema: FlashV3.self), migrationPlan: FlashPlan.self, configurations: ModelConfiguration(url: url)))
            let card = LiveCard(front: "hola")
            card.back = "hello"
            let tag = CardTag(name: "spanish")
            tag.cards = [card]
            context.insert(tag)
            try context.save()
            #expect(card.tags.map(\.name) == ["spanish"])
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: FlashV3.self), migrationPlan: FlashPlan.self, configurations: ModelConfiguration(url: url)))
        let cards = try context.fetch(FetchDescriptor<LiveCard>())
        #expect(cards.map(\.back) == ["hello"])
        #expect(cards.first?.tags.map(\.name) == ["spanish"])
    }

    @Test func aVersion1StoreMigratesWithItsRows() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: FlashV1.self)) { context in
            context.insert(FlashV1.Card(front: "gato"))
            context.insert(CardTag(name: "animals"))
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: FlashV3.self), migrationPlan: FlashPlan.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<LiveCard>()).map(\.front) == ["gato"])
        #expect(try context.fetch(FetchDescriptor<CardTag>()).map(\.name) == ["animals"])
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0] as String == "3.0.0")
    }

    @Test func twoListedClassesOfOneNameAreStillRefusedOnce() throws {
        let schema = Schema([FlashV1.Card.self, FlashV2.Card.self])
        let error = try #require(throws: SwiftDataError.self) { try schema.validate() }
        #expect(error.description.contains("two model classes are both named Card"))
        let lines = error.description.split(separator: "\n").filter { $0.contains("both named Card") }
        #expect(lines.count == 1)
    }
}

extension SharedHelperModelTests {
    @Test func aContainerOfTwoClassesOfOneNameSaysSoOnce() throws {
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: FlashV1.Card.self, FlashV2.Card.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(error.description.components(separatedBy: "both named Card").count == 2, "\(error.description)")
    }
}
