import Foundation
import Testing
@testable import OpenSwiftData

// A gadget shop whose version 3 changes an attribute's type, which no stage can carry over.
// Version 2's custom stage records that its code ran.

enum GadgetV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Gadget.self] }

    @Model final class Gadget {
        var name: String
        var weight: Int
        init(name: String, weight: Int) {
            self.name = name
            self.weight = weight
        }
    }
}

enum GadgetV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Gadget.self] }

    @Model final class Gadget {
        var name: String
        var weight: Int
        var color = ""
        init(name: String, weight: Int) {
            self.name = name
            self.weight = weight
        }
    }
}

enum GadgetV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Gadget.self] }

    @Model final class Gadget {
        var name: String
        var weight: String
        var color = ""
        init(name: String, weight: String) {
            self.name = name
            self.weight = weight
        }
    }
}

/// Whether version 2's stage code ran.
let gadgetStageRan = Recorder(false)

enum GadgetPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [GadgetV1.self, GadgetV2.self, GadgetV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: GadgetV1.self, toVersion: GadgetV2.self, willMigrate: { _ in gadgetStageRan.value = true }, didMigrate: nil),
            .lightweight(fromVersion: GadgetV2.self, toVersion: GadgetV3.self),
        ]
    }
}

/// A migration that a later step would refuse whatever the rows hold is refused before any code
/// of the plan runs, so the plan's code never acts (on files, defaults, a server) for a
/// migration that cannot happen.
@Suite(.serialized) struct RefusalBeforeCodeTests {
    @Test func aTypeChangeInALaterStepIsRefusedBeforeTheFirstStagesCodeRuns() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: GadgetV1.self)) { context in
            context.insert(GadgetV1.Gadget(name: "lamp", weight: 3))
        }
        let before = try storeFiles(url)
        gadgetStageRan.value = false
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: GadgetV3.Gadget.self, migrationPlan: GadgetPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Gadget.weight changes type from Int to String"))
        #expect(error.description.contains("GadgetV2 (2.0.0) to GadgetV3 (3.0.0)"))
        #expect(gadgetStageRan.value == false)
        #expect(try storeFiles(url) == before)
    }
}
