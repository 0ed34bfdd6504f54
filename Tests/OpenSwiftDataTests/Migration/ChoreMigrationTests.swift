import Foundation
import Testing
@testable import OpenSwiftData

// Chores gain a label a transform writes from the old chore. Each version declares its own
// `Priority`: the old model must read the old version's type, though both versions store it
// in the same column and the new model reads that column too.

enum ChoreSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }
    enum Priority: String, Codable { case low, high }
    @Model final class Chore {
        var title: String
        var priority: Priority
        var due: Date
        var minutes: Int?
        init(title: String, priority: Priority, due: Date, minutes: Int?) {
            self.title = title
            self.priority = priority
            self.due = due
            self.minutes = minutes
        }
    }
}

enum ChoreSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }
    enum Priority: String, Codable { case low, high }
    @Model final class Chore {
        var title: String
        var priority: Priority
        var due: Date
        var minutes: Int?
        var label: String
        init(title: String, priority: Priority, due: Date, minutes: Int?, label: String) {
            self.title = title
            self.priority = priority
            self.due = due
            self.minutes = minutes
            self.label = label
        }
    }
}

/// Keeps the migration's context after the migration, as an app holding on to what its stage
/// was given would: models of the app's own container must stay observable all the same.
enum ChoreLabelPlan: SchemaMigrationPlan {
    static let keptContexts = Recorder<[ModelContext]>([])
    static var schemas: [any VersionedSchema.Type] { [ChoreSchemaV1.self, ChoreSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: ChoreSchemaV1.self, toVersion: ChoreSchemaV2.self,
                    model: ChoreSchemaV1.Chore.self, to: ChoreSchemaV2.Chore.self,
                    willMigrate: { keptContexts.value.append($0) }) { old, new in
            let priority: ChoreSchemaV1.Priority = old.priority
            let day = Int(old.due.timeIntervalSinceReferenceDate / 86_400)
            new.label = "\(priority.rawValue) \(old.title) day \(day) \(old.minutes.map { "\($0) min" } ?? "untimed")"
        }]
    }
}

extension MigrationTests {
    /// The old model reads its own version's types from the row the new model reads too, and
    /// models read after the migration are observed as ever (the migration's own models are
    /// not), though the migration's context is still alive.
    @Test func aTransformOverAddedColumnsReadsEachVersionsOwnTypes() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: ChoreSchemaV1.Chore.self) { context in
            context.insert(ChoreSchemaV1.Chore(title: "dishes", priority: .high, due: Date(timeIntervalSinceReferenceDate: 86_400 * 3), minutes: 15))
            context.insert(ChoreSchemaV1.Chore(title: "plants", priority: .low, due: Date(timeIntervalSinceReferenceDate: 86_400 * 5), minutes: nil))
        }
        let container = try ModelContainer(for: ChoreSchemaV2.Chore.self, migrationPlan: ChoreLabelPlan.self, configurations: ModelConfiguration(url: url))
        let chores = try ModelContext(container).fetch(FetchDescriptor<ChoreSchemaV2.Chore>(sortBy: [SortDescriptor(\.title)]))
        #expect(chores.map(\.label) == ["high dishes day 3 15 min", "low plants day 5 untimed"])
        #expect(chores.map(\.priority) == [.high, .low])
        #expect(chores.map(\.minutes) == [15, nil])

        #expect(ChoreLabelPlan.keptContexts.value.count == 1)
        let changes = Recorder<Int>(0)
        withObservationTracking { _ = chores[0].label } onChange: { changes.value += 1 }
        chores[0].label = "done"
        #expect(changes.value == 1)
        ChoreLabelPlan.keptContexts.value = []
    }
}
