import Foundation
import Testing
@testable import OpenSwiftData

// Posts gain a summary a transform writes from the old post's title, body and author: the
// column is added between the attributes the old model reads and its author's key.

enum PostSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Author.self, Post.self] }
    @Model final class Author {
        var name: String
        @Relationship(inverse: \Post.author) var posts: [Post] = []
        init(name: String) { self.name = name }
    }
    @Model final class Post {
        var title: String
        var body: String?
        var author: Author?
        init(title: String, body: String?, author: Author?) {
            self.title = title
            self.body = body
            self.author = author
        }
    }
}

enum PostSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Author.self, Post.self] }
    @Model final class Author {
        var name: String
        @Relationship(inverse: \Post.author) var posts: [Post] = []
        init(name: String) { self.name = name }
    }
    @Model final class Post {
        var title: String
        var body: String?
        var summary: String
        var author: Author?
        init(title: String, body: String?, summary: String, author: Author?) {
            self.title = title
            self.body = body
            self.summary = summary
            self.author = author
        }
    }
}

enum PostSummaryPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PostSchemaV1.self, PostSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: PostSchemaV1.self, toVersion: PostSchemaV2.self,
                    model: PostSchemaV1.Post.self, to: PostSchemaV2.Post.self, batchSize: 2) { old, new in
            new.summary = "\(old.title) by \(old.author?.name ?? "nobody")\(old.body.map { ": \($0)" } ?? "")"
        }]
    }
}

extension MigrationTests {
    /// A transform over a table the migration only adds columns to reads each row once for
    /// both models: the old model's values, its relationship's key among them, come from the
    /// new row, where the added column sits before that key.
    @Test func aTransformOverAddedColumnsReadsTheOldModelFromTheNewRow() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: PostSchemaV1.Post.self) { context in
            let ada = PostSchemaV1.Author(name: "Ada")
            let bob = PostSchemaV1.Author(name: "Bob")
            context.insert(PostSchemaV1.Post(title: "Engines", body: "notes", author: ada))
            context.insert(PostSchemaV1.Post(title: "Orphan", body: nil, author: nil))
            context.insert(PostSchemaV1.Post(title: "Networks", body: nil, author: bob))
        }
        let container = try ModelContainer(for: PostSchemaV2.Post.self, migrationPlan: PostSummaryPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let posts = try context.fetch(FetchDescriptor<PostSchemaV2.Post>(sortBy: [SortDescriptor(\.title)]))
        #expect(posts.map(\.summary) == ["Engines by Ada: notes", "Networks by Bob", "Orphan by nobody"])
        #expect(posts.map { $0.author?.name } == ["Ada", "Bob", nil])
        #expect(posts.map(\.body) == ["notes", nil, nil])
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        #expect(!sql.contains("_osd_new_"))
    }
}
