import Foundation
import OpenSwiftData
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

@Model final class BookShelf {
    var label: String
    @Relationship(inverse: \ShelvedVolume.shelf) var volumes: [ShelvedVolume] = []
    init(label: String) { self.label = label }
}

@Model final class ShelvedVolume {
    var title: String
    var shelf: BookShelf?
    init(title: String, shelf: BookShelf?) {
        self.title = title
        self.shelf = shelf
    }
}

/// A narrowed fetch holds its connection while Swift decides the candidates; deciding may read
/// the store again (a relationship), which must share that connection, even in a pool of one.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresNarrowedFetchTests {
    @Test func decidingCandidatesThroughARelationshipInAPoolOfOneConnection() throws {
        try ThrowAwaySchema().use { place in
            var configuration = place.configuration(BookShelf.self, ShelvedVolume.self)
            configuration.maximumConnections = 1
            let container = try ModelContainer(for: BookShelf.self, ShelvedVolume.self, configurations: configuration)
            let writing = ModelContext(container)
            let shelves = ["Poëtry", "Prose", "Plays"].map { BookShelf(label: $0) }
            for (index, shelf) in shelves.enumerated() {
                writing.insert(shelf)
                for number in 0..<40 { writing.insert(ShelvedVolume(title: "Volüme \(index * 40 + number)", shelf: shelf)) }
            }
            try writing.save()

            let context = ModelContext(container)
            var descriptor = FetchDescriptor<ShelvedVolume>(
                predicate: #Predicate { $0.title.localizedStandardContains("volume 1") && ($0.shelf?.label.localizedStandardContains("poetry") ?? false) },
                sortBy: [SortDescriptor(\.title)])
            descriptor.fetchLimit = 5
            // Swift's answer from another context, so this one reads every shelf while deciding.
            let reference = ModelContext(container)
            let everything = try reference.fetch(FetchDescriptor<ShelvedVolume>(sortBy: [SortDescriptor(\.title)]))
            let expected = try everything.filter { try descriptor.predicate!.evaluate($0) }
            #expect(expected.count == 11)
            let found = try context.fetch(descriptor)
            #expect(found.map(\.title) == expected.prefix(5).map(\.title))
            #expect(found.map(\.title) == ["Volüme 1", "Volüme 10", "Volüme 11", "Volüme 12", "Volüme 13"])
            #expect(found.allSatisfy { $0.shelf?.label == "Poëtry" })
            descriptor.fetchLimit = nil
            #expect(try context.fetchCount(descriptor) == 11)
        }
    }
}
