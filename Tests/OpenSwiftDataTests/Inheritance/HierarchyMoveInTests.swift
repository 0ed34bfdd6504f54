import Foundation
import Testing
@testable import OpenSwiftData

// Flat `Coach` becomes `Coach: Vehicle`: its rows move into Vehicle's table with new keys, and
// every reference to them (a ticket's, a depot's) follows.

enum FleetV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Vehicle.self, Coach.self, Depot.self, Ticket.self, Driver.self] }

    @Model final class Vehicle {
        var name: String
        var wheels: Int
        init(name: String, wheels: Int) {
            self.name = name
            self.wheels = wheels
        }
    }

    @Model final class Coach {
        var name: String
        var seats: Int
        var depot: Depot?
        var drivers: [Driver] = []
        init(name: String, seats: Int) {
            self.name = name
            self.seats = seats
        }
    }

    @Model final class Depot {
        var city: String
        @Relationship(inverse: \Coach.depot) var coaches: [Coach] = []
        init(city: String) { self.city = city }
    }

    @Model final class Ticket {
        var number: Int
        var coach: Coach?
        init(number: Int) { self.number = number }
    }

    /// Many-to-many with Coach: a join table holds the coaches' keys.
    @Model final class Driver {
        var name: String
        @Relationship(inverse: \Coach.drivers) var coaches: [Coach] = []
        init(name: String) { self.name = name }
    }
}

enum FleetV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Vehicle.self, Coach.self, Depot.self, Ticket.self, Driver.self] }

    @Model class Vehicle {
        var name: String
        var wheels: Int = 4
        init(name: String) { self.name = name }
    }

    @Model class Coach: Vehicle {
        var seats: Int
        var depot: Depot?
        var drivers: [Driver] = []
        init(name: String, seats: Int) {
            self.seats = seats
            super.init(name: name)
        }
    }

    @Model final class Depot {
        var city: String
        @Relationship(inverse: \Coach.depot) var coaches: [Coach] = []
        init(city: String) { self.city = city }
    }

    @Model final class Ticket {
        var number: Int
        var coach: Coach?
        init(number: Int) { self.number = number }
    }

    /// Many-to-many with Coach: a join table holds the coaches' keys.
    @Model final class Driver {
        var name: String
        @Relationship(inverse: \Coach.drivers) var coaches: [Coach] = []
        init(name: String) { self.name = name }
    }
}

enum FleetPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FleetV1.self, FleetV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: FleetV1.self, toVersion: FleetV2.self)] }
}

@Suite struct HierarchyMoveInTests {
    @Test func aFlatEntityMovesUnderAParentWithItsRowsAndLinks() throws {
        let url = temporaryStoreURL("fleet")
        try writeStore(url, for: Schema(versionedSchema: FleetV1.self)) { context in
            // Keys 1 and 2 in both tables: the coaches' must change.
            context.insert(FleetV1.Vehicle(name: "van", wheels: 4))
            context.insert(FleetV1.Vehicle(name: "truck", wheels: 6))
            let depot = FleetV1.Depot(city: "Lyon")
            let red = FleetV1.Coach(name: "red", seats: 50)
            let blue = FleetV1.Coach(name: "blue", seats: 30)
            for model in [depot, red, blue] as [any PersistentModel] { context.insert(model) }
            red.depot = depot
            blue.depot = depot
            let ticket = FleetV1.Ticket(number: 7)
            context.insert(ticket)
            ticket.coach = blue
            let ana = FleetV1.Driver(name: "Ana")
            context.insert(ana)
            ana.coaches = [red, blue]
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: FleetV2.self), migrationPlan: FleetPlan.self, configurations: ModelConfiguration(url: url))
        #expect(container.migrationReports.first?.steps.first?.kind == .lightweight)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'Coach'")[0] as Int == 0)
        let context = ModelContext(container)
        let vehicles = try context.fetch(FetchDescriptor<FleetV2.Vehicle>(sortBy: [SortDescriptor(\.name)]))
        #expect(vehicles.map(\.name) == ["blue", "red", "truck", "van"])
        #expect(vehicles.map(\.wheels) == [4, 4, 6, 4])
        #expect(vehicles.map { $0 is FleetV2.Coach } == [true, true, false, false])
        let coaches = try context.fetch(FetchDescriptor<FleetV2.Coach>(sortBy: [SortDescriptor(\.seats)]))
        #expect(coaches.map(\.name) == ["blue", "red"])
        #expect(coaches.map { $0.depot?.city } == ["Lyon", "Lyon"])
        let depot = try #require(try context.fetch(FetchDescriptor<FleetV2.Depot>()).first)
        #expect(depot.coaches.map(\.name).sorted() == ["blue", "red"])
        let ticket = try #require(try context.fetch(FetchDescriptor<FleetV2.Ticket>()).first)
        #expect(ticket.coach?.name == "blue")
        // Both columns of the join table followed the coaches' new keys.
        let ana = try #require(try context.fetch(FetchDescriptor<FleetV2.Driver>()).first)
        #expect(ana.coaches.map(\.name).sorted() == ["blue", "red"])
        #expect(coaches.map { $0.drivers.map(\.name) } == [["Ana"], ["Ana"]])
        #expect(Set(vehicles.map(\.persistentModelID)).count == 4)
        #expect(try StoreInspection.problems(inStoreAt: url).isEmpty)
    }
}
