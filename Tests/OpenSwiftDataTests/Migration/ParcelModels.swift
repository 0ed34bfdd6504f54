import Foundation
import OpenSwiftData

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
