import Foundation
import Testing
@testable import OpenSwiftData

// A parcel whose optional size becomes required in version 2, filled by a custom stage: an
// enum has no empty value, so rows the stage does not fill must not be left with none.

enum SizedParcelV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        var size: ParcelSize?
        init(label: String, size: ParcelSize?) {
            self.label = label
            self.size = size
        }
    }
}

enum SizedParcelV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        var size: ParcelSize
        init(label: String, size: ParcelSize) {
            self.label = label
            self.size = size
        }
    }
}

/// Sizes only the parcels whose label says "big".
enum SizedParcelPartialPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SizedParcelV1.self, SizedParcelV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: SizedParcelV1.self, toVersion: SizedParcelV2.self, willMigrate: nil) { context in
            for parcel in try context.fetch(FetchDescriptor<SizedParcelV2.Parcel>()) where parcel.label.hasPrefix("big") {
                parcel.size = .large
            }
            try context.save()
        }]
    }
}

/// Sizes every parcel that has none.
enum SizedParcelFillingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SizedParcelV1.self, SizedParcelV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: SizedParcelV1.self, toVersion: SizedParcelV2.self, willMigrate: nil) { context in
            for parcel in try context.fetch(FetchDescriptor<SizedParcelV2.Parcel>()) where parcel.label.hasPrefix("big") {
                parcel.size = .large
            }
            for parcel in try context.fetch(FetchDescriptor<SizedParcelV2.Parcel>()) where !parcel.label.hasPrefix("big") && parcel.label != "sized" {
                parcel.size = .small
            }
            try context.save()
        }]
    }
}

@Suite struct OptionalBecomesRequiredTests {
    private func writeParcels(_ url: URL) throws {
        try writeStore(url, for: Schema(versionedSchema: SizedParcelV1.self)) { context in
            context.insert(SizedParcelV1.Parcel(label: "sized", size: .small))
            context.insert(SizedParcelV1.Parcel(label: "big box", size: nil))
            context.insert(SizedParcelV1.Parcel(label: "letter", size: nil))
        }
    }

    @Test func rowsTheStageLeavesWithoutAValueAreRefusedInsteadOfTrappingOnRead() throws {
        let url = temporaryStoreURL()
        try writeParcels(url)
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema(versionedSchema: SizedParcelV2.self), migrationPlan: SizedParcelPartialPlan.self,
                configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Parcel.size is non-optional with no default value in SizedParcelV2 (2.0.0)"))
        #expect(error.description.contains("left 1 stored row of \(url.path) without a value"))
        #expect(try storeFiles(url) == before)
    }

    @Test func rowsTheStageFillsKeepTheirValuesAndTheStoredOnesStay() throws {
        let url = temporaryStoreURL()
        try writeParcels(url)
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: SizedParcelV2.self), migrationPlan: SizedParcelFillingPlan.self,
            configurations: ModelConfiguration(url: url)))
        let parcels = try context.fetch(FetchDescriptor<SizedParcelV2.Parcel>(sortBy: [SortDescriptor(\.label)]))
        #expect(parcels.map(\.label) == ["big box", "letter", "sized"])
        #expect(parcels.map(\.size) == [.large, .small, .small])
    }
}
