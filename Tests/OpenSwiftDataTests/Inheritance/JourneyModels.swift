import Foundation
import OpenSwiftData

// A hierarchy in the shape of WWDC25's trips: a parent with the shared properties, a subclass
// per kind, one of them subclassed again, and a model whose relationship holds any of them.

@Model class Journey {
    var name: String
    var destination: String
    var days: Int = 1
    @Relationship(deleteRule: .cascade, inverse: \JourneyExpense.journey) var expenses: [JourneyExpense] = []

    init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }
}

@available(iOS 26, macOS 26, *)
@Model class BusinessJourney: Journey {
    var perDiem: Double
    var client: String?

    init(name: String, destination: String, perDiem: Double) {
        self.perDiem = perDiem
        super.init(name: name, destination: destination)
    }
}

@Model class ConferenceJourney: BusinessJourney {
    var talk: String = ""

    init(name: String, destination: String, talk: String) {
        self.talk = talk
        super.init(name: name, destination: destination, perDiem: 80)
    }
}

@Model class LeisureJourney: Journey {
    enum Reason: String, Codable { case family, vacation, other }
    var reason: Reason

    init(name: String, destination: String, reason: Reason) {
        self.reason = reason
        super.init(name: name, destination: destination)
    }
}

@Model final class JourneyExpense {
    var label: String
    var amount: Decimal
    var journey: Journey?

    init(label: String, amount: Decimal) {
        self.label = label
        self.amount = amount
    }
}

let journeyModels: [any PersistentModel.Type] = [
    Journey.self, BusinessJourney.self, ConferenceJourney.self, LeisureJourney.self, JourneyExpense.self,
]
