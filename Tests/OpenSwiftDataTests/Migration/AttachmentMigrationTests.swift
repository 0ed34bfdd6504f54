import Foundation
import Testing
@testable import OpenSwiftData

// Attachments gain a size a transform reads off the old model's bytes, which are kept outside
// the table (`.externalStorage`).

enum AttachmentSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Attachment.self] }
    @Model final class Attachment {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

enum AttachmentSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Attachment.self] }
    @Model final class Attachment {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        var size: Int
        init(name: String, bytes: Data, size: Int) {
            self.name = name
            self.bytes = bytes
            self.size = size
        }
    }
}

enum AttachmentSizePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AttachmentSchemaV1.self, AttachmentSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: AttachmentSchemaV1.self, toVersion: AttachmentSchemaV2.self,
                    model: AttachmentSchemaV1.Attachment.self, to: AttachmentSchemaV2.Attachment.self) { old, new in
            new.size = old.bytes.count
        }]
    }
}

extension MigrationTests {
    /// A transform reads the old model's bytes kept outside the table (`.externalStorage`),
    /// though the new version only adds a column.
    @Test func aTransformReadsTheOldModelsExternalBytes() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: AttachmentSchemaV1.Attachment.self) { context in
            context.insert(AttachmentSchemaV1.Attachment(name: "a", bytes: Data(repeating: 7, count: 3)))
            context.insert(AttachmentSchemaV1.Attachment(name: "b", bytes: Data(repeating: 9, count: 5)))
        }
        let container = try ModelContainer(
            for: AttachmentSchemaV2.Attachment.self, migrationPlan: AttachmentSizePlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let attachments = try context.fetch(FetchDescriptor<AttachmentSchemaV2.Attachment>(sortBy: [SortDescriptor(\.name)]))
        #expect(attachments.map(\.size) == [3, 5])
        #expect(attachments.map(\.bytes) == [Data(repeating: 7, count: 3), Data(repeating: 9, count: 5)])
        // Side tables make the migration rebuild the table: the old models read the old rows.
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        #expect(sql.contains("_osd_new_Attachment"))
    }
}
