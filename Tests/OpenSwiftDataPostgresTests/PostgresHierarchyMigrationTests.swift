import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

enum RoutesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Route.self] }

    @Model final class Route {
        var name: String
        var city: String
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }
}

/// The flat entity gains subclasses (and a defaulted attribute): its rows stay routes.
enum RoutesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Route.self, GuidedRoute.self, AudioRoute.self] }

    @Model class Route {
        var name: String
        var city: String
        var rating: Int = 0
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    @Model class GuidedRoute: Route {
        var guideName: String
        var groupSize: Int = 10
        init(name: String, city: String, guideName: String) {
            self.guideName = guideName
            super.init(name: name, city: city)
        }
    }

    @Model class AudioRoute: Route {
        var language: String?
        init(name: String, city: String, language: String) {
            self.language = language
            super.init(name: name, city: city)
        }
    }
}

/// The hierarchy gains a subclass and an attribute of a subclass.
enum RoutesV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [RoutesV2.Route.self, RoutesV2.GuidedRoute.self, AudioRoute.self, BikeRoute.self] }

    @Model class AudioRoute: RoutesV2.Route {
        var language: String?
        var minutes: Int?
        init(name: String, city: String, language: String) {
            self.language = language
            super.init(name: name, city: city)
        }
    }

    @Model class BikeRoute: RoutesV2.Route {
        #Index<BikeRoute>([\.bikes])
        var bikes: Int = 2
        init(name: String, city: String, bikes: Int) {
            self.bikes = bikes
            super.init(name: name, city: city)
        }
    }
}

/// A subclass removed: refused on PostgreSQL for now.
enum RoutesV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [RoutesV2.Route.self, RoutesV2.GuidedRoute.self, RoutesV3.AudioRoute.self] }
}

enum RoutesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [RoutesV1.self, RoutesV2.self, RoutesV3.self, RoutesV4.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: RoutesV1.self, toVersion: RoutesV2.self), .lightweight(fromVersion: RoutesV2.self, toVersion: RoutesV3.self),
            .lightweight(fromVersion: RoutesV3.self, toVersion: RoutesV4.self),
        ]
    }
}

/// Class hierarchies' tables migrated on PostgreSQL as on SQLite: added to in place; what would
/// move or remove rows refused before anything changes.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresHierarchyMigrationTests {
    private func open(_ version: any VersionedSchema.Type, _ place: ThrowAwaySchema) throws -> ModelContainer {
        try ModelContainer(
            for: Schema(versionedSchema: version), migrationPlan: RoutesPlan.self,
            configurations: [PostgresConfiguration(url: place.url, databaseSchema: place.name)])
    }

    @Test func aFlatEntityGainsSubclassesAndTheHierarchyGrows() throws {
        try ThrowAwaySchema().use { place in
            let writer = ModelContext(try open(RoutesV1.self, place))
            writer.insert(RoutesV1.Route(name: "Old town", city: "Prague"))
            writer.insert(RoutesV1.Route(name: "Canals", city: "Amsterdam"))
            try writer.save()

            let context = ModelContext(try open(RoutesV2.self, place))
            let routes = try context.fetch(FetchDescriptor<RoutesV2.Route>(sortBy: [SortDescriptor(\.name)]))
            #expect(routes.map(\.name) == ["Canals", "Old town"])
            #expect(routes.allSatisfy { type(of: $0) == RoutesV2.Route.self && $0.rating == 0 })
            context.insert(RoutesV2.GuidedRoute(name: "Castle", city: "Prague", guideName: "Petr"))
            context.insert(RoutesV2.AudioRoute(name: "Museum", city: "Amsterdam", language: "nl"))
            try context.save()

            let reader = ModelContext(try open(RoutesV3.self, place))
            let prague = try reader.fetch(FetchDescriptor<RoutesV2.Route>(predicate: #Predicate { $0.city == "Prague" }, sortBy: [SortDescriptor(\.name)]))
            #expect(prague.map(\.name) == ["Castle", "Old town"])
            #expect((prague[0] as? RoutesV2.GuidedRoute).map { ($0.guideName, $0.groupSize) } ?? ("", 0) == ("Petr", 10))
            let audio = try reader.fetch(FetchDescriptor<RoutesV3.AudioRoute>())
            #expect(audio.map(\.language) == ["nl"] && audio.map(\.minutes) == [nil])
            reader.insert(RoutesV3.BikeRoute(name: "Riverside", city: "Prague", bikes: 2))
            try reader.save()
            #expect(try reader.fetch(FetchDescriptor<RoutesV3.BikeRoute>()).map(\.bikes) == [2])
            let indices = try place.session().query("SELECT indexname FROM pg_indexes WHERE schemaname = \(place.name)").map { try $0.decode(String.self) }
            #expect(indices.contains("BikeRoute_index_bikes"))
        }
    }

    /// A subclass the plan removes goes with its rows, a drop that needs the opt-in.
    @Test func aSubclassRemovedTakesItsRowsWithTheOptIn() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try open(RoutesV3.self, place))
            context.insert(RoutesV3.BikeRoute(name: "Riverside", city: "Prague", bikes: 3))
            context.insert(RoutesV2.GuidedRoute(name: "Castle", city: "Prague", guideName: "Petr"))
            try context.save()
            let before = try place.dump(rowsOf: ["Route"])
            #expect {
                try open(RoutesV4.self, place)
            } throws: { error in
                "\(error)".contains("drops entity BikeRoute") && "\(error)".contains("pg_dump")
            }
            #expect(try place.dump(rowsOf: ["Route"]) == before)
            var configuration = PostgresConfiguration(url: place.url, databaseSchema: place.name)
            configuration.allowsDestructiveMigration = true
            let preview = try PostgresStore.previewMigration(of: configuration, to: Schema(versionedSchema: RoutesV4.self), migrationPlan: RoutesPlan.self)
            #expect(preview.steps.first?.droppedEntities == [.init(entity: "BikeRoute", rows: 1)])
            let container = try ModelContainer(for: Schema(versionedSchema: RoutesV4.self), migrationPlan: RoutesPlan.self, configurations: [configuration])
            #expect(try ModelContext(container).fetch(FetchDescriptor<RoutesV2.Route>()).map(\.name) == ["Castle"])
        }
    }
}

