import Foundation
import OpenSwiftData
import Testing

// A migration plan as a new Xcode project writes it: everything main-actor isolated, the stages
// in `static let`s whose closures call the plan's own helpers and carry what `willMigrate` read
// to `didMigrate` in a captured local.

enum ChecklistV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }

    @Model final class Chore {
        var title: String
        var done: Bool
        init(title: String, done: Bool) {
            self.title = title
            self.done = done
        }
    }
}

enum ChecklistV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }

    @Model final class Chore {
        var title: String
        var state: String = ""
        init(title: String) { self.title = title }
    }
}

/// What `willMigrate` reads, for `didMigrate`: a plain class, not `Sendable`.
final class FinishedTitles {
    var titles: Set<String> = []
}

enum ChecklistPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ChecklistV1.self, ChecklistV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static func label(done: Bool) -> String { done ? "finished" : "open" }

    static let migrateV1toV2: MigrationStage = {
        let finished = FinishedTitles()
        return MigrationStage.custom(
            fromVersion: ChecklistV1.self, toVersion: ChecklistV2.self,
            willMigrate: { context in
                finished.titles = Set(try context.fetch(FetchDescriptor<ChecklistV1.Chore>()).filter(\.done).map(\.title))
            },
            didMigrate: { context in
                for task in try context.fetch(FetchDescriptor<ChecklistV2.Chore>()) {
                    task.state = label(done: finished.titles.contains(task.title))
                }
                try context.save()
            })
    }()
}

@Suite struct MainActorMigrationPlanTests {
    @Test func aMainActorPlanCarriesDataFromWillMigrateToDidMigrate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OpenSwiftDataMainActorTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("list.store")
        do {
            let context = ModelContext(try ModelContainer(for: ChecklistV1.Chore.self, configurations: ModelConfiguration(url: url)))
            context.insert(ChecklistV1.Chore(title: "milk", done: true))
            context.insert(ChecklistV1.Chore(title: "eggs", done: false))
            try context.save()
        }
        let container = try ModelContainer(
            for: ChecklistV2.Chore.self, migrationPlan: ChecklistPlan.self, configurations: ModelConfiguration(url: url))
        let tasks = try ModelContext(container).fetch(FetchDescriptor<ChecklistV2.Chore>(sortBy: [SortDescriptor(\.title)]))
        #expect(tasks.map(\.state) == ["open", "finished"])
    }
}
