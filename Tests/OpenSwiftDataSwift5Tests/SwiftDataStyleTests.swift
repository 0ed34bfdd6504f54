import Foundation
import OpenSwiftData
import Testing

// Model and container code as SwiftData apps write it, compiled in Swift 5 language mode.

@Model
final class Trip {
    @Attribute(.unique) var name: String
    var destination: String
    var startDate: Date
    var endDate: Date
    var tripViews: Int = 0
    @Transient var isSelected = false

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

@Test func swiftDataStyleCodeCompilesAndRunsInSwift5Mode() throws {
    let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    context.insert(Trip(name: "Paris", destination: "France"))
    context.insert(Trip(name: "Kyoto", destination: "Japan"))
    try context.save()
    let trips = try context.fetch(FetchDescriptor<Trip>(
        predicate: #Predicate { $0.destination == "Japan" },
        sortBy: [SortDescriptor(\.name)]))
    #expect(trips.map(\.name) == ["Kyoto"])
}

// A migration plan as the seeds write it in Swift 5 mode: `static var` identifiers, stages kept
// in `static let` properties.

enum ItemSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self] }
    @Model final class Item {
        var timestamp: Date = Date.now
        init(timestamp: Date) { self.timestamp = timestamp }
    }
}

enum ItemSchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self] }
    @Model final class Item {
        var timestamp: Date = Date.now
        var label: String
        init(timestamp: Date, label: String) {
            self.timestamp = timestamp
            self.label = label
        }
    }
}

enum ItemsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ItemSchemaV1.self, ItemSchemaV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }
    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: ItemSchemaV1.self, toVersion: ItemSchemaV2.self,
        willMigrate: { context in try context.save() },
        didMigrate: { context in
            for item in try context.fetch(FetchDescriptor<ItemSchemaV2.Item>()) { item.label = "migrated" }
            try context.save()
        })
}

@Test func aSwift5ModePlanMigratesAStore() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OpenSwiftDataSwift5-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("items.store")
    do {
        let context = ModelContext(try ModelContainer(for: ItemSchemaV1.Item.self, configurations: ModelConfiguration(url: url)))
        context.insert(ItemSchemaV1.Item(timestamp: .distantPast))
        try context.save()
    }
    let container = try ModelContainer(for: ItemSchemaV2.Item.self, migrationPlan: ItemsMigrationPlan.self, configurations: ModelConfiguration(url: url))
    let items = try ModelContext(container).fetch(FetchDescriptor<ItemSchemaV2.Item>())
    #expect(items.map(\.label) == ["migrated"])
    #expect(items.map(\.timestamp) == [.distantPast])
}
