import Foundation
import Testing
@testable import OpenSwiftData

// Seed 002's ending: an app adopts inheritance by bumping to a new version with a lightweight
// stage from the previous flat version.

enum ToursV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Tour.self, Guide.self] }

    @Model final class Tour {
        var name: String
        var city: String
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    /// Flat, and moved under Tour's hierarchy in version 3 (refused: its rows are elsewhere).
    @Model final class Guide {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum ToursV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tour.self, GuidedTour.self, AudioTour.self, ToursV1.Guide.self] }

    @Model class Tour {
        var name: String
        var city: String
        var rating: Int = 0
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    @Model class GuidedTour: Tour {
        var guideName: String
        var groupSize: Int = 10
        init(name: String, city: String, guideName: String) {
            self.guideName = guideName
            super.init(name: name, city: city)
        }
    }

    @Model class AudioTour: Tour {
        var language: String?
        init(name: String, city: String, language: String) {
            self.language = language
            super.init(name: name, city: city)
        }
    }
}

enum ToursV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [ToursV2.Tour.self, Guide.self] }

    @Model class Guide: ToursV2.Tour {
        var license: String?
        init(name: String) {
            super.init(name: name, city: "")
        }
    }
}

enum ToursPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ToursV1.self, ToursV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ToursV1.self, toVersion: ToursV2.self)] }
}

enum ToursPlanWithGuides: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ToursV1.self, ToursV2.self, ToursV3.self] }
    static var stages: [MigrationStage] { [] }
}

@Suite struct HierarchyMigrationTests {
    func writeVersion1(_ url: URL) throws {
        try writeStore(url, for: Schema(versionedSchema: ToursV1.self)) { context in
            context.insert(ToursV1.Tour(name: "Old town", city: "Prague"))
            context.insert(ToursV1.Tour(name: "Canals", city: "Amsterdam"))
            context.insert(ToursV1.Guide(name: "Jana"))
        }
    }

    @Test func aFlatVersionGainsSubclassesInALightweightStepAndItsRowsStayParents() throws {
        let url = temporaryStoreURL("tours")
        try writeVersion1(url)
        do {
            let container = try ModelContainer(
                for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlan.self, configurations: ModelConfiguration(url: url))
            let step = try #require(container.migrationReports.first?.steps.first)
            #expect(step.kind == .lightweight)
            let context = ModelContext(container)
            let tours = try context.fetch(FetchDescriptor<ToursV2.Tour>(sortBy: [SortDescriptor(\.name)]))
            #expect(tours.map(\.name) == ["Canals", "Old town"])
            #expect(tours.allSatisfy { type(of: $0) == ToursV2.Tour.self })
            #expect(tours.map(\.rating) == [0, 0])
            context.insert(ToursV2.GuidedTour(name: "Castle", city: "Prague", guideName: "Petr"))
            context.insert(ToursV2.AudioTour(name: "Museum", city: "Amsterdam", language: "nl"))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlan.self, configurations: ModelConfiguration(url: url)))
        let prague = try context.fetch(FetchDescriptor<ToursV2.Tour>(predicate: #Predicate { $0.city == "Prague" }, sortBy: [SortDescriptor(\.name)]))
        #expect(prague.map(\.name) == ["Castle", "Old town"])
        #expect((prague[0] as? ToursV2.GuidedTour)?.guideName == "Petr")
        #expect((prague[0] as? ToursV2.GuidedTour)?.groupSize == 10)
        #expect(try context.fetch(FetchDescriptor<ToursV2.AudioTour>()).map(\.language) == ["nl"])
        #expect(try context.fetch(FetchDescriptor<ToursV1.Guide>()).map(\.name) == ["Jana"])
    }

    /// Version 3 moves the flat Guide, with its rows, under Tour, whose required `city` they
    /// have no value for: refused before anything is written, with the way through.
    @Test func movingRowsWithoutAValueTheParentRequiresIsRefusedAndTouchesNothing() throws {
        let url = temporaryStoreURL("tours")
        try writeVersion1(url)
        _ = try ModelContainer(
            for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlan.self, configurations: ModelConfiguration(url: url))
        let before = try storeFiles(url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema(versionedSchema: ToursV3.self), migrationPlan: ToursPlanWithGuides.self, configurations: ModelConfiguration(url: url))
        }
        #expect("\(error!)".contains("Tour.city is required (ToursV3 (3.0.0)) but the 1 stored row of Guide, which moves into Tour's hierarchy, holds no value for it"))
        #expect("\(error!)".contains("give it a default value"))
        #expect(try storeFiles(url) == before)
    }
}

