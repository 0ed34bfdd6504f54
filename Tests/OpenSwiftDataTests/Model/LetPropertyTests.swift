import Foundation
import Testing
@testable import OpenSwiftData

@Model final class TillReceipt {
    @Attribute(.unique) let id: UUID
    let issued: Date
    let note: String?
    let lines: [String]
    var total: Int

    init(id: UUID, issued: Date, note: String?, lines: [String], total: Int) {
        self.id = id
        self.issued = issued
        self.note = note
        self.lines = lines
        self.total = total
    }
}

@Model final class TillReceiptWithLetOwner {
    let owner: TillReceipt?
    init(owner: TillReceipt?) { self.owner = owner }
}

/// `let` stored properties are persisted: set once by the model's `init`, written when it is
/// saved, and given their stored value when a model is fetched, as SwiftData does in Swift 5 mode.
@Suite struct LetPropertyTests {
    let first = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
    let second = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!

    @Test func letsAreSavedAndReadBack() throws {
        let url = temporaryStoreURL("receipts")
        let issued = Date(timeIntervalSinceReferenceDate: 800_000_000)
        do {
            let context = ModelContext(try ModelContainer(for: TillReceipt.self, configurations: ModelConfiguration(url: url)))
            context.insert(TillReceipt(id: first, issued: issued, note: "lunch", lines: ["soup", "bread"], total: 12))
            context.insert(TillReceipt(id: second, issued: issued.addingTimeInterval(60), note: nil, lines: [], total: 3))
            try context.save()
        }
        let schema = try #require(Schema([TillReceipt.self]).entitiesByName["TillReceipt"])
        #expect(schema.attributesByName["id"]?.isUnique == true)
        #expect(Set(schema.attributesByName.keys) == ["id", "issued", "note", "lines", "total"])

        let context = ModelContext(try ModelContainer(for: TillReceipt.self, configurations: ModelConfiguration(url: url)))
        let receipts = try context.fetch(FetchDescriptor<TillReceipt>(sortBy: [SortDescriptor(\.issued, order: .reverse)]))
        #expect(receipts.map(\.id) == [second, first])
        #expect(receipts.map(\.note) == [nil, "lunch"])
        #expect(receipts.map(\.lines) == [[], ["soup", "bread"]])
        #expect(receipts.last?.issued == issued)
        let id = first
        let found = try context.fetch(FetchDescriptor(predicate: #Predicate<TillReceipt> { $0.id == id }))
        #expect(found.map(\.total) == [12])
    }

    /// A unique `let` upserts as a unique `var` does: the stored row takes the new values.
    @Test func aUniqueLetUpserts() throws {
        let context = ModelContext(try ModelContainer(for: TillReceipt.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(TillReceipt(id: first, issued: .now, note: nil, lines: [], total: 1))
        try context.save()
        context.insert(TillReceipt(id: first, issued: .now, note: "again", lines: [], total: 2))
        try context.save()
        let receipts = try context.fetch(FetchDescriptor<TillReceipt>())
        #expect(receipts.count == 1)
        #expect(receipts.first?.total == 2)
    }

    @Test func aLetRelationshipIsRefused() throws {
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: TillReceiptWithLetOwner.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect("\(error!)".contains("TillReceiptWithLetOwner.owner is a 'let' relationship; declare it 'var'"))
    }
}
