import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Mixtape {
    var name: String
    var tags: [String]
    var ratings: [Int]
    var gains: [Double] = []
    var moods: [String]?
    init(name: String, tags: [String], ratings: [Int], moods: [String]?) {
        self.name = name
        self.tags = tags
        self.ratings = ratings
        self.moods = moods
    }
}

/// Arrays of values are kept as JSON arrays: `isEmpty`, `count` and `contains` are answered in
/// SQL with SQLite's JSON functions, as Swift answers them.
@Suite struct ValueArrayPredicateTests {
    private func mixtapes() throws -> (ModelContext, [Mixtape]) {
        let context = ModelContext(try ModelContainer(for: Mixtape.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let mixtapes = [
            Mixtape(name: "a", tags: [], ratings: [], moods: nil),
            Mixtape(name: "b", tags: ["jazz"], ratings: [5], moods: []),
            Mixtape(name: "c", tags: ["jazz", "late night", "x\"y"], ratings: [1, 2, 3], moods: ["calm"]),
            Mixtape(name: "d", tags: ["rock", "🎸"], ratings: [-4, 5], moods: ["loud", "calm"]),
        ]
        for mixtape in mixtapes { context.insert(mixtape) }
        try context.save()
        return (context, mixtapes)
    }

    private func expectSwiftsAnswer(_ predicate: Predicate<Mixtape>, _ context: ModelContext, _ all: [Mixtape]) throws {
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(fetched == (try all.filter { try predicate.evaluate($0) }.map(\.name).sorted()))
    }

    @Test func isEmptyCountAndContainsAgreeWithSwift() throws {
        let (context, all) = try mixtapes()
        let quote = "x\"y", guitar = "🎸", five = 5
        try expectSwiftsAnswer(#Predicate { $0.tags.isEmpty }, context, all)
        try expectSwiftsAnswer(#Predicate { !$0.tags.isEmpty }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.tags.count > 1 }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.ratings.count == 2 }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.tags.contains("jazz") }, context, all)
        try expectSwiftsAnswer(#Predicate { !$0.tags.contains("jazz") }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.tags.contains(quote) || $0.tags.contains(guitar) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.ratings.contains(five) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.ratings.contains(-4) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.tags.contains($0.name) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.moods?.contains("calm") ?? false }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.moods?.isEmpty ?? true }, context, all)
        try expectSwiftsAnswer(#Predicate { ($0.moods?.count ?? 0) == 2 }, context, all)
    }

    @Test func elementsThatDoNotCompareInSQLAreRefused() throws {
        let (context, _) = try mixtapes()
        let gain = 0.5
        let error = try #require(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor<Mixtape>(predicate: #Predicate { $0.gains.contains(gain) }))
        }
        #expect(error.description.contains("stored as JSON"))
    }
}
