import Foundation
import OpenSwiftData
import Testing

/// Inserting a model whose unique values a stored row holds updates that row, property by
/// property: what the inserted model sets wins, what it never set (a relationship it left
/// alone, an optional it never assigned) keeps the stored value and links.
@Suite struct UpsertBehaviourTests {
    private static let models: [any PersistentModel.Type] = [Garage.self, Motor.self, Sedan.self, Driver.self]

    /// A store holding garage G (Lyon) with sedan C1, which Ann drives, and an empty garage H.
    private func seeded(_ backend: Backend) throws -> TestStore {
        let store = try backend.store(Self.models)
        let context = ModelContext(try store.container())
        let garage = Garage(name: "G", city: "Lyon")
        let car = Sedan(vin: "C1", model: "Zoe", doors: 4)
        car.mileage = 1200
        car.note = "scratched"
        car.garage = garage
        let ann = Driver(name: "Ann")
        ann.motors = [car]
        context.insert(garage)
        context.insert(ann)
        context.insert(Garage(name: "H", city: "Paris"))
        try context.save()
        return store
    }

    private func motor(_ vin: String, in context: ModelContext) throws -> Motor {
        try #require(try context.fetch(FetchDescriptor<Motor>(predicate: #Predicate { $0.vin == vin })).first)
    }

    private func garage(_ name: String, in context: ModelContext) throws -> Garage {
        try #require(try context.fetch(FetchDescriptor<Garage>(predicate: #Predicate { $0.name == name })).first)
    }

    private func driver(_ name: String, in context: ModelContext) throws -> Driver {
        try #require(try context.fetch(FetchDescriptor<Driver>(predicate: #Predicate { $0.name == name })).first)
    }

