import Foundation
import Testing
@testable import OpenSwiftData

/// A pet's `owner` that names an owner, then a vet.
enum PetSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Pet.self, PetOwner.self, Vet.self] }
    @Model final class Pet {
        var name: String
        @Relationship(inverse: nil) var owner: PetOwner?
        init(name: String, owner: PetOwner?) {
            self.name = name
            self.owner = owner
        }
    }

    @Model final class PetOwner {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Vet {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum PetSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Pet.self, PetOwner.self, Vet.self] }
    @Model final class Pet {
        var name: String
        @Relationship(inverse: nil) var owner: Vet?
        init(name: String) { self.name = name }
    }

    @Model final class PetOwner {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Vet {
        var name: String
        init(name: String) { self.name = name }
    }
}

extension MigrationTests {
    @Test func aRelationshipThatChangesDestinationIsRefused() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PetSchemaV1.self)) { context in
            context.insert(PetSchemaV1.Vet(name: "Dr Bob"))
            context.insert(PetSchemaV1.Pet(name: "Rex", owner: PetSchemaV1.PetOwner(name: "Ann")))
        }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PetSchemaV2.self), migrationPlan: PetMigrationPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error?.description.contains("Pet.owner changes destination from PetOwner to Vet") == true)
        #expect(try Data(contentsOf: url) == before)
    }
}

enum PetMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PetSchemaV1.self, PetSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: PetSchemaV1.self, toVersion: PetSchemaV2.self)] }
}
