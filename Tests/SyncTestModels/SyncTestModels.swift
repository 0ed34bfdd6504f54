import Foundation
import SwiftData

// The models the sync tests sync (in the tests' process, the device processes and the server
// process): attributes of several types, an optional, a one-to-many with
// a cascade, a many-to-many, and a unique attribute with links to it.
@Model public final class Journey {
    public var title: String
    public var departure: Date
    public var budget: Double?
    public var isBooked: Bool
    public var notes: Data?
    @Relationship(deleteRule: .cascade, inverse: \Leg.journey) public var legs: [Leg] = []
    @Relationship(inverse: \Label.journeys) public var labels: [Label] = []
    /// A link to a model with a unique value, which two devices may both make offline.
    public var country: Country?

    public init(title: String, departure: Date, budget: Double? = nil, isBooked: Bool = false, notes: Data? = nil) {
        self.title = title
        self.departure = departure
        self.budget = budget
        self.isBooked = isBooked
        self.notes = notes
    }
}

@Model public final class Leg {
    public var place: String
    public var position: Int
    public var journey: Journey?

    public init(place: String, position: Int, journey: Journey? = nil) {
        self.place = place
        self.position = position
        self.journey = journey
    }
}

@Model public final class Label {
    public var name: String
    public var journeys: [Journey] = []

    public init(name: String) {
        self.name = name
    }
}

/// A model with a unique attribute: two devices making the same country make one model.
@Model public final class Country {
    @Attribute(.unique) public var code: String
    public var name: String
    public var population: Int = 0
    @Relationship(inverse: \Journey.country) public var journeys: [Journey] = []

    public init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

/// A model each device inserts once per round, under a name of its own, and no one deletes:
/// at the end every one is on every node exactly once.
@Model public final class Mark {
    public var name: String
    /// Pins its device linked it to when it made it, which no one changes: every node ends
    /// with them.
    @Relationship(inverse: \Pin.marks) public var pins: [Pin] = []

    public init(name: String) {
        self.name = name
    }
}

/// A model its device makes once and no one changes or deletes, which marks link to (a
/// device's own pins and other devices').
@Model public final class Pin {
    public var name: String
    public var marks: [Mark] = []

    public init(name: String) {
        self.name = name
    }
}

/// A counter only its device changes: every node ends with the device's last count.
@Model public final class Tally {
    public var device: String
    public var count: Int

    public init(device: String, count: Int) {
        self.device = device
        self.count = count
    }
}

public enum SyncTestModels {
    public static let all: [any PersistentModel.Type] = [Journey.self, Leg.self, Label.self, Country.self, Mark.self, Pin.self, Tally.self]
}