    @Test(arguments: Backend.available) func anUpsertKeepsTheValuesAndLinksItNeverSet(backend: Backend) throws {
        let store = try seeded(backend)
        let context = ModelContext(try store.container())
        let update = Sedan(vin: "C1", model: "Zoe II", doors: 4)
        context.insert(update)
        try context.save()

        // The object the app holds reads the row as merged.
        #expect(update.model == "Zoe II")
        #expect(update.garage?.name == "G")
        #expect(update.drivers.map(\.name) == ["Ann"])
        #expect(update.note == "scratched")
        // A default value counts as set.
        #expect(update.mileage == 0)

        let reader = ModelContext(try store.container())
        #expect(try reader.fetchCount(FetchDescriptor<Motor>()) == 1)
        let stored = try motor("C1", in: reader)
        #expect(stored.persistentModelID == update.persistentModelID)
        #expect(stored.model == "Zoe II" && stored.mileage == 0 && stored.note == "scratched")
        #expect(stored.garage?.name == "G")
        #expect(stored.drivers.map(\.name) == ["Ann"])
        #expect(try driver("Ann", in: reader).motors.map(\.vin) == ["C1"])

        // The garage still cascades to the car.
        let garage = try garage("G", in: reader)
        #expect(garage.motors.map(\.vin) == ["C1"])
        reader.delete(garage)
        try reader.save()
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Motor>()) == 0)
    }

    @Test(arguments: Backend.available) func anUpsertReplacesTheLinksItSets(backend: Backend) throws {
        let store = try seeded(backend)
        let context = ModelContext(try store.container())
        let update = Sedan(vin: "C1", model: "Zoe", doors: 5)
        update.garage = try garage("H", in: context)
        update.drivers = [Driver(name: "Bob")]
        context.insert(update)
        // A `nil` assigned once inserted is set; the one an optional starts with is not.
        update.note = nil
        try context.save()
        #expect(update.garage?.name == "H" && update.drivers.map(\.name) == ["Bob"])

        let reader = ModelContext(try store.container())
        let stored = try motor("C1", in: reader)
        #expect(stored.garage?.name == "H")
        #expect(stored.drivers.map(\.name) == ["Bob"])
        #expect(stored.note == nil && (stored as? Sedan)?.doors == 5)
        #expect(try garage("G", in: reader).motors.isEmpty)
        #expect(try garage("H", in: reader).motors.map(\.vin) == ["C1"])
        #expect(try driver("Ann", in: reader).motors.isEmpty)
    }

    @Test(arguments: Backend.available) func anUpsertedGarageKeepsItsCarsUnlessItSetsThem(backend: Backend) throws {
        let store = try seeded(backend)
        let context = ModelContext(try store.container())
        let renamed = Garage(name: "G", city: "Lyon 2")
        context.insert(renamed)
        try context.save()
        #expect(renamed.motors.map(\.vin) == ["C1"])
        var reader = ModelContext(try store.container())
        #expect(try garage("G", in: reader).city == "Lyon 2")
        #expect(try garage("G", in: reader).motors.map(\.vin) == ["C1"])
        #expect(try motor("C1", in: reader).garage?.name == "G")

        // Set, the cars are the inserted garage's: C1 leaves it (and stays, only unlinked).
        let replaced = Garage(name: "G", city: "Lyon 2")
        replaced.motors = [Motor(vin: "C9", model: "Twingo")]
        let writer = ModelContext(try store.container())
        writer.insert(replaced)
        try writer.save()
        reader = ModelContext(try store.container())
        #expect(try garage("G", in: reader).motors.map(\.vin) == ["C9"])
        #expect(try motor("C1", in: reader).garage == nil)
        #expect(try reader.fetchCount(FetchDescriptor<Motor>()) == 2)
    }

    @Test(arguments: Backend.available) func aManyToManyIsKeptUnlessTheUpsertAssignsIt(backend: Backend) throws {
        let store = try seeded(backend)
        let context = ModelContext(try store.container())
        context.insert(Driver(name: "Ann"))
        try context.save()
        let kept = ModelContext(try store.container())
        #expect(try driver("Ann", in: kept).motors.map(\.vin) == ["C1"])

        // Assigned once inserted, even empty, it replaces the stored links.
        let emptied = Driver(name: "Ann")
        context.insert(emptied)
        emptied.motors = []
        try context.save()
        let reader = ModelContext(try store.container())
        #expect(try driver("Ann", in: reader).motors.isEmpty)
        #expect(try motor("C1", in: reader).drivers.isEmpty)
    }

    @Test(arguments: Backend.available) func twoCollidingInsertsInOneSaveMergeIntoOneRow(backend: Backend) throws {
        let store = try seeded(backend)
        let context = ModelContext(try store.container())
        let first = Sedan(vin: "C7", model: "A", doors: 2)
        first.garage = try garage("H", in: context)
        first.note = "first"
        let second = Sedan(vin: "C7", model: "B", doors: 3)
        context.insert(first)
        context.insert(second)
        try context.save()
        // The one inserted last stands for the row, which keeps what only the first set.
        #expect(second.persistentModelID == first.persistentModelID)
        #expect(second.model == "B" && second.garage?.name == "H" && second.note == "first")

        let reader = ModelContext(try store.container())
        #expect(try reader.fetchCount(FetchDescriptor<Motor>(predicate: #Predicate { $0.vin == "C7" })) == 1)
        let stored = try motor("C7", in: reader)
        #expect(stored.model == "B" && (stored as? Sedan)?.doors == 3 && stored.note == "first")
        #expect(stored.garage?.name == "H")
        #expect(try garage("H", in: reader).motors.map(\.vin) == ["C7"])
    }

    @Test(arguments: Backend.available) func aThousandUpsertsInOneSaveEachReadTheirRow(backend: Backend) throws {
        let store = try backend.store(Self.models)
        let writer = ModelContext(try store.container())
        for index in 0..<1200 {
            let motor = Motor(vin: "V\(index)", model: "old")
            motor.note = "note \(index)"
            writer.insert(motor)
        }
        try writer.save()

        let context = ModelContext(try store.container())
        let updates = (0..<1200).map { Motor(vin: "V\($0)", model: "new") }
        // Every other one sets its note, which then replaces the stored one.
        for (index, update) in updates.enumerated() where index % 2 == 1 { update.note = "changed \(index)" }
        for update in updates { context.insert(update) }
        try context.save()
        #expect(updates.enumerated().allSatisfy { index, update in
            update.model == "new" && update.note == (index % 2 == 1 ? "changed \(index)" : "note \(index)")
        })
        let reader = ModelContext(try store.container())
        #expect(try reader.fetchCount(FetchDescriptor<Motor>()) == 1200)
        #expect(try reader.fetchCount(FetchDescriptor<Motor>(predicate: #Predicate { $0.model == "new" && $0.note != nil })) == 1200)
        let changed = try reader.fetch(FetchDescriptor<Motor>(predicate: #Predicate { $0.note?.starts(with: "changed") == true }))
        #expect(changed.count == 600)
    }

    @Test(arguments: Backend.available) func historyRecordsAnUpsertAsAnUpdateOfWhatItChanged(backend: Backend) throws {
        let store = try seeded(backend)
        let container = try store.container()
        let context = ModelContext(container)
        let before = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last).token
        let stored = try garage("G", in: context).persistentModelID
        context.insert(Garage(name: "G", city: "Lyon 2"))
        try context.save()
        // Nothing changed is nothing recorded.
        context.insert(Garage(name: "G", city: "Lyon 2"))
        try context.save()

        let history = try ModelContext(try store.container())
            .fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > before }))
        #expect(history.count == 1)
        let changes = history.flatMap(\.changes)
        #expect(changes.count == 1)
        guard case .update(let update as DefaultHistoryUpdate<Garage>)? = changes.first else {
            Issue.record("the upsert is not recorded as an update of a Garage: \(changes)")
            return
        }
        #expect(update.changedPersistentIdentifier == stored)
        #expect(update.updatedAttributes.map { $0 as AnyKeyPath } == [\Garage.city as AnyKeyPath])
    }
}
