import Foundation
import OpenSwiftData

// A weight log whose version 2 gives a person a height and keeps version 1's weight entry
// through a typealias: the entry's `person` is still declared as version 1's `Person`, while the
// container's `Person` is version 2's. Version 2 also adds goals, which version 3 drops again.

enum WeightsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Person.self, Weight.self] }

    @Model final class Person {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Weight.person) var weights: [Weight] = []
        init(name: String) { self.name = name }
    }

    @Model final class Weight {
        var kilograms: Double
        var person: Person?
        init(kilograms: Double) { self.kilograms = kilograms }
    }
}

enum WeightsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Person.self, Weight.self, Goal.self] }

    typealias Weight = WeightsV1.Weight

    @Model final class Person {
        var name: String
        var heightInCentimeters: Int = 0
        @Relationship(deleteRule: .cascade, inverse: \Weight.person) var weights: [Weight] = []
        init(name: String) { self.name = name }
    }

    @Model final class Goal {
        var kilograms: Double
        init(kilograms: Double) { self.kilograms = kilograms }
    }
}

enum WeightsV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Person.self, Weight.self] }

    typealias Person = WeightsV2.Person
    typealias Weight = WeightsV1.Weight
}

enum WeightsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [WeightsV1.self, WeightsV2.self, WeightsV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: WeightsV1.self, toVersion: WeightsV2.self),
            .lightweight(fromVersion: WeightsV2.self, toVersion: WeightsV3.self),
        ]
    }
}
