import Foundation
import OpenSwiftData

// The isFavorite trap: a version that only adds a property with a default has no new structure
// if it only bumps the version number.

enum NoteSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
}

enum NoteSchemaV1Again: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 1, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String = ""
        init(text: String) { self.text = text }
    }
}

enum DuplicatePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV1Again.self] }
    static var stages: [MigrationStage] { [] }
}

enum NoteSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        @Attribute(originalName: "text") var body: String
        var isFavorite: Bool = false
        var pinnedAt: Date?
        init(body: String) { self.body = body }
    }
}

/// V2 without `pinnedAt`: a lightweight migration that drops stored values.
enum NoteSchemaV2Trimmed: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var body: String
        var isFavorite: Bool = false
        init(body: String) { self.body = body }
    }
}

enum NoteSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var body: String
        var priority: Int
        init(body: String) {
            self.body = body
            priority = 0
        }
    }
}

enum NotePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [] }
}

enum UnorderedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV2.self, NoteSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

enum StageOutsidePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: NoteSchemaV2.self, toVersion: NoteSchemaV3.self)] }
}

enum BackwardStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: NoteSchemaV2.self, toVersion: NoteSchemaV1.self)] }
}

/// Version 1.0.0 as it shipped, then edited in place: a property with a default was added
/// without a new version.
enum EditedNoteSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        var color: String = "yellow"
        init(text: String) { self.text = text }
    }
}

enum EditedNotePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [EditedNoteSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}
