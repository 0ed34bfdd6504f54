import Foundation
import OpenSwiftData

// A small ledger app's versions, and plans that break the rules the safety tools look for.

enum LedgerV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        var note: String?
        init(label: String, note: String? = nil) {
            self.label = label
            self.note = note
        }
    }
}

/// Version 1 as a careless edit left it after it shipped: an attribute added in place.
enum LedgerV1Edited: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        var note: String?
        var amount: Int = 0
        init(label: String) { self.label = label }
    }
}

/// Drops the note.
enum LedgerV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Declares the note again, and adds a flag.
enum LedgerV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        var note: String?
        var pinned: Bool = false
        init(label: String) { self.label = label }
    }
}

/// Adds an amount, which a custom stage fills.
enum LedgerV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        var note: String?
        var pinned: Bool = false
        var amount: Int = 0
        init(label: String) { self.label = label }
    }
}

/// The labels become unique.
enum LedgerV5: VersionedSchema {
    static let versionIdentifier = Schema.Version(5, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        @Attribute(.unique) var label: String
        var note: String?
        var pinned: Bool = false
        var amount: Int = 0
        init(label: String) { self.label = label }
    }
}

enum LedgerShippedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV4.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: LedgerV1.self, toVersion: LedgerV4.self)] }
}

/// The shipped plan with its version 1 edited in place.
enum LedgerEditedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1Edited.self, LedgerV4.self] }
    static var stages: [MigrationStage] { [] }
}

/// Version 2 drops the note and version 3 declares it again: stores of version 1 lose it.
enum LedgerDropAndBackPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self, LedgerV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: LedgerV1.self, toVersion: LedgerV2.self),
         .lightweight(fromVersion: LedgerV2.self, toVersion: LedgerV3.self)]
    }
}

/// As ``LedgerDropAndBackPlan``, with a custom stage (that copies nothing) where the note is
/// dropped: a custom stage's step loses the values all the same.
enum LedgerCustomDropPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self, LedgerV3.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self, willMigrate: nil, didMigrate: { context in
            for entry in try context.fetch(FetchDescriptor<LedgerV2.Entry>()) { entry.label = entry.label.uppercased() }
            try context.save()
        }),
         .lightweight(fromVersion: LedgerV2.self, toVersion: LedgerV3.self)]
    }
}

/// Five versions: the note dropped by version 2 and declared again by 3, a custom stage that
/// fills the amount and capitalizes labels, and unique labels at the end.
enum LedgerFullPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self, LedgerV3.self, LedgerV4.self, LedgerV5.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: LedgerV1.self, toVersion: LedgerV2.self),
         .lightweight(fromVersion: LedgerV2.self, toVersion: LedgerV3.self),
         .custom(fromVersion: LedgerV3.self, toVersion: LedgerV4.self, willMigrate: nil, didMigrate: { context in
             for entry in try context.fetch(FetchDescriptor<LedgerV4.Entry>()) {
                 entry.amount = entry.label.count
                 entry.label = entry.label.capitalized
             }
             try context.save()
         }),
         .lightweight(fromVersion: LedgerV4.self, toVersion: LedgerV5.self)]
    }
}

/// Version 1 to unique labels with no stage to remove duplicates.
enum LedgerUniqueWithoutDedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV4.self, LedgerV5.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: LedgerV4.self, toVersion: LedgerV5.self)] }
}

/// Every mistake of ordering at once: two versions with one structure (V3 and V3 again, under
/// another number), versions out of order, and a stage that skips a version.
enum LedgerDisorderedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV4.self, LedgerV2.self, LedgerV5.self, LedgerV4Twin.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: LedgerV1.self, toVersion: LedgerV5.self)] }
}

/// Version 4's structure again, under number 6.
enum LedgerV4Twin: VersionedSchema {
    static let versionIdentifier = Schema.Version(6, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var label: String
        var note: String?
        var pinned: Bool = false
        var amount: Int = 0
        init(label: String) { self.label = label }
    }
}

/// The plan after its version 1 was dropped on purpose (a minimum-version cut).
enum LedgerFromV4Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV4.self, LedgerV5.self] }
    static var stages: [MigrationStage] { [] }
}

/// A plan that lost its version 4 though it shipped.
enum LedgerLostV4Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV5.self] }
    static var stages: [MigrationStage] { [] }
}

/// Clears the ledger before its labels become unique: every entry deleted at once.
enum LedgerClearPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV4.self, LedgerV5.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: LedgerV4.self, toVersion: LedgerV5.self, willMigrate: { context in
            try context.delete(model: LedgerV4.Entry.self)
            try context.save()
        }, didMigrate: nil)]
    }
}