/// The migration tester over a plan that adopts inheritance: sample stores of every version,
/// subclass rows included, migrated to the newest with every value kept.
@Suite struct HierarchyMigrationTesterTests {
    @Test func everyPathOfAPlanAdoptingInheritanceKeepsItsValues() throws {
        let checks = try MigrationTester(for: ToursPlan.self).verifyEveryPath(sampleRowsPerEntity: 6)
        #expect(!checks.isEmpty)
        let url = temporaryStoreURL("samples")
        try MigrationTester(for: ToursPlan.self).makeStore(at: ToursV2.self, url: url, sampleRowsPerEntity: 4)
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlan.self, configurations: ModelConfiguration(url: url)))
        let tours = try context.fetch(FetchDescriptor<ToursV2.Tour>())
        #expect(tours.count == 12)
        #expect(tours.filter { $0 is ToursV2.GuidedTour }.count == 4)
    }
}

/// `osd diff`'s comparison names what a version does to hierarchies.
@Suite struct HierarchyComparisonTests {
    @Test func theComparisonNamesSubentitiesAndMovesBetweenHierarchies() throws {
        let adopting = SchemaComparison(from: Schema(versionedSchema: ToursV1.self), to: Schema(versionedSchema: ToursV2.self))
        #expect(adopting.changes.contains("entity GuidedTour added (a subentity of Tour)"))
        #expect(adopting.isLightweight)
        let moving = SchemaComparison(from: Schema(versionedSchema: ToursV2.self), to: Schema(versionedSchema: ToursV3.self))
        #expect(moving.changes.contains("Guide becomes a subentity of Tour"))
    }
}

/// Version 4 moves `groupSize` up from GuidedTour to Tour, and `language` up from AudioTour:
/// their column in the hierarchy's table keeps its values.
enum ToursV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [Tour.self, GuidedTour.self, AudioTour.self, ToursV1.Guide.self] }

    @Model class Tour {
        var name: String
        var city: String
        var rating: Int = 0
        var groupSize: Int = 10
        var language: String?
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    @Model class GuidedTour: Tour {
        var guideName: String
        init(name: String, city: String, guideName: String) {
            self.guideName = guideName
            super.init(name: name, city: city)
        }
    }

    @Model class AudioTour: Tour {
        init(name: String, city: String, language: String) {
            super.init(name: name, city: city)
            self.language = language
        }
    }
}

/// Version 5 moves `rating`, required in Tour, down to GuidedTour: refused.
enum ToursV5: VersionedSchema {
    static let versionIdentifier = Schema.Version(5, 0, 0)
    static var models: [any PersistentModel.Type] { [Tour.self, GuidedTour.self, AudioTour.self, ToursV1.Guide.self] }

    @Model class Tour {
        var name: String
        var city: String
        var groupSize: Int = 10
        var language: String?
        init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    @Model class GuidedTour: Tour {
        var guideName: String
        var rating: Int = 0
        init(name: String, city: String, guideName: String) {
            self.guideName = guideName
            super.init(name: name, city: city)
        }
    }

    @Model class AudioTour: Tour {}
}

enum ToursPlanMovingProperties: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ToursV1.self, ToursV2.self, ToursV4.self, ToursV5.self] }
    static var stages: [MigrationStage] { [] }
}

@Suite struct HierarchyPropertyMoveTests {
    @Test func propertiesMovedUpKeepTheirValues() throws {
        let url = temporaryStoreURL("tours")
        try HierarchyMigrationTests().writeVersion1(url)
        do {
            let context = ModelContext(try ModelContainer(
                for: Schema(versionedSchema: ToursV2.self), migrationPlan: ToursPlanMovingProperties.self, configurations: ModelConfiguration(url: url)))
            let guided = ToursV2.GuidedTour(name: "Castle", city: "Prague", guideName: "Petr")
            guided.groupSize = 25
            context.insert(guided)
            context.insert(ToursV2.AudioTour(name: "Museum", city: "Amsterdam", language: "nl"))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: ToursV4.self), migrationPlan: ToursPlanMovingProperties.self, configurations: ModelConfiguration(url: url)))
        let tours = try context.fetch(FetchDescriptor<ToursV4.Tour>(sortBy: [SortDescriptor(\.name)]))
        #expect(tours.map(\.name) == ["Canals", "Castle", "Museum", "Old town"])
        #expect(tours.map(\.groupSize) == [10, 25, 10, 10])
        #expect(tours.map(\.language) == [nil, nil, "nl", nil])
        #expect((tours[1] as? ToursV4.GuidedTour)?.guideName == "Petr")
    }

    @Test func aRequiredPropertyOfTheRootMovedDownIsRefusedAndTouchesNothing() throws {
        let url = temporaryStoreURL("tours")
        try HierarchyMigrationTests().writeVersion1(url)
        _ = try ModelContainer(
            for: Schema(versionedSchema: ToursV4.self), migrationPlan: ToursPlanMovingProperties.self, configurations: ModelConfiguration(url: url))
        let before = try storeFiles(url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema(versionedSchema: ToursV5.self), migrationPlan: ToursPlanMovingProperties.self, configurations: ModelConfiguration(url: url))
        }
        #expect("\(error!)".contains("GuidedTour.rating moves down from Tour"))
        #expect(try storeFiles(url) == before)
    }
}
