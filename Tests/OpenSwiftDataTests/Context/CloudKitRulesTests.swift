import Foundation
import Testing
@testable import OpenSwiftData

enum CloudNotes {
    @Model final class Note {
        var title: String
        @Attribute(.unique) var slug: String = ""
        var body: String = ""
        var pinned: Bool?
        var folder: Folder
        init(title: String, folder: Folder) {
            self.title = title
            self.folder = folder
        }
    }

    @Model final class Folder {
        var name: String = ""
        @Relationship(deleteRule: .deny, inverse: \Note.folder) var notes: [Note] = []
        init() {}
    }

    /// The same models as CloudKit wants them.
    @Model final class SyncedNote {
        var title: String = ""
        var pinned: Bool?
        var folder: SyncedFolder?
        init() {}
    }

    @Model final class SyncedFolder {
        var name: String = ""
        @Relationship(deleteRule: .cascade, inverse: \SyncedNote.folder) var notes: [SyncedNote]? = []
        init() {}
    }
}

/// A configuration naming a CloudKit container checks the models against CloudKit's rules when
/// the container is created, before any file is made; `.automatic` checks nothing.
@Suite struct CloudKitRulesTests {
    @Test func aPrivateDatabaseRefusesModelsCloudKitCannotSyncNamingEachProblem() throws {
        let url = temporaryStoreURL()
        let configuration = ModelConfiguration(url: url, cloudKitDatabase: .private("iCloud.com.example.notes"))
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: CloudNotes.Note.self, CloudNotes.Folder.self, configurations: configuration)
        }
        let text = error.description
        #expect(text.contains("syncs with the CloudKit container iCloud.com.example.notes"))
        #expect(text.contains("Note.title is neither optional nor given a default value"))
        #expect(text.contains("Note has a uniqueness constraint on slug"))
        #expect(text.contains("Note.folder is not optional; declare it optional (Folder?)"))
        #expect(text.contains("Folder.notes is not optional; declare it optional ([Note]?)"))
        #expect(text.contains("Folder.notes has the .deny delete rule"))
        #expect(!text.contains("Note.body") && !text.contains("Note.pinned"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func modelsCloudKitCanSyncOpen() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(
            for: CloudNotes.SyncedNote.self, CloudNotes.SyncedFolder.self,
            configurations: ModelConfiguration(url: url, cloudKitDatabase: .private("iCloud.com.example.notes"))))
        context.insert(CloudNotes.SyncedNote())
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<CloudNotes.SyncedNote>()) == 1)
    }

    @Test func automaticChecksNothing() throws {
        // Off Apple platforms `.automatic` (the default) cannot know the app's entitlements.
        _ = try ModelContainer(
            for: CloudNotes.Note.self, CloudNotes.Folder.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true, cloudKitDatabase: .automatic))
    }
}

enum CloudNotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [CloudNotes.SyncedNote.self, CloudNotes.SyncedFolder.self] }
}

enum CloudNotesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [CloudNotes.Note.self, CloudNotes.Folder.self] }
}

enum CloudNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CloudNotesV1.self, CloudNotesV2.self] }
    static var stages: [MigrationStage] { [] }
}

extension CloudKitRulesTests {
    @Test func theMigrationTesterChecksEveryVersionForCloudKit() throws {
        let error = try #require(throws: MigrationVerificationError.self) {
            try MigrationTester(for: CloudNotesPlan.self, cloudKitDatabase: .private("iCloud.com.example.notes")).verifyEveryPath(sampleRowsPerEntity: 2)
        }
        let cloudKit = error.problems.filter { $0.message.hasPrefix("cannot sync with the CloudKit container iCloud.com.example.notes") }
        #expect(cloudKit.count == 5)
        #expect(cloudKit.allSatisfy { $0.version == "CloudNotesV2 (2.0.0)" })
        #expect(cloudKit.contains { $0.message.contains("Note.title is neither optional nor given a default value") })
    }

    @Test func verifyingSnapshotsChecksEveryVersionForCloudKit() throws {
        let folder = temporaryStoreURL().deletingLastPathComponent().appendingPathComponent("snapshots")
        let error = try #require(throws: MigrationVerificationError.self) {
            try CloudNotesPlan.verify(snapshotsIn: folder, cloudKitDatabase: .private("iCloud.com.example.notes"))
        }
        #expect(error.problems.count == 5)
        #expect(error.problems.allSatisfy { $0.version == "CloudNotesV2 (2.0.0)" })
        #expect(error.problems.contains { $0.message.contains("Note.title is neither optional nor given a default value") })
        // Nothing is recorded while a problem stands; without CloudKit the plan passes and is.
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(try CloudNotesPlan.verify(snapshotsIn: folder).count == 2)
    }
}
