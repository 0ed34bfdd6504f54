import Foundation
import Testing
@testable import OpenSwiftData

enum Medal: String, Codable, CaseIterable, Sendable {
    case gold, silver, bronze
    /// Not the raw value: a predicate reading it is refused.
    var shout: String { rawValue.uppercased() }
}

enum Lane: Int, Codable, Sendable {
    case inner = 1, outer = 2
}

@Model final class Finish {
    var athlete: String
    var medal: Medal
    var previous: Medal?
    var lane: Lane
    init(athlete: String, medal: Medal, previous: Medal?, lane: Lane) {
        self.athlete = athlete
        self.medal = medal
        self.previous = previous
        self.lane = lane
    }
}

/// `$0.medal.rawValue`: the column holds the raw value, so the read is the column itself, and
/// the answers are Swift's own.
@Suite struct EnumRawValuePredicateTests {
    private func finishes() throws -> (ModelContext, [Finish]) {
        let context = ModelContext(try ModelContainer(for: Finish.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let finishes = [
            Finish(athlete: "Ada", medal: .gold, previous: nil, lane: .inner),
            Finish(athlete: "Bo", medal: .silver, previous: .gold, lane: .outer),
            Finish(athlete: "Cy", medal: .bronze, previous: .silver, lane: .inner),
            Finish(athlete: "Di", medal: .gold, previous: .bronze, lane: .outer),
        ]
        for finish in finishes { context.insert(finish) }
        try context.save()
        return (context, finishes)
    }

    private func expectSwiftsAnswer(_ predicate: Predicate<Finish>, _ context: ModelContext, _ all: [Finish]) throws {
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.athlete)])).map(\.athlete)
        let expected = try all.filter { try predicate.evaluate($0) }.map(\.athlete).sorted()
        #expect(fetched == expected)
    }

    @Test func rawValueReadsTheColumn() throws {
        let (context, all) = try finishes()
        try expectSwiftsAnswer(#Predicate { $0.medal.rawValue == "gold" }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.medal.rawValue != "gold" }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.medal.rawValue.starts(with: "s") }, context, all)
        try expectSwiftsAnswer(#Predicate { $0.previous?.rawValue == "gold" }, context, all)
        let gold = Medal.gold
        try expectSwiftsAnswer(#Predicate { $0.medal == gold }, context, all)
        #expect(try context.fetchCount(FetchDescriptor<Finish>(predicate: #Predicate { $0.medal.rawValue == "gold" })) == 2)
    }

    @Test func anotherPropertyOfTheSameTypeIsNotTheRawValue() throws {
        let (context, _) = try finishes()
        let error = try #require(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor<Finish>(predicate: #Predicate { $0.medal.shout == "GOLD" }))
        }
        #expect(error.description.contains("no SQL equivalent"))
    }

    @Test func aTypeThatDoesNotListItsValuesIsRefused() throws {
        // Without CaseIterable nothing says that the key path gives the raw value.
        let (context, _) = try finishes()
        #expect(throws: SwiftDataError.self) {
            try context.fetch(FetchDescriptor<Finish>(predicate: #Predicate { $0.lane.rawValue == 1 }))
        }
    }
}
