import Foundation
import SwiftData

// The models the sync tests sync: attributes of several types, an optional, a one-to-many with
// a cascade, and a many-to-many.
@Model final class Journey {
    var title: String
    var departure: Date
    var budget: Double?
    var isBooked: Bool
    var notes: Data?
    @Relationship(deleteRule: .cascade, inverse: \Leg.journey) var legs: [Leg] = []
    @Relationship(inverse: \Label.journeys) var labels: [Label] = []

    init(title: String, departure: Date, budget: Double? = nil, isBooked: Bool = false, notes: Data? = nil) {
        self.title = title
        self.departure = departure
        self.budget = budget
        self.isBooked = isBooked
        self.notes = notes
    }
}

@Model final class Leg {
    var place: String
    var position: Int
    var journey: Journey?

    init(place: String, position: Int, journey: Journey? = nil) {
        self.place = place
        self.position = position
        self.journey = journey
    }
}

@Model final class Label {
    var name: String
    var journeys: [Journey] = []

    init(name: String) {
        self.name = name
    }
}

enum SyncTestModels {
    static let all: [any PersistentModel.Type] = [Journey.self, Leg.self, Label.self]
}
