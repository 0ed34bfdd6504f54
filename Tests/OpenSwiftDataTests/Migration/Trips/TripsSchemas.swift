import Foundation
import OpenSwiftData

// The Trips app of "Model your schema with SwiftData": V2 makes trip names unique (duplicates
// removed first), V3 renames the date attributes and cascades deletes to a trip's items.

enum TripsSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self, LivingAccommodation.self] }

    @Model final class Trip {
        var name: String
        var destination: String
        var start_date: Date
        var end_date: Date
        var bucketList: [BucketListItem]? = []
        var livingAccommodation: LivingAccommodation?
        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }

    @Model final class BucketListItem {
        var title: String
        var trip: Trip?
        init(title: String) { self.title = title }
    }

    @Model final class LivingAccommodation {
        var address: String
        var trip: Trip?
        init(address: String) { self.address = address }
    }
}

enum TripsSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self, LivingAccommodation.self] }

    @Model final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        var start_date: Date
        var end_date: Date
        var bucketList: [BucketListItem]? = []
        var livingAccommodation: LivingAccommodation?
        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }

    @Model final class BucketListItem {
        var title: String
        var trip: Trip?
        init(title: String) { self.title = title }
    }

    @Model final class LivingAccommodation {
        var address: String
        var trip: Trip?
        init(address: String) { self.address = address }
    }
}

enum TripsSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self, LivingAccommodation.self] }

    @Model final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        @Attribute(originalName: "start_date") var startDate: Date
        @Attribute(originalName: "end_date") var endDate: Date
        @Relationship(deleteRule: .cascade) var bucketList: [BucketListItem]? = []
        @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation?
        init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }

    @Model final class BucketListItem {
        var title: String
        var trip: Trip?
        init(title: String) { self.title = title }
    }

    @Model final class LivingAccommodation {
        var address: String
        var trip: Trip?
        init(address: String) { self.address = address }
    }
}

enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
        willMigrate: { context in
            var seen = Set<String>()
            for trip in try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>(sortBy: [SortDescriptor(\.start_date)])) {
                if !seen.insert(trip.name).inserted { context.delete(trip) }
            }
            try context.save()
        },
        didMigrate: nil)

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self)
}