enum VenuesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Place.self, Museum.self, Visit.self, Tag.self] }

    @Model final class Place {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Museum {
        var name: String
        var tickets: Int
        @Relationship(inverse: \Tag.museums) var tags: [Tag] = []
        init(name: String, tickets: Int) {
            self.name = name
            self.tickets = tickets
        }
    }

    @Model final class Visit {
        var note: String
        var museum: Museum?
        init(note: String, museum: Museum?) {
            self.note = note
            self.museum = museum
        }
    }

    @Model final class Tag {
        var label: String
        var museums: [Museum] = []
        init(label: String) { self.label = label }
    }
}

/// Museum, flat in version 1, moves under Place with its rows: new keys, and the visit's
/// reference and the tags' join rows rewritten to them.
enum VenuesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Place.self, Museum.self, Visit.self, Tag.self] }

    @Model class Place {
        var name: String
        var city: String = "unknown"
        init(name: String) { self.name = name }
    }

    @Model class Museum: Place {
        var tickets: Int
        @Relationship(inverse: \Tag.museums) var tags: [Tag] = []
        init(name: String, tickets: Int) {
            self.tickets = tickets
            super.init(name: name)
        }
    }

    @Model final class Visit {
        var note: String
        var museum: Museum?
        init(note: String, museum: Museum?) {
            self.note = note
            self.museum = museum
        }
    }

    @Model final class Tag {
        var label: String
        var museums: [Museum] = []
        init(label: String) { self.label = label }
    }
}

enum VenuesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VenuesV1.self, VenuesV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: VenuesV1.self, toVersion: VenuesV2.self)] }
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresHierarchyMoveInTests {
    @Test func aFlatEntitysRowsMoveIntoTheHierarchyWithEveryReference() throws {
        try ThrowAwaySchema().use { place in
            let configuration = PostgresConfiguration(url: place.url, databaseSchema: place.name)
            let writer = ModelContext(try ModelContainer(for: Schema(versionedSchema: VenuesV1.self), migrationPlan: VenuesPlan.self, configurations: [configuration]))
            for name in ["Square", "Bridge"] { writer.insert(VenuesV1.Place(name: name)) }
            let art = VenuesV1.Tag(label: "art")
            let history = VenuesV1.Tag(label: "history")
            let museums = [("Louvre", 15), ("Prado", 12), ("Tate", 0)].map { VenuesV1.Museum(name: $0.0, tickets: $0.1) }
            museums[0].tags = [art, history]
            museums[1].tags = [art]
            for museum in museums { writer.insert(museum) }
            writer.insert(VenuesV1.Visit(note: "rainy day", museum: museums[1]))
            writer.insert(VenuesV1.Visit(note: "free entry", museum: museums[2]))
            try writer.save()

            let container = try ModelContainer(for: Schema(versionedSchema: VenuesV2.self), migrationPlan: VenuesPlan.self, configurations: [configuration])
            let context = ModelContext(container)
            let places = try context.fetch(FetchDescriptor<VenuesV2.Place>(sortBy: [SortDescriptor(\.name)]))
            #expect(places.map(\.name) == ["Bridge", "Louvre", "Prado", "Square", "Tate"])
            #expect(Set(places.map(\.persistentModelID)).count == 5)
            let moved = try context.fetch(FetchDescriptor<VenuesV2.Museum>(sortBy: [SortDescriptor(\.name)]))
            #expect(moved.map(\.tickets) == [15, 12, 0] && moved.allSatisfy { $0.city == "unknown" })
            #expect(moved.map { $0.tags.map(\.label).sorted() } == [["art", "history"], ["art"], []])
            let visits = try context.fetch(FetchDescriptor<VenuesV2.Visit>(sortBy: [SortDescriptor(\.note)]))
            #expect(visits.map { $0.museum?.name } == ["Tate", "Prado"])
            let art2 = try #require(try context.fetch(FetchDescriptor<VenuesV2.Tag>(predicate: #Predicate { $0.label == "art" })).first)
            #expect(art2.museums.map(\.name).sorted() == ["Louvre", "Prado"])
            context.insert(VenuesV2.Museum(name: "Uffizi", tickets: 20))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<VenuesV2.Place>()) == 6)
            #expect(try !PostgresStore.tableNames(in: place.name, session: place.session()).contains("Museum"))
        }
    }
}
