import Foundation
import OpenSwiftData

// A journal app that keeps notes in a synced store and drafts in a local one. Version 2 adds a
// note's pin; version 3 counts a draft's words, filled by a custom stage.

enum JournalV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        init(body: String) { self.body = body }
    }
}

enum JournalV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        var isPinned: Bool = false
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        init(body: String) { self.body = body }
    }
}

enum JournalV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Draft.self] }

    @Model final class Note {
        var text: String
        var isPinned: Bool = false
        init(text: String) { self.text = text }
    }

    @Model final class Draft {
        var body: String
        var words: Int = 0
        init(body: String) { self.body = body }
    }
}

enum JournalPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JournalV1.self, JournalV2.self, JournalV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: JournalV1.self, toVersion: JournalV2.self),
            .custom(fromVersion: JournalV2.self, toVersion: JournalV3.self, willMigrate: nil) { context in
                for draft in try context.fetch(FetchDescriptor<JournalV3.Draft>()) {
                    draft.words = draft.body.split(separator: " ").count
                }
                try context.save()
            },
        ]
    }
}
