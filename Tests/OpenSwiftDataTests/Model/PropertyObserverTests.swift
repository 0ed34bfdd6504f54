import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Thermostat {
    var name: String
    /// Kept in step by `didSet`, as apps keep a mirror column for sorting or searching.
    var fahrenheit: Double = 32
    var celsius: Double = 0 {
        didSet { fahrenheit = celsius * 9 / 5 + 32 }
    }
    var setting: Int = 0 {
        willSet(next) {
            guard next != setting else { return }
            changes.append("\(setting) → \(next)")
        }
        didSet(previous) {
            if previous == setting { return }
            lastSetting = previous
        }
    }
    var lastSetting: Int?
    var rooms: [ThermostatRoom] = [] {
        didSet { roomCount = rooms.count }
    }
    var roomCount = 0
    @Transient var changes: [String] = []

    init(name: String) {
        self.name = name
    }
}

@Model final class ThermostatRoom {
    var name: String
    init(name: String) { self.name = name }
}

/// `willSet` and `didSet` on persisted properties run when code sets the property, as their
/// authors meant; a fetch (or a migration) filling the property runs neither.
@Suite struct PropertyObserverTests {
    @Test func observersRunWhenCodeSetsThePropertyAndTheirWritesAreSaved() throws {
        let url = temporaryStoreURL("thermostats")
        do {
            let context = ModelContext(try ModelContainer(for: Thermostat.self, configurations: ModelConfiguration(url: url)))
            let thermostat = Thermostat(name: "hall")
            context.insert(thermostat)
            thermostat.celsius = 100
            #expect(thermostat.fahrenheit == 212)
            thermostat.setting = 3
            thermostat.setting = 3
            thermostat.setting = 5
            #expect(thermostat.changes == ["0 → 3", "3 → 5"])
            #expect(thermostat.lastSetting == 3)
            thermostat.rooms = [ThermostatRoom(name: "kitchen"), ThermostatRoom(name: "attic")]
            #expect(thermostat.roomCount == 2)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Thermostat.self, configurations: ModelConfiguration(url: url)))
        let thermostat = try #require(try context.fetch(FetchDescriptor<Thermostat>()).first)
        #expect(thermostat.fahrenheit == 212 && thermostat.celsius == 100)
        #expect(thermostat.lastSetting == 3 && thermostat.setting == 5 && thermostat.roomCount == 2)
        // Filled by the fetch: no observer ran.
        #expect(thermostat.changes.isEmpty)
        thermostat.celsius = -40
        #expect(thermostat.fahrenheit == -40)
    }

    /// Observation still sees the change, and the observer's own writes.
    @Test func observationSeesTheChange() throws {
        let thermostat = Thermostat(name: "porch")
        let changes = Recorder<Int>(0)
        withObservationTracking { _ = thermostat.fahrenheit } onChange: { changes.value += 1 }
        thermostat.celsius = 10
        #expect(changes.value == 1)
        #expect(thermostat.fahrenheit == 50)
    }
}
