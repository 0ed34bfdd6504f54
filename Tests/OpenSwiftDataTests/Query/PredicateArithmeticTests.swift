import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// `+ - * / %` and unary minus, with Swift's semantics.
@Suite struct PredicateArithmeticTests {
    @Test func integerArithmetic() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.year + 5 > 2000 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year - 1000 < 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year * 2 == 3990 })
        try expectSameSelection(#Predicate<QuerySample> { -$0.year > 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year * -1 + $0.year == 0 }, discriminating: false)
        // Overflow traps in Swift, so only samples far from the limits.
        let moderate = QueryFixtures.samples.filter { abs(Int($0.int16)) < 10_000 }
        try expectSameSelection(#Predicate<QuerySample> { ($0.int16 - 5) * 2 < 0 }, in: moderate)
        try expectSameSelection(#Predicate<QuerySample> { $0.uint8 + 1 > 100 }, in: QueryFixtures.samples.filter { $0.uint8 < 255 })
    }

    @Test func integerDivisionTruncatesTowardZero() throws {
        // -44 / 10 is -4 in Swift (not -5), and -44 % 10 is -4 (not 6).
        try expectSameSelection(#Predicate<QuerySample> { $0.year / 10 == -4 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year % 10 == -4 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year / 7 > 280 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year % 2 == 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year % 3 == 1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year % -7 < 0 })
        try expectSameSelection(#Predicate<QuerySample> { 3000 / $0.year > 1 }, in: QueryFixtures.samples.filter { $0.year != 0 })
    }

    @Test func doubleArithmetic() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.score * 2 > 16 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score / 4 < 1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score + 0.1 == 0.2 })
        try expectSameSelection(#Predicate<QuerySample> { -$0.score >= 0 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.rating ?? 0) / 3 > 1 })
    }

    @Test func floatArithmeticRoundsToFloat() throws {
        // 0.1 + 0.2 is 0.3 in Float (0.3 rounds the same way), but not in Double: the sum must
        // be rounded to Float as Swift does.
        let a: Float = 0.1, b: Float = 0.2, c: Float = 0.3
        #expect(a + b == c)
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio + b == c })
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio * 3 > 9 })
        // Float overflows to infinity where Double would not.
        let infinity = Float.infinity
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio * 2 == infinity })
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio / 3 < 0.1 })
    }

    @Test func floatingPointDivisionByZeroIsInfinity() throws {
        let infinity = Double.infinity
        try expectSameSelection(#Predicate<QuerySample> { $0.year > 0 && $0.score / 0 == infinity })
        try expectSameSelection(#Predicate<QuerySample> { $0.score > 0 && 1 / ($0.score - $0.score) > 0 }, in: QueryFixtures.samples.filter { $0.score.isFinite })
    }

    @Test func zeroDividedByZeroFailsTheQuery() throws {
        // Swift's NaN has no SQLite counterpart: rather than a wrong answer, the query fails.
        let zeroes = QueryFixtures.samples.filter { $0.score == 0 }
        let predicate = #Predicate<QuerySample> { $0.score / $0.score > 0 }
        #expect(zeroes.isEmpty == false)
        let error = #expect(throws: DatabaseError.self) {
            try QueryFixtures.selectedIDs(predicate, in: try QueryFixtures.database(zeroes))
        }
        #expect(error?.message?.contains("is NaN, which SQLite cannot represent") == true)
    }

    @Test func constantsAreFoldedInSwift() throws {
        let fragment = try PredicateTranslator.sql(
            for: #Predicate<QuerySample> { $0.year > 1000 + 995 }, columns: QueryFixtures.columns)
        #expect(fragment.sqlite == #"("year" > ?)"#)
        #expect(fragment.databaseValues == [1995.databaseValue])
    }
}
