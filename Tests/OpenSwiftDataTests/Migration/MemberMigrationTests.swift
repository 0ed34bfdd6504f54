import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// A member with a unique handle and an index on its name, before and after gaining a nickname.
enum MemberSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Member.self] }
    @Model final class Member {
        #Index<Member>([\.name])
        @Attribute(.unique) var handle: String
        var name: String
        init(handle: String, name: String) {
            self.handle = handle
            self.name = name
        }
    }
}

enum MemberSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Member.self] }
    @Model final class Member {
        #Index<Member>([\.fullName])
        @Attribute(.unique) var handle: String
        @Attribute(originalName: "name") var fullName: String
        var nickname: String?
        init(handle: String, fullName: String) {
            self.handle = handle
            self.fullName = fullName
        }
    }
}

extension MigrationTests {
    @Test func addingAndRenamingKeepsIndicesOfUntouchedColumns() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: MemberSchemaV1.Member.self) { context in
            context.insert(MemberSchemaV1.Member(handle: "ada", name: "Ada Lovelace"))
        }
        _ = try ModelContainer(for: MemberSchemaV2.Member.self, configurations: ModelConfiguration(url: url))
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        // The unique index on the untouched handle stays; the one on the renamed column is
        // replaced under its new name.
        #expect(!sql.contains("DROP INDEX \"Member_unique_handle\""))
        #expect(sql.contains("DROP INDEX \"Member_index_name\""))
        let indices = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Member' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(indices == ["Member_index_fullName", "Member_unique_handle"])

        let context = ModelContext(try ModelContainer(for: MemberSchemaV2.Member.self, configurations: ModelConfiguration(url: url)))
        context.insert(MemberSchemaV2.Member(handle: "ada", fullName: "Augusta Ada King"))
        try context.save()
        let members = try context.fetch(FetchDescriptor<MemberSchemaV2.Member>())
        #expect(members.map(\.fullName) == ["Augusta Ada King"])
    }
}
