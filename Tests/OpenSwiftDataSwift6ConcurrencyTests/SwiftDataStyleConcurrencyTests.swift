import Foundation
import Observation
import OpenSwiftData
import Synchronization
import Testing

// App code written the way SwiftData apps do background work, compiled in Swift 6 language
// mode with complete concurrency checking. It must build without a single warning.

@Model
final class Article {
    @Attribute(.unique) var slug: String
    var title: String
    var publishedAt: Date
    var isRead: Bool = false

    init(slug: String, title: String, publishedAt: Date) {
        self.slug = slug
        self.title = title
        self.publishedAt = publishedAt
    }
}

/// What the network layer hands over: plain `Sendable` values, never models.
struct ArticleDTO: Sendable, Codable {
    let slug: String
    let title: String
    let publishedAt: Date
}

/// The background importer.
@ModelActor
actor FeedImporter {
    func importArticles(_ dtos: [ArticleDTO], batchSize: Int = 25) throws -> [PersistentIdentifier] {
        var articles: [Article] = []
        for (index, dto) in dtos.enumerated() {
            let article = Article(slug: dto.slug, title: dto.title, publishedAt: dto.publishedAt)
            modelContext.insert(article)
            articles.append(article)
            if (index + 1) % batchSize == 0 { try modelContext.save() }
        }
        if modelContext.hasChanges { try modelContext.save() }
        return articles.map(\.persistentModelID)
    }

    func markRead(_ ids: [PersistentIdentifier]) throws {
        for id in ids {
            self[id, as: Article.self]?.isRead = true
        }
        try modelContext.save()
    }

    func unreadTitles() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Article>()).filter { !$0.isRead }.map(\.title).sorted()
    }

    /// The query apps write with `#Predicate` and `SortDescriptor`.
    func newestUnread(limit: Int) throws -> [String] {
        var descriptor = FetchDescriptor<Article>(
            predicate: #Predicate { !$0.isRead },
            sortBy: [SortDescriptor(\.publishedAt, order: .reverse)])
        descriptor.fetchLimit = limit
        return try modelContext.fetch(descriptor).map(\.title)
    }

    nonisolated func containerIsShared(with other: ModelContainer) -> Bool {
        modelContainer === other
    }
}

/// A view model on the main actor, reading through the container's main context.
@MainActor @Observable
final class FeedViewModel {
    private let container: ModelContainer
    private(set) var titles: [String] = []

    init(container: ModelContainer) {
        self.container = container
    }

    func refresh(with dtos: [ArticleDTO]) async throws {
        let importer = FeedImporter(modelContainer: container)
        let ids = try await importer.importArticles(dtos)
        let context = container.mainContext
        titles = ids.compactMap { (context.model(for: $0) as? Article)?.title }
    }

    func markAllRead() async throws {
        let ids = try container.mainContext.fetchIdentifiers(FetchDescriptor<Article>())
        try await FeedImporter(modelContainer: container).markRead(ids)
    }

    func unreadCount() throws -> Int {
        try container.mainContext.fetchCount(FetchDescriptor<Article>(predicate: #Predicate { !$0.isRead }))
    }
}

private func articles(_ range: Range<Int>, prefix: String = "Article") -> [ArticleDTO] {
    range.map {
        ArticleDTO(slug: "a\($0)", title: "\(prefix) \($0)", publishedAt: Date(timeIntervalSince1970: Double($0) * 3600))
    }
}

private func fileContainer() throws -> ModelContainer {
    let folder = StoreFolders.root.appendingPathComponent(UUID().uuidString, isDirectory: true)
    return try ModelContainer(for: Article.self, configurations: ModelConfiguration(url: folder.appendingPathComponent("feed.store")))
}

/// The folder of this test process's stores, removed with everything in it at exit.
private enum StoreFolders {
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenSwiftDataSwift6-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)", isDirectory: true)
        atexit { try? FileManager.default.removeItem(at: StoreFolders.root) }
        return root
    }()
}

@Suite struct SwiftDataStyleConcurrencyTests {
    @MainActor @Test func aViewModelImportsInTheBackgroundAndReadsOnTheMainActor() async throws {
        let container = try fileContainer()
        let model = FeedViewModel(container: container)
        try await model.refresh(with: articles(0..<60))
        #expect(model.titles.count == 60)
        #expect(model.titles.first == "Article 0")
        #expect(try model.unreadCount() == 60)

        try await model.markAllRead()
        #expect(try model.unreadCount() == 0)    // the main context's fetch sees the importer's save
    }

    @Test func importersRunningAtOnceUpsertUniqueArticles() async throws {
        let container = try fileContainer()
        let first = FeedImporter(modelContainer: container)
        let second = FeedImporter(modelContainer: container)
        #expect(first.containerIsShared(with: container))

        async let a = first.importArticles(articles(0..<100, prefix: "First"))
        async let b = second.importArticles(articles(50..<150, prefix: "Second"))
        let (idsA, idsB) = try await (a, b)
        #expect(idsA.count == 100 && idsB.count == 100)

        // Slugs 50..<100 collided: one row each, whichever save came last wins.
        let reader = FeedImporter(modelContainer: container)
        let titles = try await reader.unreadTitles()
        #expect(titles.count == 150)
        #expect(Set(idsA + idsB).count == 150)
    }

    @Test func identifiersTravelThroughTasksAndNotifications() async throws {
        let container = try fileContainer()
        let saved = Mutex<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { note in
            let inserted = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            saved.withLock { $0 += inserted.filter { $0.entityName == "Article" } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let ids = try await Task.detached {
            try await FeedImporter(modelContainer: container).importArticles(articles(0..<10))
        }.value
        try await FeedImporter(modelContainer: container).markRead(Array(ids.prefix(4)))
        let unread = try await FeedImporter(modelContainer: container).unreadTitles()
        #expect(unread.count == 6)
        #expect(Set(saved.withLock { $0 }).isSuperset(of: Set(ids)))
    }

    @Test func predicatesAndSortsRunInsideTheActor() async throws {
        let container = try fileContainer()
        let importer = FeedImporter(modelContainer: container)
        let ids = try await importer.importArticles(articles(0..<5))
        try await importer.markRead([ids[4]])
        #expect(try await importer.newestUnread(limit: 2) == ["Article 3", "Article 2"])
    }
}
