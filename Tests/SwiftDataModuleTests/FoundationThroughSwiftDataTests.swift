import SwiftData
import Testing

// No `import Foundation` here: a model file that got Foundation through `import SwiftUI` on
// Apple platforms keeps `Date`, `URL` and `UUID` through `import SwiftData`.

@Model
final class Visit {
    var at: Date
    var page: URL
    var session: UUID
    init(at: Date, page: URL, session: UUID) {
        self.at = at
        self.page = page
        self.session = session
    }
}

@Suite struct FoundationThroughSwiftDataTests {
    @Test func foundationTypesNeedOnlyTheSwiftDataImport() throws {
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let session = UUID()
        context.insert(Visit(at: Date(timeIntervalSinceReferenceDate: 1), page: URL(string: "https://example.com")!, session: session))
        try context.save()
        let visits = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.session == session }))
        #expect(visits.map(\.page.host) == ["example.com"])
    }
}
