import Foundation
import SwiftData
import Testing

// Code written for Apple's SwiftData, unchanged: the import and module-qualified names.

@Model
final class Bookmark {
    #Unique<Bookmark>([\.address])
    var address: String
    var visits = 0

    init(address: String) { self.address = address }
}

func newest(_ context: SwiftData.ModelContext) throws -> [any SwiftData.PersistentModel] {
    try context.fetch(SwiftData.FetchDescriptor<Bookmark>(sortBy: [SortDescriptor(\.visits, order: .reverse)]))
}

@Suite struct SwiftDataModuleTests {
    @Test func swiftDataCodeBuildsAndRunsUnchanged() throws {
        let container = try SwiftData.ModelContainer(
            for: Bookmark.self, configurations: SwiftData.ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let bookmark = Bookmark(address: "https://swift.org")
        bookmark.visits = 3
        context.insert(bookmark)
        context.insert(Bookmark(address: "https://example.com"))
        try context.save()
        let models = try newest(context)
        #expect((models.first as? Bookmark)?.address == "https://swift.org")
        let schema: SwiftData.Schema = container.schema
        #expect(schema.entities.map(\.name) == ["Bookmark"])
    }
}
