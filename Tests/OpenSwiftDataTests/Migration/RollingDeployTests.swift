import Foundation
import Testing
@testable import OpenSwiftData

enum ParcelsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self] }

    @Model final class Parcel {
        var label: String
        var grams: Int
        var note: String?
        init(label: String, grams: Int) {
            self.label = label
            self.grams = grams
        }
    }
}

/// Expand: an optional and a defaulted attribute, an index, a new entity.
enum ParcelsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self, Depot.self] }

    @Model final class Parcel {
        #Index<Parcel>([\.label])
        var label: String
        var grams: Int
        var note: String?
        var tracking: String?
        var priority: Int = 0
        init(label: String, grams: Int) {
            self.label = label
            self.grams = grams
        }
    }

    @Model final class Depot {
        var city: String
        init(city: String) { self.city = city }
    }
}

/// Contract: a rename, a drop, a unique constraint.
enum ParcelsV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self, ParcelsV2.Depot.self] }

    @Model final class Parcel {
        #Index<Parcel>([\.label])
        @Attribute(.unique) var label: String
        @Attribute(originalName: "grams") var weightInGrams: Int
        var tracking: String?
        var priority: Int = 0
        init(label: String, weightInGrams: Int) {
            self.label = label
            self.weightInGrams = weightInGrams
        }
    }
}

/// Expand in structure, but a custom stage rewrites rows.
enum ParcelsV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [Parcel.self, ParcelsV2.Depot.self] }

    @Model final class Parcel {
        #Index<Parcel>([\.label])
        @Attribute(.unique) var label: String
        var weightInGrams: Int
        var tracking: String?
        var priority: Int = 0
        var kilograms: Double?
        init(label: String, weightInGrams: Int) {
            self.label = label
            self.weightInGrams = weightInGrams
        }
    }
}

enum ParcelsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ParcelsV1.self, ParcelsV2.self, ParcelsV3.self, ParcelsV4.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: ParcelsV1.self, toVersion: ParcelsV2.self),
            .lightweight(fromVersion: ParcelsV2.self, toVersion: ParcelsV3.self),
            .custom(fromVersion: ParcelsV3.self, toVersion: ParcelsV4.self, willMigrate: nil) { context in
                for parcel in try context.fetch(FetchDescriptor<ParcelsV4.Parcel>()) {
                    parcel.kilograms = Double(parcel.weightInGrams) / 1000
                }
                try context.save()
            },
        ]
    }
}

/// Which steps of a plan servers of the previous version survive during a rolling deploy.
@Suite struct RollingDeployTests {
    @Test func eachStepSaysWhetherThePreviousVersionKeepsWorking() throws {
        let steps = try MigrationTester(for: ParcelsPlan.self).rollingDeploySteps()
        #expect(steps.map(\.to) == ["ParcelsV2 (2.0.0)", "ParcelsV3 (3.0.0)", "ParcelsV4 (4.0.0)"])
        #expect(steps.map(\.isExpandStep) == [true, false, false])

        let contract = steps[1].breaksPreviousVersion
        #expect(contract.count == 3, "\(contract)")
        #expect(contract.contains { $0.hasPrefix("Parcel.grams renamed to weightInGrams: old instances still read and write grams") })
        #expect(contract.contains { $0.hasPrefix("Parcel.note removed: old instances still read and write it") })
        #expect(contract.contains { $0.hasPrefix("Parcel unique on label added") && $0.contains("upserting") })
        #expect(steps[2].breaksPreviousVersion.count == 1)
        #expect(steps[2].breaksPreviousVersion[0].contains("custom stage to ParcelsV4 (4.0.0) rewrites the stored rows once"))
        #expect(steps[0].description == "ParcelsV1 (1.0.0) → ParcelsV2 (2.0.0): expand step, servers running ParcelsV1 (1.0.0) keep working")
    }

    @Test func aRequiredAttributeWithoutDefaultOrAnOptionalityChangeBreaksThePreviousVersion() {
        let breaks = SchemaComparison(from: Schema([ParcelsV1.Parcel.self]), to: Schema([ParcelsStrict.Parcel.self])).breaksPreviousVersion
        #expect(breaks.count == 2, "\(breaks)")
        #expect(breaks.contains { $0.hasPrefix("Parcel.barcode is added as non-optional without a default: old instances insert rows without it") })
        #expect(breaks.contains { $0.hasPrefix("Parcel.note becomes non-optional: old instances may still store nil in it") })
        // The other way: dropped attributes and a note that may now be nil.
        #expect(SchemaComparison(from: Schema([ParcelsStrict.Parcel.self]), to: Schema([ParcelsV1.Parcel.self])).breaksPreviousVersion.count == 2)
    }
}

/// A version whose changes break the previous one without being contract-shaped drops.
enum ParcelsStrict {
    @Model final class Parcel {
        var label: String
        var grams: Int
        var note: String
        var barcode: String
        init(label: String, grams: Int, note: String, barcode: String) {
            self.label = label
            self.grams = grams
            self.note = note
            self.barcode = barcode
        }
    }
}
