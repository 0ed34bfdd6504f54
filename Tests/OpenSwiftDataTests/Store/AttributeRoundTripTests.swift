import Foundation
import Testing
@testable import OpenSwiftData

/// Every attribute type survives write, close, reopen and read, bit for bit.
@Suite struct AttributeRoundTripTests {
    /// Writes `configure`d models to a new file store, closes it, and reads them back from a
    /// new container.
    private func roundTrip(_ configure: [(EveryType) -> Void]) throws -> [EveryType] {
        let url = temporaryStoreURL()
        do {
            let container = try ModelContainer(for: EveryType.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            for (index, apply) in configure.enumerated() {
                let model = EveryType()
                model.int = index
                apply(model)
                context.insert(model)
            }
            try context.save()
        }
        let container = try ModelContainer(for: EveryType.self, configurations: ModelConfiguration(url: url))
        return try ModelContext(container).fetch(FetchDescriptor<EveryType>(sortBy: [SortDescriptor(\.int)]))
    }

    @Test func extremeValuesOfEveryTypeSurviveReopening() throws {
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789)
        let bytes = Data((0...255).map(UInt8.init))
        let url = URL(string: "https://example.com/a%20b?q=1&r=é#frag")!
        let decimal = Decimal(string: "12345678901234567890.123456789")!
        let models = try roundTrip([
            { m in
                m.bool = true
                m.int8 = .min; m.int16 = .min; m.int32 = .min; m.int64 = .min
                m.uint = .max; m.uint8 = .max; m.uint16 = .max; m.uint32 = .max; m.uint64 = .max
                m.double = -.leastNonzeroMagnitude; m.float = .leastNonzeroMagnitude; m.decimal = decimal
                m.string = "Wall·E 🤖 \"quoted\" 'single' %_"
                m.date = date; m.data = bytes; m.url = url; m.uuid = uuid
                m.genre = .comedy; m.priority = .high
                m.address = Address(street: "1 Pixar Way", city: "Emeryville", zip: 94608)
                m.payment = .card(last4: "4242")
                m.tags = ["a", "b", ""]; m.scores = ["x": 1, "y": -2]
                m.addresses = [Address(street: "s", city: "c", zip: nil)]
                m.optionalInt = .max; m.optionalString = ""; m.optionalDate = date
                m.optionalUUID = uuid; m.optionalGenre = .drama
                m.optionalAddress = Address(street: "x", city: "y", zip: 1)
                m.optionalData = Data(); m.optionalDecimal = -decimal
            },
            { m in
                m.int8 = .max; m.int16 = .max; m.int32 = .max; m.int64 = .max
                m.double = .greatestFiniteMagnitude; m.float = -.infinity
                m.date = .distantFuture
                // Written with its length: a NUL inside is kept, not where the text stops.
                m.string = "before\u{0}after"
            },
            { _ in },
        ])
        #expect(models.count == 3)
        let first = models[0]
        #expect(first.bool == true)
        #expect(first.int8 == .min && first.int16 == .min && first.int32 == .min && first.int64 == .min)
        #expect(first.uint == .max && first.uint8 == .max && first.uint16 == .max)
        #expect(first.uint32 == .max && first.uint64 == .max)
        #expect(first.double == -.leastNonzeroMagnitude)
        #expect(first.float == .leastNonzeroMagnitude)
        #expect(first.decimal == decimal)
        #expect(first.string == "Wall·E 🤖 \"quoted\" 'single' %_")
        #expect(first.date == date)
        #expect(first.data == bytes)
        #expect(first.url == url)
        #expect(first.uuid == uuid)
        #expect(first.genre == .comedy)
        #expect(first.priority == .high)
        #expect(first.address == Address(street: "1 Pixar Way", city: "Emeryville", zip: 94608))
        #expect(first.payment == .card(last4: "4242"))
        #expect(first.tags == ["a", "b", ""])
        #expect(first.scores == ["x": 1, "y": -2])
        #expect(first.addresses == [Address(street: "s", city: "c", zip: nil)])
        #expect(first.optionalInt == .max)
        #expect(first.optionalString == "")
        #expect(first.optionalDate == date)
        #expect(first.optionalUUID == uuid)
        #expect(first.optionalGenre == .drama)
        #expect(first.optionalAddress == Address(street: "x", city: "y", zip: 1))
        #expect(first.optionalData == Data())
        #expect(first.optionalDecimal == -decimal)

        let second = models[1]
        #expect(second.int8 == .max && second.int16 == .max && second.int32 == .max && second.int64 == .max)
        #expect(second.double == .greatestFiniteMagnitude)
        #expect(second.float == -.infinity)
        #expect(second.date == .distantFuture)
        #expect(second.string == "before\u{0}after")

        let defaults = models[2]
        #expect(defaults.bool == false)
        #expect(defaults.string == "")
        #expect(defaults.date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(defaults.payment == .cash)
        #expect(defaults.optionalInt == nil)
        #expect(defaults.optionalString == nil)
        #expect(defaults.optionalDate == nil)
        #expect(defaults.optionalUUID == nil)
        #expect(defaults.optionalGenre == nil)
        #expect(defaults.optionalAddress == nil)
        #expect(defaults.optionalData == nil)
        #expect(defaults.optionalDecimal == nil)
    }

