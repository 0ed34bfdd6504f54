import Foundation
import Testing
@testable import OpenSwiftData

@Model class ScratchTrip {
    var name: String
    var days: Int = 1
    init(name: String) { self.name = name }
}

@Model class ScratchBusinessTrip: ScratchTrip {
    var perDiem: Double
    var client: String = "none"
    init(name: String, perDiem: Double) {
        self.perDiem = perDiem
        super.init(name: name)
    }
}

@Model class ScratchConferenceTrip: ScratchBusinessTrip {
    var talk: String?
    init(name: String, talk: String) {
        self.talk = talk
        super.init(name: name, perDiem: 80)
    }
}

@Suite struct ScratchInheritanceTests {
    @Test func subclassValues() throws {
        let trip = ScratchConferenceTrip(name: "WWDC", talk: "291")
        #expect(trip.name == "WWDC")
        #expect(trip.days == 1)
        #expect(trip.perDiem == 80)
        #expect(trip.client == "none")
        #expect(trip.talk == "291")
        trip.perDiem = 90
        #expect(trip.perDiem == 90)
        let base: ScratchTrip = trip
        #expect(base.name == "WWDC")
        #expect(ScratchConferenceTrip.schemaMetadata.map(\.name) == ["talk"])
        #expect(ScratchBusinessTrip.schemaMetadata.map(\.name) == ["perDiem", "client"])
    }
}
