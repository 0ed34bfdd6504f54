import Foundation
import Testing
@testable import OpenSwiftData

// A parcel tracker whose version 2 adds attributes with no default and no empty value: an enum
// and a Codable struct. Each plan treats them as a SwiftData app would.

enum ParcelSize: String, Codable { case small, large }

struct ParcelDimensions: Codable, Hashable {
    var width: Int
    var height: Int
}

enum ParcelV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        init(label: String) { self.label = label }
    }
}

enum ParcelV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        var size: ParcelSize
        var dimensions: ParcelDimensions
        init(label: String, size: ParcelSize, dimensions: ParcelDimensions) {
            self.label = label
            self.size = size
            self.dimensions = dimensions
        }
    }
}

/// `didMigrate` gives every parcel its size and dimensions.
enum ParcelFillingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: ParcelV1.self, toVersion: ParcelV2.self, willMigrate: nil) { context in
            for parcel in try context.fetch(FetchDescriptor<ParcelV2.Parcel>()) {
                let large = parcel.label.hasPrefix("big")
                parcel.size = large ? .large : .small
                parcel.dimensions = ParcelDimensions(width: large ? 80 : 20, height: large ? 60 : 10)
            }
            try context.save()
        }]
    }
}

/// `didMigrate` forgets the parcels whose label starts with "lost".
enum ParcelForgetfulPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: ParcelV1.self, toVersion: ParcelV2.self, willMigrate: nil) { context in
            for parcel in try context.fetch(FetchDescriptor<ParcelV2.Parcel>()) where !parcel.label.hasPrefix("lost") {
                parcel.size = .small
                parcel.dimensions = ParcelDimensions(width: 1, height: 1)
            }
            try context.save()
        }]
    }
}

/// `willMigrate` deletes every parcel: a fresh start, as SwiftData apps do it.
enum ParcelWipingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: ParcelV1.self, toVersion: ParcelV2.self, willMigrate: { context in
            try context.delete(model: ParcelV1.Parcel.self)
            try context.save()
        }, didMigrate: nil)]
    }
}

/// No code to fill anything.
enum ParcelLightweightPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ParcelV1.self, ParcelV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ParcelV1.self, toVersion: ParcelV2.self)] }
}

/// A non-optional attribute added with no default is refused only when rows would be left
/// without a value after the stage's own code has run.
@Suite struct RequiredAttributeMigrationTests {
    private func writeParcels(_ url: URL, _ labels: [String]) throws {
        try writeStore(url, for: Schema(versionedSchema: ParcelV1.self)) { context in
            for label in labels { context.insert(ParcelV1.Parcel(label: label)) }
        }
    }

    private func open(_ url: URL, _ plan: any SchemaMigrationPlan.Type) throws -> ModelContext {
        ModelContext(try ModelContainer(
            for: Schema(versionedSchema: ParcelV2.self), migrationPlan: plan, configurations: ModelConfiguration(url: url)))
    }

    @Test func anEnumAndACodableValueFilledByDidMigrate() throws {
        let url = temporaryStoreURL()
        try writeParcels(url, ["big box", "letter"])
        _ = try open(url, ParcelFillingPlan.self)
        let parcels = try open(url, ParcelFillingPlan.self).fetch(FetchDescriptor<ParcelV2.Parcel>(sortBy: [SortDescriptor(\.label)]))
        #expect(parcels.map(\.size) == [.large, .small])
        #expect(parcels.map(\.dimensions) == [ParcelDimensions(width: 80, height: 60), ParcelDimensions(width: 20, height: 10)])
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM Parcel WHERE typeof(size) = 'blob' OR typeof(dimensions) = 'blob'")[0] as Int == 0)
    }

    @Test func rowsDidMigrateLeavesWithoutAValueAreRefusedAndNothingChanges() throws {
        let url = temporaryStoreURL()
        try writeParcels(url, ["lost sock", "letter", "lost key"])
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) { try open(url, ParcelForgetfulPlan.self) }
        #expect(error.description.contains("Parcel.size"))
        #expect(error.description.contains("left 2 stored rows of \(url.path) without a value"))
        #expect(try storeFiles(url) == before)
    }

    @Test func anEmptyTableNeedsNoValues() throws {
        let url = temporaryStoreURL()
        try writeParcels(url, [])
        let context = try open(url, ParcelLightweightPlan.self)
        context.insert(ParcelV2.Parcel(label: "new", size: .small, dimensions: ParcelDimensions(width: 1, height: 2)))
        try context.save()
        #expect(try open(url, ParcelLightweightPlan.self).fetch(FetchDescriptor<ParcelV2.Parcel>()).map(\.size) == [.small])
    }

    @Test func aTableWillMigrateEmptiedNeedsNoValues() throws {
        let url = temporaryStoreURL()
        try writeParcels(url, ["old", "older"])
        let context = try open(url, ParcelWipingPlan.self)
        #expect(try context.fetchCount(FetchDescriptor<ParcelV2.Parcel>()) == 0)
        #expect(try rawColumns(url, table: "Parcel") == ["_pk", "label", "size", "dimensions"])
    }

    @Test func rowsNothingFillsAreStillRefused() throws {
        let url = temporaryStoreURL()
        try writeParcels(url, ["letter"])
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) { try open(url, ParcelLightweightPlan.self) }
        #expect(error.description.contains("Parcel.size is added in ParcelV2 (2.0.0) as non-optional with no default value"))
        #expect(try storeFiles(url) == before)
    }
}
