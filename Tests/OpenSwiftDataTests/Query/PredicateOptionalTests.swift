import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// `??`, optional chaining, `if let` and `!`.
@Suite struct PredicateOptionalTests {
    @Test func nilCoalescing() throws {
        try expectSameSelection(#Predicate<QuerySample> { ($0.rating ?? 0) > 4 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.rating ?? 5) > 4 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.notes ?? "") == "" })
        try expectSameSelection(#Predicate<QuerySample> { ($0.count ?? $0.year) < 100 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.maybeFlag ?? false) })
        try expectSameSelection(#Predicate<QuerySample> { !($0.maybeFlag ?? true) })
        let fallback = SampleGenre.horror
        try expectSameSelection(#Predicate<QuerySample> { ($0.maybeGenre ?? fallback) == fallback })
        let none: Int? = nil
        try expectSameSelection(#Predicate<QuerySample> { (none ?? $0.year) > 2000 })
    }

    @Test func optionalChaining() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.count == 1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.count == nil })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.isEmpty == true })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.isEmpty == false })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.contains("a") == true })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.contains("a") != true })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.contains("a") == false })
        try expectSameSelection(#Predicate<QuerySample> { ($0.notes?.count ?? -1) > 3 })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeDate?.timeIntervalSinceReferenceDate == 1.5 })
    }

    @Test func ifLet() throws {
        try expectSameSelection(#Predicate<QuerySample> {
            if let notes = $0.notes {
                notes.contains("e")
            } else {
                false
            }
        })
        try expectSameSelection(#Predicate<QuerySample> {
            if let rating = $0.rating {
                rating > 4
            } else {
                $0.year > 2000
            }
        })
        try expectSameSelection(#Predicate<QuerySample> {
            if let count = $0.count {
                count % 2 == 0
            } else {
                true
            }
        })
    }

    @Test func flatMapWhoseResultIgnoresTheValue() throws {
        // The closure's result does not depend on the value, so only the CASE makes nil stay nil.
        try expectSameSelection(#Predicate<QuerySample> { $0.notes.flatMap { _ in 1 } == nil })
        try expectSameSelection(#Predicate<QuerySample> { sample in sample.rating.flatMap { _ in sample.year } == 1995 })
    }

    @Test func forcedUnwrap() throws {
        let withNotes = QueryFixtures.samples.filter { $0.notes != nil }
        try expectSameSelection(#Predicate<QuerySample> { $0.notes!.contains("a") }, in: withNotes)
        try expectSameSelection(#Predicate<QuerySample> { $0.notes != nil && $0.notes!.isEmpty })
        try expectSameSelection(#Predicate<QuerySample> { $0.rating! > 4 }, in: QueryFixtures.samples.filter { $0.rating != nil })
    }

    @Test func forcedUnwrapOfNilFailsInBothWorlds() throws {
        let predicate = #Predicate<QuerySample> { $0.notes!.isEmpty }
        #expect(throws: (any Error).self) {
            try QueryFixtures.samples.filter { try predicate.evaluate($0) }
        }
        let error = #expect(throws: DatabaseError.self) {
            try QueryFixtures.selectedIDs(predicate)
        }
        #expect(error?.message?.contains("force-unwrapped") == true)
    }
}
