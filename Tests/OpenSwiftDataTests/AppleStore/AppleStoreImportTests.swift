import Foundation
import GRDB
import OpenSwiftData
import Testing

/// Bringing the data of stores Apple's SwiftData wrote (made here from the layout's documented
/// facts by ``AppleLayoutBuilder``) into new OpenSwiftData stores, for the app's own models.
@Suite struct AppleStoreImportTests {
    typealias Specimen = AppleImportModels.Specimen
    typealias Journey = AppleImportModels.Journey
    typealias Waypoint = AppleImportModels.Waypoint
    typealias Label = AppleImportModels.Label
    typealias Guide = AppleImportModels.Guide

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apple-import-\(UUID().uuidString)")
    var appleStore: URL { folder.appendingPathComponent("default.store") }
    var newStore: URL { folder.appendingPathComponent("App.store") }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Every file in the folder (the external data folder's included), by path, with its bytes.
    private func files() throws -> [String: Data] {
        var contents: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let full = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: full.path, isDirectory: &isFolder), !isFolder.boolValue {
                contents[path] = try Data(contentsOf: full)
            }
        }
        return contents
    }

    // MARK: Every attribute type

    static let specimenEntity = AppleLayoutBuilder.Entity(name: "Specimen", attributes: [
        .init(name: "text", type: 700, sqlType: "VARCHAR"), .init(name: "count", type: 300, sqlType: "INTEGER"),
        .init(name: "small", type: 100, sqlType: "INTEGER"), .init(name: "medium", type: 200, sqlType: "INTEGER"),
        .init(name: "ratio", type: 500, sqlType: "FLOAT"), .init(name: "weight", type: 600, sqlType: "FLOAT"),
        .init(name: "flag", type: 800, sqlType: "INTEGER"), .init(name: "when", type: 900, sqlType: "TIMESTAMP"),
        .init(name: "bytes", type: 1000, sqlType: "BLOB"), .init(name: "token", type: 1100, sqlType: "BLOB"),
        .init(name: "link", type: 1200, sqlType: "VARCHAR"), .init(name: "price", type: 400, sqlType: "DECIMAL"),
        .init(name: "mood", type: 700, sqlType: "VARCHAR"), .init(name: "words", type: 1800, sqlType: "BLOB"),
        .init(name: "scores", type: 1800, sqlType: "BLOB"), .init(name: "note", type: 700, sqlType: "VARCHAR", isOptional: true),
        .init(name: "maybeCount", type: 300, sqlType: "INTEGER", isOptional: true),
        .init(name: "maybeWhen", type: 900, sqlType: "TIMESTAMP", isOptional: true),
        .init(name: "maybeToken", type: 1100, sqlType: "BLOB", isOptional: true),
        .init(name: "image", type: 1000, sqlType: "BLOB", isOptional: true),
    ])

    static let tokens = [UUID(), UUID(), UUID()]
    static let photo = Data((0..<5000).map { UInt8($0 % 251) })

    /// Three specimens: ordinary values, the limits of each type, and every optional `nil`.
    private func writeSpecimens(extra: (Database) throws -> Void = { _ in }, entity: AppleLayoutBuilder.Entity = specimenEntity) throws {
        try AppleLayoutBuilder(entities: [entity]).write(at: appleStore) { db in
            let words = try PropertyListEncoder().encode(["mañana", "", "🦊"])
            let scores = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: [3, 1, 4]), requiringSecureCoding: false)
            let uuid = { (id: UUID) in withUnsafeBytes(of: id.uuid) { Data($0) } }
            let insert = "INSERT INTO ZSPECIMEN (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZCOUNT, ZSMALL, ZMEDIUM, ZRATIO, ZWEIGHT, ZFLAG, ZWHEN, ZBYTES, ZTOKEN, ZLINK, ZPRICE, ZMOOD, ZWORDS, ZSCORES, ZNOTE, ZMAYBECOUNT, ZMAYBEWHEN, ZMAYBETOKEN, ZIMAGE) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            try db.execute(sql: insert, arguments: [
                1, "Fern", 42, 7, 70_000, 2.5, Float(0.1).description, 1, 800_000_000.25, Data([1, 2, 3]), uuid(Self.tokens[0]),
                "https://example.com/a?b=c", 10.11, "busy", words, scores, "a note", 5, 0.0, uuid(Self.tokens[1]),
                Data([1]) + Self.photo])
            try db.execute(sql: insert, arguments: [
                2, "", Int64.max, Int16.min, Int32.max, -0.0, -3.4e38, 0, -978_307_200.0, Data(), uuid(Self.tokens[2]),
                "file:///tmp/x%20y", 0, "calm", try PropertyListEncoder().encode([String]()),
                try NSKeyedArchiver.archivedData(withRootObject: NSArray(), requiringSecureCoding: false),
                nil, nil, nil, nil, Data([2]) + Data("0E9F1A52-7C3D-4B8A-9E21-5D6C7B8A9F01".utf8)])
            try db.execute(sql: insert, arguments: [
                5, "emoji 🦊 and ü", Int64.min, 0, 0, 1e308, 0, 1, 1e9, Data(repeating: 0, count: 1), uuid(UUID()),
                "https://example.com", 123456.789, "calm", words, scores, nil, 0, nil, nil, nil])
            try extra(db)
        }
        let external = folder.appendingPathComponent(".default_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data(repeating: 0xCD, count: 300_000).write(to: external.appendingPathComponent("0E9F1A52-7C3D-4B8A-9E21-5D6C7B8A9F01"))
    }

    @Test func everyAttributeTypeComesOverWithItsValueAndTheAppleStoreStaysAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSpecimens()
        let before = try files()

        let report = try AppleStoreImport(storeAt: appleStore, schema: Schema([Specimen.self])).importStore(to: newStore)
        #expect(report.rows == ["Specimen": 3])
        #expect(report.valuesCompared == 3 * 20)
        let after = try files().filter { !$0.key.hasPrefix("App.store") }
        #expect(after == before)

        let container = try ModelContainer(for: Specimen.self, configurations: ModelConfiguration(url: newStore))
        let specimens = try ModelContext(container).fetch(FetchDescriptor<Specimen>(sortBy: [SortDescriptor(\.when)]))
        #expect(specimens.map(\.text) == ["", "Fern", "emoji 🦊 and ü"])
        let (second, first, third) = (specimens[0], specimens[1], specimens[2])
        #expect(first.count == 42 && first.small == 7 && first.medium == 70_000)
        #expect(first.ratio == 2.5 && first.weight == 0.1 && first.flag)
        #expect(first.when == Date(timeIntervalSinceReferenceDate: 800_000_000.25))
        #expect(first.bytes == Data([1, 2, 3]) && first.token == Self.tokens[0])
        #expect(first.link == URL(string: "https://example.com/a?b=c"))
        #expect(first.price == Decimal(string: "10.11"))
        #expect(first.mood == .busy && first.words == ["mañana", "", "🦊"] && first.scores == [3, 1, 4])
        #expect(first.note == "a note" && first.maybeCount == 5 && first.maybeWhen == Date(timeIntervalSinceReferenceDate: 0))
        #expect(first.maybeToken == Self.tokens[1] && first.image == Self.photo)
        #expect(second.count == Int.max && second.small == Int16.min && second.medium == Int32.max)
        #expect(second.ratio == 0 && second.weight == -3.4e38 && !second.flag)
        #expect(second.when == Date(timeIntervalSince1970: 0) && second.bytes.isEmpty && second.link.absoluteString == "file:///tmp/x%20y")
        #expect(second.words.isEmpty && second.scores.isEmpty && second.note == nil && second.maybeCount == nil)
        #expect(second.maybeWhen == nil && second.maybeToken == nil && second.image == Data(repeating: 0xCD, count: 300_000))
        #expect(third.count == Int.min && third.ratio == 1e308 && third.price == Decimal(string: "123456.789") && third.image == nil)
    }

    @Test func aDryRunSaysWhatWouldComeFromWhereAndWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSpecimens()
        let before = try files()
        let plan = try AppleStoreImport(storeAt: appleStore, schema: Schema([Specimen.self])).plan()
        #expect(plan.canImport)
        #expect(plan.entities.map(\.rows) == [3])
        #expect(plan.entities[0].copied.contains("price ← ZPRICE, Decimal → Decimal"))
        #expect(plan.entities[0].copied.contains("words ← ZWORDS, Transformable → Array<String>"))
        #expect(plan.description.contains("The import can run"))
        #expect(plan.historyLeftBehind == nil)
        #expect(try files() == before)
    }

    // MARK: Relationships

    static let travel = AppleLayoutBuilder(entities: [
        .init(name: "Journey", attributes: [.init(name: "name", type: 700, sqlType: "VARCHAR")], relationships: [
            .init(name: "waypoints", destination: "Waypoint", inverse: "journey", isToMany: true),
            .init(name: "labels", destination: "Label", inverse: "journeys", isToMany: true),
            .init(name: "guide", destination: "Guide", inverse: "journey", isToMany: false),
        ]),
        .init(name: "Waypoint", attributes: [.init(name: "place", type: 700, sqlType: "VARCHAR")], relationships: [
            .init(name: "journey", destination: "Journey", inverse: "waypoints", isToMany: false),
        ]),
        .init(name: "Label", attributes: [.init(name: "name", type: 700, sqlType: "VARCHAR")], relationships: [
            .init(name: "journeys", destination: "Journey", inverse: "labels", isToMany: true),
        ]),
        .init(name: "Guide", attributes: [.init(name: "name", type: 700, sqlType: "VARCHAR")], relationships: [
            .init(name: "journey", destination: "Journey", inverse: "guide", isToMany: false),
        ]),
    ], joinTables: [(name: "Z_1LABELS", columns: ["Z_1JOURNEYS", "Z_3LABELS"])])

    /// Two journeys (keys 3 and 8: keys need not start at 1 nor follow each other), their
    /// waypoints, labels shared between them and a guide for one.
    private func writeTravel(_ extra: (Database) throws -> Void = { _ in }) throws {
        try Self.travel.write(at: appleStore) { db in
            try db.execute(sql: """
                INSERT INTO ZJOURNEY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZGUIDE) VALUES (3, 1, 4, 'Alps', 1), (8, 1, 1, 'Coast', NULL);
                INSERT INTO ZWAYPOINT (Z_PK, Z_ENT, Z_OPT, ZPLACE, ZJOURNEY) VALUES (1, 2, 1, 'Chamonix', 3), (2, 2, 1, 'Zermatt', 3), (4, 2, 1, 'Nice', 8), (5, 2, 1, 'Lost', NULL);
                INSERT INTO ZLABEL (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 3, 1, 'hiking'), (2, 3, 1, 'sea'), (3, 3, 1, 'family');
                INSERT INTO Z_1LABELS (Z_1JOURNEYS, Z_3LABELS) VALUES (3, 1), (3, 3), (8, 2), (8, 3);
                INSERT INTO ZGUIDE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZJOURNEY) VALUES (1, 4, 1, 'Ana', 3);
                """)
            try extra(db)
        }
    }

    @Test func toOneToManyManyToManyAndOneToOneLinksComeOverAndTheStoreWorksAsAnyOther() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeTravel()
        let report = try AppleStoreImport(storeAt: appleStore, schema: Schema([Journey.self, Waypoint.self, Label.self, Guide.self]))
            .importStore(to: newStore)
        #expect(report.rows == ["Journey": 2, "Waypoint": 4, "Label": 3, "Guide": 1])
        // Each side of each link: waypoints 3 + journey 3, labels 4 + journeys 4, guide 1 + journey 1.
        #expect(report.linksCompared == 16)
        #expect(report.plan.entities.first { $0.name == "Journey" }?.filled == ["rating (not in the Apple store: its initial value)"])

        let container = try ModelContainer(for: Journey.self, Waypoint.self, Label.self, Guide.self, configurations: ModelConfiguration(url: newStore))
        let context = ModelContext(container)
        let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
        #expect(journeys.map(\.title) == ["Alps", "Coast"])
        #expect(journeys.map(\.rating) == [3, 3])
        #expect(Set(journeys[0].waypoints.map(\.place)) == ["Chamonix", "Zermatt"])
        #expect(journeys[1].waypoints.map(\.place) == ["Nice"])
        #expect(Set(journeys[0].labels.map(\.name)) == ["hiking", "family"])
        #expect(Set(journeys[1].labels.map(\.name)) == ["sea", "family"])
        #expect(journeys[0].guide?.name == "Ana" && journeys[1].guide == nil)
        let family = try context.fetch(FetchDescriptor<Label>(predicate: #Predicate { $0.name == "family" }))
        #expect(family.first?.journeys.count == 2)
        let lost = try context.fetch(FetchDescriptor<Waypoint>(predicate: #Predicate { $0.place == "Lost" }))
        #expect(lost.first?.journey == nil)

        // The new store is an OpenSwiftData store like any other: changes save and cascade.
        context.delete(journeys[0])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Waypoint>()) == 2)
        context.insert(Label(name: "winter"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Label>()) == 4)
    }

    @Test(arguments: [true, false]) func aSubclassRowsInItsRootsTableComeOverAsTheSubclass(withTheAppsModels: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias Animal = HierarchyImportModels.Animal
        typealias Dog = HierarchyImportModels.Dog
        typealias Keeper = HierarchyImportModels.Keeper
        try AppleLayoutBuilder(entities: [
            .init(name: "Animal", attributes: [.init(name: "name", type: 700, sqlType: "VARCHAR")], relationships: [
                .init(name: "keeper", destination: "Keeper", inverse: "animals", isToMany: false),
            ]),
            .init(name: "Dog", superentity: "Animal", attributes: [.init(name: "breed", type: 700, sqlType: "VARCHAR")]),
            .init(name: "Keeper", attributes: [.init(name: "name", type: 700, sqlType: "VARCHAR")], relationships: [
                .init(name: "animals", destination: "Animal", inverse: "keeper", isToMany: true),
            ]),
        ]).write(at: appleStore) { db in
            try db.execute(sql: """
                INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME, ZKEEPER, ZBREED) VALUES (1, 1, 1, 'Tom', 1, NULL), (2, 2, 1, 'Rex', 1, 'collie'), (3, 2, 1, 'Fido', NULL, 'pug');
                INSERT INTO ZKEEPER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 3, 1, 'Sam');
                """)
        }
        let importing = withTheAppsModels
            ? AppleStoreImport(storeAt: appleStore, schema: Schema([Animal.self, Dog.self, Keeper.self]))
            : AppleStoreImport(storeAt: appleStore)
        let report = try importing.importStore(to: newStore)
        #expect(report.rows == ["Animal": 1, "Dog": 2, "Keeper": 1])

        let container = try ModelContainer(for: Animal.self, Dog.self, Keeper.self, configurations: ModelConfiguration(url: newStore))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Animal>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Fido", "Rex", "Tom"])
        let dogs = try context.fetch(FetchDescriptor<Dog>(sortBy: [SortDescriptor(\.name)]))
        #expect(dogs.map(\.breed) == ["pug", "collie"])
        #expect(dogs.map { $0.keeper?.name } == [nil, "Sam"])
        let keeper = try context.fetch(FetchDescriptor<Keeper>()).first
        #expect(Set(keeper?.animals.map(\.name) ?? []) == ["Tom", "Rex"])
        #expect(keeper?.animals.contains { $0 is Dog } == true)
        // With the store's own model, the schema it records is the app's: nothing migrated.
        #expect(try StoreInspection(storeAt: newStore).history.isEmpty)
    }

    @Test func aStoreWithHistoryExternalDataAndSavesStillInItsLogComesOverWhole() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias Trip = TripImportModels.Trip
        try AppleLayoutStore.writeTripsWithSavesInTheLog(at: appleStore, trips: 3, extraTrips: 2)
        let before = try files()
        let importing = AppleStoreImport(storeAt: appleStore, schema: Schema([Trip.self, TripImportModels.Stop.self, TripImportModels.Tag.self]))
        let history = try importing.plan().historyLeftBehind
        #expect(history?.transactions == 3 && history?.changes == 9)
        let report = try importing.importStore(to: newStore)
        #expect(report.rows == ["Trip": 5, "Stop": 6, "Tag": 2])
        #expect(try files().filter { !$0.key.hasPrefix("App.store") } == before)

        let container = try ModelContainer(for: Trip.self, TripImportModels.Stop.self, TripImportModels.Tag.self, configurations: ModelConfiguration(url: newStore))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Trip 1", "Trip 2", "Trip 3", "Trip 4", "Trip 5"])
        // Trip 1's photo is in a file beside the store; the others' in their rows.
        #expect(trips[0].photo == Data(repeating: 0xAB, count: 2048))
        #expect(trips[1].photo == Data([0xFF, 0xD8]))
        #expect(trips[3].photo == nil && trips[3].start == nil)
        // The trips saved last have no budget nor identifier in the Apple store (NULL): each
        // gets its declaration's initial value, evaluated for it.
        #expect(trips[3].budget == 0 && trips[3].id != trips[4].id && trips[0].budget == 100.5)
        #expect(trips[0].stops.count == 2 && trips[0].tags.map(\.name) == ["work"])
        // The new store's history begins with the import's save.
        let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions.map(\.author) == ["OpenSwiftData.AppleStoreImport"])
    }

    @Test func dataKeptOutsideTheAppleStoreComesOverWhenTheModelsNoLongerSaySo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias Trip = PlainPhotoImportModels.Trip
        try AppleLayoutStore.writeTrips(at: appleStore, trips: 2)
        // Into a folder that does not exist yet, as Application Support on a first launch.
        let store = folder.appendingPathComponent("Application Support/Trips.store")
        try AppleStoreImport(storeAt: appleStore, schema: Schema([Trip.self]), dropping: ["Stop", "Tag"]).importStore(to: store)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path).filter { $0.contains("importing") }.isEmpty)
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store))
        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.photo) == [Data(repeating: 0xAB, count: 2048), Data([0xFF, 0xD8])])

        // Trips and tags both kept, their many-to-many on neither side: its links are named.
        let plan = try AppleStoreImport(storeAt: appleStore, schema: Schema([Trip.self, PlainPhotoImportModels.Tag.self]), dropping: ["Stop"]).plan()
        #expect(plan.refusals == [
            "Tag.trips: 2 links to Trip (join table Z_1TAGS) of a many-to-many relationship the models declare on neither side; declare it in the models, or accept dropping it (\"Tag.trips\")",
        ])
    }

    // MARK: With the model the Apple store keeps

    @Test func withTheStoresOwnModelTheNewStoreIsOneTheAppsMatchingModelsOpenAsItIs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias Trip = TripImportModels.Trip
        try AppleLayoutStore.writeTrips(at: appleStore, trips: 3)
        let before = try files()
        let importing = AppleStoreImport(storeAt: appleStore)
        let plan = try importing.plan()
        #expect(plan.canImport)
        #expect(plan.entities.first { $0.name == "Trip" }?.copied.contains(
            "photo ← ZPHOTO, Data → Optional<Data> (.externalStorage: its values are tagged as kept in the row or in a file)") == true)
        let report = try importing.importStore(to: newStore)
        #expect(report.rows == ["Trip": 3, "Stop": 6, "Tag": 2])
        // Each stop's trip, and the trips' tags.
        #expect(report.linksCompared == 6 + 3)
        #expect(try files().filter { !$0.key.hasPrefix("App.store") } == before)

        // The schema the store records is the one the app's models make: no migration runs.
        let schema = Schema([Trip.self, TripImportModels.Stop.self, TripImportModels.Tag.self])
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: newStore))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Trip 1", "Trip 2", "Trip 3"])
        #expect(trips[0].photo == Data(repeating: 0xAB, count: 2048) && trips[1].photo == Data([0xFF, 0xD8]))
        #expect(trips.map(\.budget) == [100.5, 201, 301.5])
        #expect(trips.map { $0.stops.count } == [2, 2, 2] && trips.map { $0.tags.map(\.name) } == [["work"], ["family"], ["work"]])
        #expect(try StoreInspection(storeAt: newStore).history.isEmpty)
        #expect(try StoreInspection.problems(inStoreAt: newStore).isEmpty)
    }

    @Test func withTheStoresOwnModelCodableValuesAreRefusedUnlessDroppedAndTheRestComesOver() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSpecimens()
        let refused = try AppleStoreImport(storeAt: appleStore).plan()
        #expect(refused.refusals.contains { $0.hasPrefix("Specimen.words: 3 values of Core Data's type Transformable, whose Swift type only the app's models know") })
        #expect(refused.refusals.count == 2)
        let report = try AppleStoreImport(storeAt: appleStore, dropping: ["Specimen.words", "Specimen.scores"]).importStore(to: newStore)
        #expect(report.rows == ["Specimen": 3])
        var exported: [String] = []
        try StoreExport.export(storeAt: newStore, entity: "Specimen", format: .json) { exported.append($0) }
        #expect(exported.count == 3)
        #expect(exported[0].contains("\"price\":\"10.11\"") && exported[0].contains("\"mood\":\"busy\"") && exported[0].contains("\"small\":7"))
    }

    // MARK: Refusals

    @Test func dataTheModelsDoNotDeclareIsRefusedUpFrontNamingItUnlessDroppingItIsAccepted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = Self.travel
        builder = AppleLayoutBuilder(entities: builder.entities.map { entity in
            guard entity.name == "Waypoint" else { return entity }
            var changed = entity
            changed.attributes.append(.init(name: "legacyCode", type: 700, sqlType: "VARCHAR", isOptional: true))
            return changed
        } + [.init(name: "Draft", attributes: [.init(name: "body", type: 700, sqlType: "VARCHAR")])], joinTables: builder.joinTables)
        try builder.write(at: appleStore) { db in
            try db.execute(sql: """
                INSERT INTO ZJOURNEY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Alps');
                INSERT INTO ZWAYPOINT (Z_PK, Z_ENT, Z_OPT, ZPLACE, ZJOURNEY, ZLEGACYCODE) VALUES (1, 2, 1, 'Chamonix', 1, 'X1'), (2, 2, 1, 'Zermatt', 1, NULL);
                INSERT INTO ZDRAFT (Z_PK, Z_ENT, Z_OPT, ZBODY) VALUES (1, 5, 1, 'unsent');
                """)
        }
        let before = try files()
        let schema = Schema([Journey.self, Waypoint.self, Label.self, Guide.self])
        let error = #expect(throws: SwiftDataError.self) {
            try AppleStoreImport(storeAt: appleStore, schema: schema).importStore(to: newStore)
        }
        let explanation = error?.explanation ?? ""
        #expect(explanation.contains("Waypoint.legacyCode: 1 value (String, column ZLEGACYCODE) of an attribute the models do not declare"))
        #expect(explanation.contains("Draft: 1 row of an entity the models do not declare"))
        #expect(explanation.contains("accept dropping it (\"Waypoint.legacyCode\")"))
        #expect(explanation.contains("nothing was written"))
        #expect(try files() == before)

        let report = try AppleStoreImport(storeAt: appleStore, schema: schema, dropping: ["Waypoint.legacyCode", "Draft"]).importStore(to: newStore)
        #expect(report.rows["Waypoint"] == 2)
        #expect(report.plan.losses.map(\.isAccepted) == [true, true])
        #expect(report.description.contains("Left behind, as accepted:"))
    }

    @Test func aRequiredPropertyWithoutValuesAndAnUnknownRelationshipAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeTravel()
        let plan = try AppleStoreImport(storeAt: appleStore, schema: Schema([StrictImportModels.Waypoint.self]), dropping: ["Journey", "Label", "Guide"]).plan()
        #expect(!plan.canImport)
        #expect(plan.refusals.contains { $0.hasPrefix("Waypoint.altitude is required and the Apple store has no attribute altitude") })
        #expect(plan.refusals.contains { $0.hasPrefix("Waypoint.journey: 3 links to Journey of a relationship the models do not declare") })
        #expect(!FileManager.default.fileExists(atPath: newStore.path))
    }

    @Test func aTypeTheModelsDeclareOtherwiseAndACompositeAttributeAreRefusedNamingThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var entity = Self.specimenEntity
        entity.attributes = entity.attributes.map {
            switch $0.name {
            case "mood": .init(name: "mood", type: 300, sqlType: "INTEGER")
            case "note": .init(name: "note", type: 300, sqlType: "INTEGER", isOptional: true)
            default: $0
            }
        }
        entity.attributes.append(.init(name: "address", type: 2100, sqlType: "BLOB", isOptional: true))
        try AppleLayoutBuilder(entities: [entity]).write(at: appleStore) { db in
            try db.execute(sql: "INSERT INTO ZSPECIMEN (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZADDRESS) VALUES (1, 1, 1, 'x', x'00')")
        }
        let plan = try AppleStoreImport(storeAt: appleStore, schema: Schema([Specimen.self])).plan()
        #expect(plan.refusals.contains("Specimen.mood: the Apple store keeps it as Int64 and the models declare Mood; the import converts only where no value can change: declare it as the Apple version did"))
        #expect(plan.refusals.contains { $0.hasPrefix("Specimen.note: the Apple store keeps it as Int64") && $0.hasSuffix("or accept dropping its values (\"Specimen.note\")") })
        #expect(plan.refusals.contains { $0.hasPrefix("Specimen.address: 1 value (Composite, column ZADDRESS) of an attribute the models do not declare") })
    }

    @Test func valuesTheModelsRequireButTheAppleStoreLacksAndRepeatedUniqueValuesAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeTravel { db in
            try db.execute(sql: "INSERT INTO ZLABEL (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (7, 3, 1, 'sea'), (9, 3, 1, NULL)")
        }
        let plan = try AppleStoreImport(storeAt: appleStore, schema: Schema([Journey.self, Waypoint.self, Label.self, Guide.self])).plan()
        #expect(plan.refusals.contains { $0.hasPrefix("Label.name is required and 1 row of Label in the Apple store have no value for it (ZNAME is NULL)") })
        #expect(plan.refusals.contains { $0.hasPrefix("Label: 2 rows of the Apple store hold \"sea\" for name, which the models declare unique") })
    }

    @Test func aValueThatDoesNotFitALinkToARowThatIsNotThereAndAStoreInTheWayStopTheImportLeavingNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSpecimens { db in
            try db.execute(sql: "UPDATE ZSPECIMEN SET ZSMALL = 40000 WHERE Z_PK = 5")
        }
        let before = try files()
        let tooLarge = #expect(throws: SwiftDataError.self) {
            try AppleStoreImport(storeAt: appleStore, schema: Schema([Specimen.self])).importStore(to: newStore)
        }
        #expect(tooLarge?.explanation?.contains("Specimen.small of the Apple store's row 5 (column ZSMALL of ZSPECIMEN): 40000 does not fit in Int16; nothing was written") == true)
        #expect(try files() == before)

        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeTravel { db in try db.execute(sql: "UPDATE ZWAYPOINT SET ZJOURNEY = 99 WHERE Z_PK = 4") }
        let dangling = #expect(throws: SwiftDataError.self) {
            try AppleStoreImport(storeAt: appleStore, schema: Schema([Journey.self, Waypoint.self, Label.self, Guide.self])).importStore(to: newStore)
        }
        #expect(dangling?.explanation?.contains("names row 99 of ZJOURNEY, which the Apple store does not have") == true)
        #expect(try files().keys.sorted() == ["default.store", "default.store-shm", "default.store-wal"].filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) })

        try Data("mine".utf8).write(to: newStore)
        let inTheWay = #expect(throws: SwiftDataError.self) {
            try AppleStoreImport(storeAt: appleStore, schema: Schema([Journey.self, Waypoint.self, Label.self, Guide.self])).importStore(to: newStore)
        }
        #expect(inTheWay?.explanation?.contains("there is already a file at \(newStore.path)") == true)
        #expect(try Data(contentsOf: newStore) == Data("mine".utf8))
    }

    @Test func aDamagedOrTruncatedAppleStoreIsRefusedSayingWhy() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeTravel()
        // Folded into one file, as a copy taken with the app closed would be.
        let queue = try DatabaseQueue(path: appleStore.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        let whole = try Data(contentsOf: appleStore)
        let schema = Schema([Journey.self, Waypoint.self, Label.self, Guide.self])

        try whole.prefix(whole.count / 2).write(to: appleStore)
        let truncated = #expect(throws: SwiftDataError.self) { try AppleStoreImport(storeAt: appleStore, schema: schema).importStore(to: newStore) }
        #expect(truncated?.explanation?.contains(appleStore.lastPathComponent) == true, "\(String(describing: truncated?.explanation))")
        #expect(!FileManager.default.fileExists(atPath: newStore.path))

        try Data(repeating: 0x5A, count: whole.count).write(to: appleStore)
        let garbage = #expect(throws: SwiftDataError.self) { try AppleStoreImport(storeAt: appleStore, schema: schema).plan() }
        #expect(garbage?.explanation?.contains(appleStore.lastPathComponent) == true, "\(String(describing: garbage?.explanation))")
        #expect(!FileManager.default.fileExists(atPath: newStore.path))
    }
}
