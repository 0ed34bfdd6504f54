import Foundation
import OpenSwiftData

// A habit tracker whose versions drop, rename and re-add entities, as shipped plans do.
// Version 1 keeps check-ins as `CheckInV1` and streaks in their own entity. Version 2 renames the
// check-in class to `CheckIn` without `originalName` (to the store, an entity dropped and a new
// one added), drops `Streak` and keeps each habit's best streak on the habit; a custom stage
// carries both over. Version 3 adds `Streak` back, as a new, empty entity.

enum HabitsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self, CheckInV1.self, Streak.self] }

    @Model final class Habit {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class CheckInV1 {
        var habitName: String
        var day: Int
        init(habitName: String, day: Int) {
            self.habitName = habitName
            self.day = day
        }
    }

    @Model final class Streak {
        var habitName: String
        var days: Int
        init(habitName: String, days: Int) {
            self.habitName = habitName
            self.days = days
        }
    }
}

enum HabitsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self, CheckIn.self] }

    @Model final class Habit {
        var name: String
        var bestStreak: Int = 0
        init(name: String) { self.name = name }
    }

    @Model final class CheckIn {
        var habitName: String
        var day: Int
        init(habitName: String, day: Int) {
            self.habitName = habitName
            self.day = day
        }
    }
}

enum HabitsV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self, CheckIn.self, Streak.self] }

    typealias Habit = HabitsV2.Habit
    typealias CheckIn = HabitsV2.CheckIn

    @Model final class Streak {
        var habitName: String
        var days: Int
        var isCurrent: Bool = false
        init(habitName: String, days: Int) {
            self.habitName = habitName
            self.days = days
        }
    }
}

enum HabitsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [HabitsV1.self, HabitsV2.self, HabitsV3.self] }

    /// What version 1's stage reads before the old entities go, for version 2's to write.
    nonisolated(unsafe) static var carried: (checkIns: [(String, Int)], best: [String: Int]) = ([], [:])

    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: HabitsV1.self, toVersion: HabitsV2.self, willMigrate: { context in
                carried.checkIns = try context.fetch(FetchDescriptor<HabitsV1.CheckInV1>(sortBy: [SortDescriptor(\.day)]))
                    .map { ($0.habitName, $0.day) }
                carried.best = [:]
                for streak in try context.fetch(FetchDescriptor<HabitsV1.Streak>()) {
                    carried.best[streak.habitName] = max(carried.best[streak.habitName] ?? 0, streak.days)
                }
            }, didMigrate: { context in
                for (habitName, day) in carried.checkIns {
                    context.insert(HabitsV2.CheckIn(habitName: habitName, day: day))
                }
                for habit in try context.fetch(FetchDescriptor<HabitsV2.Habit>()) {
                    habit.bestStreak = carried.best[habit.name] ?? 0
                }
                try context.save()
                carried = ([], [:])
            }),
            .lightweight(fromVersion: HabitsV2.self, toVersion: HabitsV3.self),
        ]
    }
}

// The smallest shape of the same change: version 2 no longer lists an entity, lightweight.

enum ShelfV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self, Loan.self] }

    @Model final class Book {
        var title: String
        init(title: String) { self.title = title }
    }

    @Model final class Loan {
        var borrower: String
        init(borrower: String) { self.borrower = borrower }
    }
}

enum ShelfV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self] }

    typealias Book = ShelfV1.Book
}

enum ShelfPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShelfV1.self, ShelfV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ShelfV1.self, toVersion: ShelfV2.self)] }
}
