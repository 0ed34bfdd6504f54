import Foundation
import Testing
@testable import OpenSwiftData

// Budgets: V2 adds a non-optional description that a custom stage fills from the name.

enum BudgetSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Budget.self] }
    @Model final class Budget {
        var name: String
        var limit: Double
        init(name: String, limit: Double) {
            self.name = name
            self.limit = limit
        }
    }
}

enum BudgetSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Budget.self] }
    @Model final class Budget {
        #Unique<Budget>([\.name])
        var name: String
        var limit: Double
        var desc: String
        init(name: String, limit: Double, desc: String) {
            self.name = name
            self.limit = limit
            self.desc = desc
        }
    }
}

enum BudgetMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(
            fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self,
            willMigrate: { context in
                // De-duplicate before the unique constraint arrives: keep the largest limit.
                var kept: [String: BudgetSchemaV1.Budget] = [:]
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV1.Budget>(sortBy: [SortDescriptor(\.limit, order: .reverse)])) {
                    if kept[budget.name] == nil { kept[budget.name] = budget } else { context.delete(budget) }
                }
                try context.save()
            },
            didMigrate: { context in
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV2.Budget>()) {
                    budget.desc = "Budget for \(budget.name)"
                }
                try context.save()
            })]
    }
}

/// The same plan without the de-duplicating willMigrate.
enum BudgetPlanWithoutDeduplication: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self, willMigrate: nil, didMigrate: { context in
            for budget in try context.fetch(FetchDescriptor<BudgetSchemaV2.Budget>()) { budget.desc = budget.name }
        })]
    }
}

struct StageFailure: Error, CustomStringConvertible {
    var description: String { "the stage gave up" }
}

enum FailingBudgetPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(
            fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self,
            willMigrate: { context in
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV1.Budget>()) { budget.limit = -1 }
                try context.save()
            },
            didMigrate: { _ in throw StageFailure() })]
    }
}

extension MigrationTests {
    @Test func budgetsAreDeduplicatedBeforeTheUniqueConstraintAndDescribedAfter() throws {
        let url = temporaryStoreURL()
        func seed() throws {
            try? FileManager.default.removeItem(at: url)
            let context = ModelContext(try ModelContainer(for: BudgetSchemaV1.Budget.self, configurations: ModelConfiguration(url: url)))
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 100))
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 300))
            context.insert(BudgetSchemaV1.Budget(name: "Rent", limit: 900))
            try context.save()
        }
        try seed()
        let refused = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetPlanWithoutDeduplication.self, configurations: ModelConfiguration(url: url))
        }
        #expect(refused.description.contains("unique constraint on name"))
        #expect(refused.description.contains("\"Food\""))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM Budget")[0] as Int == 3)

        let container = try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let budgets = try ModelContext(container).fetch(FetchDescriptor<BudgetSchemaV2.Budget>(sortBy: [SortDescriptor(\.name)]))
        #expect(budgets.map(\.name) == ["Food", "Rent"])
        #expect(budgets.map(\.limit) == [300, 900])
        #expect(budgets.map(\.desc) == ["Budget for Food", "Budget for Rent"])
    }

    @Test func aFailingStageRollsEverythingBack() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: BudgetSchemaV1.Budget.self) { context in
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 100))
        }
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: FailingBudgetPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("didMigrate"))
        #expect(error.description.contains("the stage gave up"))
        #expect(error.description.contains("rolled back"))
        let budgets = try ModelContext(try ModelContainer(for: BudgetSchemaV1.Budget.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<BudgetSchemaV1.Budget>())
        #expect(budgets.map(\.limit) == [100])
    }
}
