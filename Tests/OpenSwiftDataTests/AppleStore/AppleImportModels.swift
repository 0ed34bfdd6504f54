import Foundation
import OpenSwiftData

/// The app's models for stores Apple's SwiftData wrote (``AppleLayoutBuilder``): what an app
/// moving to OpenSwiftData declares, the same classes it declared for SwiftData.
enum AppleImportModels {
    enum Mood: String, Codable { case calm, busy }

    /// One attribute of every type SwiftData stores in a column of its own, and optionals.
    @Model final class Specimen {
        var text: String
        var count: Int
        var small: Int16
        var medium: Int32
        var ratio: Double
        var weight: Float
        var flag: Bool
        var when: Date
        var bytes: Data
        var token: UUID
        var link: URL
        var price: Decimal
        var mood: Mood
        var words: [String]
        var scores: [Int]
        var note: String?
        var maybeCount: Int?
        var maybeWhen: Date?
        var maybeToken: UUID?
        @Attribute(.externalStorage) var image: Data?

        init(text: String) {
            self.text = text
            count = 0
            small = 0
            medium = 0
            ratio = 0
            weight = 0
            flag = false
            when = .now
            bytes = Data()
            token = UUID()
            link = URL(string: "https://example.com")!
            price = 0
            mood = .calm
            words = []
            scores = []
        }
    }

    @Model final class Journey {
        @Attribute(originalName: "name") var title: String
        @Relationship(deleteRule: .cascade, inverse: \Waypoint.journey) var waypoints: [Waypoint] = []
        @Relationship(inverse: \Label.journeys) var labels: [Label] = []
        var guide: Guide?
        /// New in the OpenSwiftData version: the Apple store has no values for it.
        var rating: Int = 3

        init(title: String) { self.title = title }
    }

    @Model final class Waypoint {
        var place: String
        var journey: Journey?
        init(place: String) { self.place = place }
    }

    @Model final class Label {
        @Attribute(.unique) var name: String
        var journeys: [Journey] = []
        init(name: String) { self.name = name }
    }

    @Model final class Guide {
        var name: String
        @Relationship(inverse: \Journey.guide) var journey: Journey?
        init(name: String) { self.name = name }
    }
}

/// A later version of the app's waypoints: a property the Apple version did not have and that
/// has no initial value, and no relationship to journeys.
enum StrictImportModels {
    @Model final class Waypoint {
        var place: String
        var altitude: Int
        init(place: String, altitude: Int) {
            self.place = place
            self.altitude = altitude
        }
    }
}

/// A class hierarchy: SwiftData keeps a subclass's rows in its root's table (`Z_ENT` tells
/// them apart).
enum HierarchyImportModels {
    @Model class Animal {
        var name: String
        var keeper: Keeper?
        init(name: String) { self.name = name }
    }

    @Model class Dog: Animal {
        var breed: String
        init(name: String, breed: String) {
            self.breed = breed
            super.init(name: name)
        }
    }

    @Model final class Keeper {
        var name: String
        @Relationship(inverse: \Animal.keeper) var animals: [Animal] = []
        init(name: String) { self.name = name }
    }
}

/// The app's models for ``AppleLayoutStore/writeTrips(at:trips:)``'s store.
enum TripImportModels {
    @Model final class Trip {
        var name: String
        var start: Date?
        var budget: Double = 0
        @Attribute(.externalStorage) var photo: Data?
        var id = UUID()
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
        @Relationship(inverse: \Tag.trips) var tags: [Tag] = []
        init(name: String, budget: Double, id: UUID) {
            self.name = name
            self.budget = budget
            self.id = id
        }
    }

    @Model final class Stop {
        var place: String
        var trip: Trip?
        init(place: String) { self.place = place }
    }

    @Model final class Tag {
        var name: String
        var trips: [Trip] = []
        init(name: String) { self.name = name }
    }
}

/// Trips whose photo the app no longer keeps outside the store (no `.externalStorage`), and
/// tags no longer linked to them.
enum PlainPhotoImportModels {
    @Model final class Trip {
        var name: String
        var start: Date?
        var budget: Double = 0
        var photo: Data?
        var id = UUID()
        init(name: String) { self.name = name }
    }

    @Model final class Tag {
        var name: String
        init(name: String) { self.name = name }
    }
}