    /// A save binds each text and blob column once per row, reusing one statement: every row
    /// keeps its own bytes, longer or shorter than the row before, and empty ones stay empty
    /// rather than becoming `NULL`.
    @Test func textAndBytesOfManyRowsInOneSaveKeepEachRowsOwn() throws {
        let strings = ["", "a", String(repeating: "long ", count: 80), "b", "", "before\u{0}after", "é🤖"]
        let blobs = [Data(), Data([1, 2, 3]), Data((0..<5000).map { UInt8($0 % 251) }), Data(), Data([9]), Data(), Data([0])]
        let optionalBlobs: [Data?] = [Data(), nil, Data([7]), Data(), nil, Data(repeating: 5, count: 100), Data()]
        let models = try roundTrip(strings.indices.map { index in
            { m in
                m.string = strings[index]
                m.data = blobs[index]
                m.optionalData = optionalBlobs[index]
                m.optionalString = index.isMultiple(of: 2) ? strings[index] : nil
            }
        })
        #expect(models.map(\.string) == strings)
        #expect(models.map(\.data) == blobs)
        #expect(models.map(\.optionalData) == optionalBlobs)
        #expect(models.map(\.optionalString) == strings.indices.map { $0.isMultiple(of: 2) ? strings[$0] : nil })
    }

    @Test func valuesAreStoredInReadableColumns() throws {
        let url = temporaryStoreURL()
        let uuid = UUID()
        do {
            let container = try ModelContainer(for: EveryType.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            let model = EveryType()
            model.genre = .drama
            model.priority = .high
            model.uuid = uuid
            model.date = Date(timeIntervalSinceReferenceDate: 10.5)
            model.address = Address(street: "s", city: "c", zip: 7)
            model.double = -0.0
            context.insert(model)
            try context.save()
        }
        #expect(try rawRow(url, sql: "PRAGMA journal_mode")[0] as String == "wal")
        let row = try rawRow(url, sql: "SELECT genre, priority, uuid, date, address, optionalInt FROM EveryType")
        #expect(row[0] as String == "drama")
        #expect(row[1] as Int == 9)
        #expect(row[2] as Data == withUnsafeBytes(of: uuid.uuid) { Data($0) })
        #expect(row[3] as Double == 10.5)
        #expect(row[4] as String == #"{"city":"c","street":"s","zip":7}"#)
        #expect(row[5] as Int? == nil)
        // A documented difference: SQLite's REAL keeps no negative zero.
        let reopened = try ModelContext(ModelContainer(for: EveryType.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<EveryType>())
        #expect(reopened.map(\.double.sign) == [.plus])
    }

    @Test func externalStorageKeepsDataOutOfTheTableAndLoadsItOnAccess() throws {
        let url = temporaryStoreURL()
        let image = Data(repeating: 0xAB, count: 200_000)
        do {
            let container = try ModelContainer(for: Photo.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Photo(name: "big", image: image, thumbnail: Data([1, 2, 3])))
            context.insert(Photo(name: "small", image: Data([9])))
            try context.save()
        }
        let columns = try rawColumns(url, table: "Photo")
        #expect(columns == ["_pk", "name"])
        let sideTableBytes = try rawRow(url, sql: "SELECT length(value) FROM _osd_external_Photo_image ORDER BY _pk")
        #expect(sideTableBytes[0] as Int == 200_000)

        SQLiteStore.countsQueries.store(true, ordering: .relaxed)
        let container = try ModelContainer(for: Photo.self, configurations: ModelConfiguration(url: url))
        let store = try #require(container.stores.first as? SQLiteStore)
        let context = ModelContext(container)
        _ = try context.fetchCount(FetchDescriptor<Photo>())  // opens the reading connection, which queries too
        let beforeFetch = store.executedQueryCount
        let photos = try context.fetch(FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.name)]))
        #expect(photos.map(\.name) == ["big", "small"])
        // The bytes are not read with the rows, only when the property is.
        #expect(store.executedQueryCount - beforeFetch == 1)
        #expect(photos[0].image == image)
        #expect(store.executedQueryCount - beforeFetch == 2)
        #expect(photos[0].thumbnail == Data([1, 2, 3]))
        #expect(photos[1].image == Data([9]))
        #expect(photos[1].thumbnail == nil)

        photos[1].thumbnail = Data([4])
        context.delete(photos[0])
        try context.save()
        let reopened = try ModelContext(ModelContainer(for: Photo.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Photo>())
        #expect(reopened.count == 1)
        #expect(reopened[0].thumbnail == Data([4]))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM _osd_external_Photo_image")[0] as Int == 1)
    }

