import Foundation
import Testing
@testable import OpenSwiftData

/// `&&`, `||`, `!`, Bool attributes as conditions, and conditional expressions.
@Suite struct PredicateLogicTests {
    @Test func andOrNot() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.year > 1995 && $0.title.contains("Toy") })
        try expectSameSelection(#Predicate<QuerySample> { $0.year < 0 || $0.score > 8 })
        try expectSameSelection(#Predicate<QuerySample> { !($0.year > 1995) })
        try expectSameSelection(#Predicate<QuerySample> { !($0.flag && $0.year > 1995) || $0.big == 0 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.year > 1990 || $0.year < 0) && !$0.flag })
    }

    @Test func booleanAttributesAsConditions() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.flag })
        try expectSameSelection(#Predicate<QuerySample> { !$0.flag })
        try expectSameSelection(#Predicate<QuerySample> { $0.flag && $0.score > 5 })
    }

    @Test func negationKeepsSwiftsMeaningWithNulls() throws {
        // In SQL, NOT (NULL = 'x') is NULL, which a WHERE clause treats as false; in Swift,
        // !(nil == "x") is true. The translation must not lose the rows whose notes are nil.
        try expectSameSelection(#Predicate<QuerySample> { !($0.notes == "x") })
        try expectSameSelection(#Predicate<QuerySample> { !($0.rating == 4.5) && $0.flag })
        try expectSameSelection(#Predicate<QuerySample> { !($0.maybeFlag == true) })
    }

    @Test func constantConditions() throws {
        try expectSameSelection(#Predicate<QuerySample> { _ in true }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { _ in false }, discriminating: false)
        try expectSameSelection(Predicate<QuerySample>.true, discriminating: false)
        try expectSameSelection(Predicate<QuerySample>.false, discriminating: false)
        let enabled = false
        try expectSameSelection(#Predicate<QuerySample> { enabled && $0.flag }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { enabled || $0.flag })
        try expectSameSelection(#Predicate<QuerySample> { $0.flag || enabled })
        let fragment = try PredicateTranslator.sql(for: #Predicate<QuerySample> { _ in true }, columns: QueryFixtures.columns)
        #expect(fragment.sqlite == "TRUE")
    }

    @Test func ternaryAndIfElse() throws {
        try expectSameSelection(#Predicate<QuerySample> { ($0.flag ? $0.year : $0.big) > 1990 })
        try expectSameSelection(#Predicate<QuerySample> { ($0.year > 2000 ? "new" : "old") == "new" })
        try expectSameSelection(#Predicate<QuerySample> {
            if $0.flag {
                $0.score > 5
            } else {
                $0.year < 1990
            }
        })
        try expectSameSelection(#Predicate<QuerySample> { ($0.flag ? $0.notes : nil) == nil })
        let threshold = 5.0
        try expectSameSelection(#Predicate<QuerySample> { ($0.score > threshold ? $0.title : "") == "" })
        // A constant condition picks its branch while translating.
        let always = true
        try expectSameSelection(#Predicate<QuerySample> { (always ? $0.year : $0.big) > 2000 })
    }

    @Test func translatesToReadableSQL() throws {
        let fragment = try PredicateTranslator.sql(
            for: #Predicate<QuerySample> { $0.year > 1995 && $0.title.contains("Toy") }, columns: QueryFixtures.columns)
        #expect(fragment.sqlite == #"(("year" > ?) AND osd_contains("title", ?))"#)
        #expect(fragment.databaseValues == [1995.databaseValue, "Toy".databaseValue])
    }
}
