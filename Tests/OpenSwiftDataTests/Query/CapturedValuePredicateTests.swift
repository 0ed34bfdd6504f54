import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Score {
    var player: String
    var points: Int
    var tags: [String] = []
    init(player: String, points: Int) {
        self.player = player
        self.points = points
    }
}

/// Parts of a predicate over values captured from outside it are evaluated in Swift first, as
/// the Predicates article says; over the model's values they are refused.
@Suite struct CapturedValuePredicateTests {
    private func scores() throws -> (ModelContext, [Score]) {
        let context = ModelContext(try ModelContainer(for: Score.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let scores = [("ada", 3), ("bo", 7), ("cy", 1), ("di", 9), ("ed", 7)].map { Score(player: $0.0, points: $0.1) }
        for score in scores { context.insert(score) }
        try context.save()
        return (context, scores)
    }

    private func expectSwiftsAnswer(_ predicate: Predicate<Score>, _ context: ModelContext, _ all: [Score]) throws {
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.player)])).map(\.player)
        #expect(fetched == (try all.filter { try predicate.evaluate($0) }.map(\.player).sorted()))
    }

    @Test func capturedCollectionsAreEvaluatedFirst() throws {
        let (context, all) = try scores()
        let targets = [7, 1, 4]
        let bonus = ["ada": 3, "zed": 100]
        let empty: [Int] = []
        try expectSwiftsAnswer(#Predicate { $0.points == targets.max()! }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.points == (targets.min() ?? 0) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.points > (empty.max() ?? 5) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.points == targets[1] }, context, all)
        try expectSwiftsAnswer(#Predicate { targets[0..<2].contains($0.points) }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.points == bonus["ada"] ?? 0 }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.points == bonus["nobody", default: 7] }, context, all)
        #expect(try context.fetchCount(FetchDescriptor<Score>(predicate: #Predicate { $0.points == targets.max()! })) == 2)
    }

    @Test func overTheModelsValuesTheyAreRefused() throws {
        let (context, _) = try scores()
        let error = try #require(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor<Score>(predicate: #Predicate { $0.tags[0] == "x" }))
        }
        #expect(error.description.contains("a subscript translates only over values captured from outside the predicate"))
    }
}

extension CapturedValuePredicateTests {
    @Test func tenThousandPredicatesJoinedByOrAndAndRun() throws {
        let (context, all) = try scores()
        let many = (0..<10_000).map { value in #Predicate<Score> { $0.points == value } }
        let either = CompoundPredicate.or(many)
        try expectSwiftsAnswer(either, context, all)
        #expect(try context.fetchCount(FetchDescriptor<Score>(predicate: either)) == 5)
        let none = CompoundPredicate.and(many)
        try expectSwiftsAnswer(none, context, all)
        let bounds = (0..<10_000).map { bound in #Predicate<Score> { $0.points > -bound } }
        try expectSwiftsAnswer(CompoundPredicate.and(bounds), context, all)
        try expectSwiftsAnswer(CompoundPredicate.or([]), context, all)
        try expectSwiftsAnswer(CompoundPredicate.and([]), context, all)
    }
}
