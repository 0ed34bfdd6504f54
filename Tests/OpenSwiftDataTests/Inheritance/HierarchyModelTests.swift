import Foundation
import Testing
@testable import OpenSwiftData

/// Subclasses of `@Model` classes as objects: their initializers, their own and inherited
/// values, and observation of both, before any container is involved.
@Suite struct HierarchyModelTests {
    @Test func aSubclassHoldsItsOwnAndItsInheritedValues() throws {
        let journey = ConferenceJourney(name: "WWDC", destination: "Cupertino", talk: "291")
        #expect(journey.name == "WWDC" && journey.destination == "Cupertino" && journey.days == 1)
        #expect(journey.perDiem == 80 && journey.client == nil && journey.talk == "291")
        journey.perDiem = 95
        journey.days = 5
        let asParent: Journey = journey
        #expect(asParent.days == 5)
        #expect((asParent as? BusinessJourney)?.perDiem == 95)
        #expect(ConferenceJourney.schemaMetadata.map(\.name) == ["talk"])
        #expect(BusinessJourney.schemaMetadata.map(\.name) == ["perDiem", "client"])
    }

    @Test func observationSeesOwnAndInheritedProperties() throws {
        let journey = BusinessJourney(name: "Pitch", destination: "Berlin", perDiem: 120)
        let changes = Recorder<[String]>([])
        withObservationTracking { _ = journey.perDiem } onChange: { changes.value.append("perDiem") }
        withObservationTracking { _ = journey.destination } onChange: { changes.value.append("destination") }
        journey.perDiem = 130
        journey.destination = "Munich"
        #expect(changes.value == ["perDiem", "destination"])
    }
}

@Model class Gadget {
    var name: String
    init(name: String) { self.name = name }
}

@Model class Handset: Gadget {
    var carrier: String
    init(name: String, carrier: String) {
        self.carrier = carrier
        super.init(name: name)
    }
}

/// The schema of a hierarchy, as SwiftData spells it.
@Suite struct HierarchySchemaTests {
    @Test func entitiesKnowTheirSuperentityAndSubentities() throws {
        let schema = Schema(journeyModels)
        #expect(schema.problems.isEmpty, "\(schema.problems)")
        let journey = try #require(schema.entitiesByName["Journey"])
        let business = try #require(schema.entitiesByName["BusinessJourney"])
        let conference = try #require(schema.entitiesByName["ConferenceJourney"])
        #expect(journey.superentity == nil && journey.superentityName == nil)
        #expect(Set(journey.subentities.map(\.name)) == ["BusinessJourney", "LeisureJourney"])
        #expect(business.superentity === journey && business.superentityName == "Journey")
        #expect(business.subentities.map(\.name) == ["ConferenceJourney"])
        #expect(conference.superentity === business)

        #expect(business.storedProperties.map(\.name) == ["perDiem", "client"])
        #expect(business.inheritedProperties.map(\.name) == ["name", "destination", "days", "expenses"])
        #expect(business.properties.map(\.name) == ["name", "destination", "days", "expenses", "perDiem", "client"])
        #expect(conference.inheritedProperties.map(\.name) == ["name", "destination", "days", "expenses", "perDiem", "client"])
        #expect(Set(business.storedPropertiesByName.keys) == ["perDiem", "client"])
        #expect(business.inheritedPropertiesByName["expenses"] is Schema.Relationship)
        #expect(business.attributesByName["name"] != nil && business.relationshipsByName["expenses"] != nil)
        // Inherited properties are the superentity's own objects.
        #expect(business.inheritedPropertiesByName["name"] as? Schema.Attribute === journey.attributesByName["name"])
    }

    @Test func theSnapshotKeepsTheHierarchy() throws {
        let schema = Schema(journeyModels)
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        let business = try #require(decoded.entitiesByName["BusinessJourney"])
        #expect(business.superentity?.name == "Journey")
        #expect(business.properties.map(\.name) == ["name", "destination", "days", "expenses", "perDiem", "client"])
        #expect(decoded.fingerprint == schema.fingerprint)
        #expect(decoded.entities == schema.entities)
    }

    @Test func aSubclassWithoutItsParentIsAProblemNamingBoth() throws {
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Handset.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect("\(error!)".contains("Handset is a subclass of Gadget, which is not among the models the schema is made of; list Gadget.self"))
    }
}

@Model class Instrument {
    var name: String
    init(name: String) { self.name = name }
}

@Model class Violin: Instrument {
    var strings: Int = 4
    override init(name: String) { super.init(name: name) }
}

@Model class Piano: Instrument {
    var strings: String = "steel"
    override init(name: String) { super.init(name: name) }
}

extension HierarchySchemaTests {
    @Test func siblingsDeclaringOneNameWithDifferentValuesAreAProblem() throws {
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Instrument.self, Violin.self, Piano.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect("\(error!)".contains("Violin.strings and Piano.strings are stored in one column of Instrument's table"))
    }
}
