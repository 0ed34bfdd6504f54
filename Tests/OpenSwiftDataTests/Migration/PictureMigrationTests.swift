import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// A picture's bytes kept in the table, then outside it (`.externalStorage`), then renamed.
enum PictureSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        var bytes: Data
        var caption: Data?
        init(name: String, bytes: Data, caption: Data?) {
            self.name = name
            self.bytes = bytes
            self.caption = caption
        }
    }
}

enum PictureSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        @Attribute(.externalStorage) var caption: Data?
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

enum PictureSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        @Attribute(.externalStorage, originalName: "bytes") var image: Data
        var caption: Data?
        init(name: String, image: Data) {
            self.name = name
            self.image = image
        }
    }
}

enum PicturePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PictureSchemaV1.self, PictureSchemaV2.self, PictureSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: PictureSchemaV1.self, toVersion: PictureSchemaV2.self),
            .lightweight(fromVersion: PictureSchemaV2.self, toVersion: PictureSchemaV3.self),
        ]
    }
}

extension MigrationTests {
    @Test func externalStorageTurnedOnRenamedAndTurnedOffKeepsTheBytes() throws {
        let url = temporaryStoreURL()
        let bytes = Data((0..<300).map { UInt8($0 % 251) })
        try writeStore(url, for: PictureSchemaV1.Picture.self) { context in
            context.insert(PictureSchemaV1.Picture(name: "a", bytes: bytes, caption: Data("hi".utf8)))
            context.insert(PictureSchemaV1.Picture(name: "b", bytes: Data([1]), caption: nil))
        }
        do {
            // Only `.externalStorage` changes: a migration all the same, not a crash on first read.
            let container = try ModelContainer(
                for: Schema(versionedSchema: PictureSchemaV2.self), migrationPlan: PicturePlan.self, configurations: ModelConfiguration(url: url))
            let pictures = try ModelContext(container).fetch(FetchDescriptor<PictureSchemaV2.Picture>(sortBy: [SortDescriptor(\.name)]))
            #expect(pictures.map(\.bytes) == [bytes, Data([1])])
            #expect(pictures.map(\.caption) == [Data("hi".utf8), nil])
            #expect(try rawColumns(url, table: "Picture") == ["_pk", "name"])
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: PictureSchemaV3.self), migrationPlan: PicturePlan.self, configurations: ModelConfiguration(url: url))
        let pictures = try ModelContext(container).fetch(FetchDescriptor<PictureSchemaV3.Picture>(sortBy: [SortDescriptor(\.name)]))
        #expect(pictures.map(\.image) == [bytes, Data([1])])
        #expect(pictures.map(\.caption) == [Data("hi".utf8), nil])
        #expect(try rawColumns(url, table: "Picture") == ["_pk", "name", "caption"])
        let sideTables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_osd\\_external%' ESCAPE '\\' ORDER BY name")
        }
        #expect(sideTables == ["_osd_external_Picture_image"])
    }
}