    @Test func transientAndComputedPropertiesAreNotStored() throws {
        let url = temporaryStoreURL()
        do {
            let container = try ModelContainer(for: Counter.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            let counter = Counter(name: "clicks")
            counter.scratch = 42
            context.insert(counter)
            try context.save()
        }
        #expect(try rawColumns(url, table: "Counter") == ["_pk", "name"])
        let counter = try ModelContext(ModelContainer(for: Counter.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Counter>())[0]
        #expect(counter.scratch == 0)
        #expect(counter.shouted == "CLICKS")
    }

    /// SQLite stores a NaN as NULL: saving one is refused, naming the attribute, rather than
    /// reading back as `nil` or failing on a NOT NULL constraint.
    @Test(arguments: [\Reading.level, \Reading.spare, \Reading.ratio, \Reading.spareRatio] as [PartialKeyPath<Reading> & Sendable])
    func notANumberIsRefusedNamingTheAttribute(_ keyPath: PartialKeyPath<Reading> & Sendable) throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(for: Reading.self, configurations: ModelConfiguration(url: url)))
        context.insert(Reading(level: 1))
        try context.save()
        let reading = Reading(level: 2)
        let name: String
        switch keyPath {
        case \Reading.level: reading.level = .nan; name = "level"
        case \Reading.spare: reading.spare = .nan; name = "spare"
        case \Reading.ratio: reading.ratio = .nan; name = "ratio"
        default: reading.spareRatio = .nan; name = "spareRatio"
        }
        context.insert(reading)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error.description.contains("Reading.\(name)"))
        #expect(error.description.contains("NaN"))
        let reopened = ModelContext(try ModelContainer(for: Reading.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetch(FetchDescriptor<Reading>()).map(\.level) == [1])
    }

    @Test func propertiesWithInferredTypesAreStoredAsTheirTypes() throws {
        let url = temporaryStoreURL()
        let schema = Schema([Habit.self])
        let types = Dictionary(uniqueKeysWithValues: try #require(schema.entity(for: Habit.self)).attributesInOrder.map { ($0.name, $0.valueTypeName) })
        #expect(types["streak"] == "Int")
        #expect(types["tags"] == "Array<String>")
        #expect(types["frequency"]?.hasSuffix("Frequency") == true)
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
            let habit = Habit(name: "read")
            habit.streak = 12
            habit.tags = ["books"]
            habit.notesByDay = ["mon": "20 pages"]
            habit.frequency = .weekly
            context.insert(habit)
            context.insert(Habit(name: "walk"))
            try context.save()
        }
        let habits = try ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Habit>(sortBy: [SortDescriptor(\.name)]))
        #expect(habits.map(\.name) == ["read", "walk"])
        #expect(habits.map(\.streak) == [12, 0])
        #expect(habits.map(\.tags) == [["books"], []])
        #expect(habits[0].notesByDay == ["mon": "20 pages"])
        #expect(habits.map(\.frequency) == [.weekly, .daily])
        #expect(habits[1].target == 0.5 && habits[1].isActive && habits[1].offset == -3)
        #expect(habits[1].reminder == .distantFuture)
        #expect(habits[1].code.uuidString.hasSuffix("0A"))
    }

    @Test func infinitiesAndTheSmallestValuesSurviveReopening() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try ModelContainer(for: Reading.self, configurations: ModelConfiguration(url: url)))
            let reading = Reading(level: -.infinity)
            reading.spare = .infinity
            reading.ratio = .leastNonzeroMagnitude
            reading.spareRatio = -.greatestFiniteMagnitude
            context.insert(reading)
            try context.save()
        }
        let reading = try ModelContext(try ModelContainer(for: Reading.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Reading>())[0]
        #expect(reading.level == -.infinity)
        #expect(reading.spare == .infinity)
        #expect(reading.ratio == .leastNonzeroMagnitude)
        #expect(reading.spareRatio == -.greatestFiniteMagnitude)
    }
}

/// A sensor reading with floating-point attributes of both widths, optional or not.
@Model
final class Reading {
    var level: Double
    var spare: Double?
    var ratio: Float = 0
    var spareRatio: Float?

    init(level: Double) { self.level = level }
}

/// Persisted properties whose types Swift infers from their initial values, as apps write them.
@Model
final class Habit {
    enum Frequency: String, Codable { case daily, weekly }

    var name = ""
    var streak = 0
    var target = 0.5
    var isActive = true
    var tags = [String]()
    var notesByDay = [String: String]()
    var frequency = Frequency.daily
    var started = Date(timeIntervalSinceReferenceDate: 0)
    var reminder = Date.distantFuture
    var code = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    var offset = -3

    init(name: String) { self.name = name }
}
