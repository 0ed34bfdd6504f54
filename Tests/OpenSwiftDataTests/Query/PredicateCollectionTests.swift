import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// Membership in captured collections (`IN`) and in ranges.
@Suite struct PredicateCollectionTests {
    @Test func capturedArraysAndSets() throws {
        let years = [1995, 2010, -44, 12345]
        try expectSameSelection(#Predicate<QuerySample> { years.contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { !years.contains($0.year) })
        let titles: Set = ["Toy Story", "cafe", "100% Pure", "_"]
        try expectSameSelection(#Predicate<QuerySample> { titles.contains($0.title) })
        let ids = [UUID(uuidString: "F0000000-0000-0000-0000-000000000001")!, UUID()]
        try expectSameSelection(#Predicate<QuerySample> { ids.contains($0.uuid) })
        let genres: [SampleGenre] = [.comedy, .horror]
        try expectSameSelection(#Predicate<QuerySample> { genres.contains($0.genre) })
        let dates = [Date.distantPast, Date(timeIntervalSinceReferenceDate: 1.5)]
        try expectSameSelection(#Predicate<QuerySample> { dates.contains($0.date) })
        let big: [UInt64] = [UInt64.max, 42]
        try expectSameSelection(#Predicate<QuerySample> { big.contains($0.uint64) })
    }

    @Test func emptyCollectionContainsNothing() throws {
        let none: [Int] = []
        try expectSameSelection(#Predicate<QuerySample> { none.contains($0.year) }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { !none.contains($0.year) }, discriminating: false)
        let fragment = try PredicateTranslator.sql(for: #Predicate<QuerySample> { none.contains($0.year) }, columns: QueryFixtures.columns)
        #expect(fragment.sqlite == "FALSE")
    }

    @Test func optionalMembersAndNilElements() throws {
        let notes: [String?] = ["x", nil, "STRASSE"]
        try expectSameSelection(#Predicate<QuerySample> { notes.contains($0.notes) })
        try expectSameSelection(#Predicate<QuerySample> { !notes.contains($0.notes) })
        let withoutNil: [String?] = ["x", "%"]
        try expectSameSelection(#Predicate<QuerySample> { withoutNil.contains($0.notes) })
        try expectSameSelection(#Predicate<QuerySample> { !withoutNil.contains($0.notes) })
        let onlyNil: [Double?] = [nil]
        try expectSameSelection(#Predicate<QuerySample> { onlyNil.contains($0.rating) })
    }

    @Test func rangesWrittenInThePredicate() throws {
        try expectSameSelection(#Predicate<QuerySample> { (1990...2010).contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { (1990..<2010).contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { !(0...9).contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { (-1.5...2.5).contains($0.score) })
        try expectSameSelection(#Predicate<QuerySample> { ("a"..."m").contains($0.title) }, in: QueryFixtures.byteComparableSamples)
        // Bounds computed per row.
        try expectSameSelection(#Predicate<QuerySample> { (($0.year - 5)...($0.year + 5)).contains(2000) })
        let early = QueryFixtures.samples.filter { $0.year < 2000 }
        try expectSameSelection(#Predicate<QuerySample> { ($0.year..<2000).contains(1995) }, in: early)
        try expectSameSelection(#Predicate<QuerySample> { ($0.big...$0.year).contains(0) }, in: QueryFixtures.samples.filter { $0.big <= $0.year })
    }

    @Test func aRangeWithInvertedBoundsFailsInBothWorlds() throws {
        let predicate = #Predicate<QuerySample> { ($0.year..<2000).contains(1995) }
        #expect(throws: (any Error).self) {
            try QueryFixtures.samples.filter { try predicate.evaluate($0) }
        }
        let error = #expect(throws: DatabaseError.self) {
            try QueryFixtures.selectedIDs(predicate)
        }
        #expect(error?.message?.contains("above its upper bound") == true)
    }

    @Test func capturedRanges() throws {
        let closed = 1990...2010
        let halfOpen = 1990..<2010
        try expectSameSelection(#Predicate<QuerySample> { closed.contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { halfOpen.contains($0.year) })
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let dates = start...Date(timeIntervalSinceReferenceDate: 10 * QueryFixtures.day)
        try expectSameSelection(#Predicate<QuerySample> { dates.contains($0.date) })
        let half: UInt64 = 1 << 63
        let upper = half...UInt64.max
        try expectSameSelection(#Predicate<QuerySample> { upper.contains($0.uint64) })
        let priorities = SamplePriority.medium...SamplePriority.high
        try expectSameSelection(#Predicate<QuerySample> { priorities.contains($0.priority) })
    }

    @Test func partialRanges() throws {
        let from = 2000...
        let through = ...1995
        let upTo = ..<1995
        try expectSameSelection(#Predicate<QuerySample> { from.contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { through.contains($0.year) })
        try expectSameSelection(#Predicate<QuerySample> { upTo.contains($0.year) })
    }
}
