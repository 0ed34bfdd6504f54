import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

// A many-to-many relationship renamed with originalName keeps its pairs.

enum ClassSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Pupil.self, Lesson.self] }
    @Model final class Pupil {
        var name: String
        var lessons: [Lesson] = []
        init(name: String) { self.name = name }
    }
    @Model final class Lesson {
        var title: String
        @Relationship(inverse: \Pupil.lessons) var pupils: [Pupil] = []
        init(title: String) { self.title = title }
    }
}

enum ClassSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Pupil.self, Lesson.self] }
    @Model final class Pupil {
        var name: String
        @Relationship(originalName: "lessons") var classes: [Lesson] = []
        init(name: String) { self.name = name }
    }
    @Model final class Lesson {
        var title: String
        @Relationship(originalName: "pupils", inverse: \Pupil.classes) var attendees: [Pupil] = []
        init(title: String) { self.title = title }
    }
}

extension MigrationTests {
    @Test func renamedManyToManyRelationshipsKeepTheirPairs() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: ClassSchemaV1.self)) { context in
            let ann = ClassSchemaV1.Pupil(name: "Ann")
            let bob = ClassSchemaV1.Pupil(name: "Bob")
            let math = ClassSchemaV1.Lesson(title: "Math")
            ann.lessons = [math, ClassSchemaV1.Lesson(title: "Art")]
            bob.lessons = [math]
            context.insert(ann)
            context.insert(bob)
        }
        let container = try ModelContainer(for: Schema(versionedSchema: ClassSchemaV2.self), migrationPlan: ClassMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let pupils = try context.fetch(FetchDescriptor<ClassSchemaV2.Pupil>(sortBy: [SortDescriptor(\.name)]))
        #expect(Set(pupils[0].classes.map(\.title)) == ["Math", "Art"])
        #expect(pupils[1].classes.map(\.title) == ["Math"])
        let math = try #require(pupils[1].classes.first)
        #expect(Set(math.attendees.map(\.name)) == ["Ann", "Bob"])
        let joinTables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%join%'")
        }
        #expect(joinTables.count == 1)
    }
}

enum ClassMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ClassSchemaV1.self, ClassSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ClassSchemaV1.self, toVersion: ClassSchemaV2.self)] }
}
