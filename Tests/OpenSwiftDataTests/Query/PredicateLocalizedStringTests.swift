import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// `localizedStandardContains`, `caseInsensitiveCompare` and `localizedCompare`, which the
/// open-source Foundation's `#Predicate` can only use through the builders this package adds.
@Suite struct PredicateLocalizedStringTests {
    @Test func localizedStandardContainsCompilesAndRuns() throws {
        // The line a user writes, unchanged from Apple platforms.
        let predicate = #Predicate<QuerySample> { $0.title.localizedStandardContains("toy") }
        try expectSameSelection(predicate)
        #expect(try QueryFixtures.samples.filter { try predicate.evaluate($0) }.map(\.id) == [1, 2, 3, 19, 20, 24])
        let fragment = try PredicateTranslator.sql(for: predicate, columns: QueryFixtures.columns)
        #expect(fragment.sqlite == #"osd_localized_standard_contains("title", ?)"#)
    }

    @Test func localizedStandardContainsIgnoresCaseAndDiacritics() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedStandardContains("cafe") })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedStandardContains("CAFÉ") })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedStandardContains("ecole") })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedStandardContains("strasse") })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedStandardContains("%") })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.localizedStandardContains("apple") == true })
        try expectSameSelection(#Predicate<QuerySample> { !$0.title.localizedStandardContains($0.notes ?? "∅") })
    }

    @Test func evaluatesWithFoundationsMeaning() throws {
        func contains(_ string: String, _ other: String) throws -> Bool {
            try PredicateExpressions.build_localizedStandardContains(
                PredicateExpressions.Value(string), PredicateExpressions.Value(other)
            ).evaluate(PredicateBindings())
        }
        #expect(try contains("Toy Story", "toy"))
        #expect(try contains("Café au lait", "CAFE"))
        #expect(try contains("Cafe\u{301}", "café"))
        #expect(try contains("Straße", "STRASSE"))
        #expect(try !contains("Toy Story", "toys"))
        let compare = PredicateExpressions.build_caseInsensitiveCompare(
            PredicateExpressions.Value("apple"), PredicateExpressions.Value("APPLE"))
        #expect(try compare.evaluate(PredicateBindings()) == .orderedSame)
        let localized = PredicateExpressions.build_localizedCompare(
            PredicateExpressions.Value("a"), PredicateExpressions.Value("B"))
        #expect(try localized.evaluate(PredicateBindings()) == .orderedAscending)
    }

    @Test func caseInsensitiveCompare() throws {
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        try expectSameSelection(#Predicate<QuerySample> { $0.title.caseInsensitiveCompare("toy story") == same })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.caseInsensitiveCompare("CAFE") == same })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.caseInsensitiveCompare("m") == ascending })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.caseInsensitiveCompare($0.notes ?? "") != same })
    }

    @Test func localizedCompare() throws {
        let ascending = ComparisonResult.orderedAscending
        let descending = ComparisonResult.orderedDescending
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedCompare("m") == ascending })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.localizedCompare("file10") == descending })
    }

    @Test func expressionsAreStandardCodableAndSendable() throws {
        let expression = PredicateExpressions.build_localizedStandardContains(
            PredicateExpressions.Value("Toy Story"), PredicateExpressions.Value("toy"))
        let standard: any StandardPredicateExpression<Bool> = expression
        let sendable: any Sendable = standard
        #expect(sendable is PredicateExpressions.StringLocalizedStandardContains<
            PredicateExpressions.Value<String>, PredicateExpressions.Value<String>>)
        let data = try JSONEncoder().encode(expression)
        let decoded = try JSONDecoder().decode(type(of: expression), from: data)
        #expect(decoded.root.value == "Toy Story")
        #expect(decoded.other.value == "toy")
        #expect(try decoded.evaluate(PredicateBindings()))
        #expect("\(expression)".hasPrefix("StringLocalizedStandardContains(root: "))

        let compare = PredicateExpressions.build_caseInsensitiveCompare(
            PredicateExpressions.Value("TOY"), PredicateExpressions.Value("toy"))
        let decodedCompare = try JSONDecoder().decode(type(of: compare), from: JSONEncoder().encode(compare))
        #expect(try decodedCompare.evaluate(PredicateBindings()) == .orderedSame)
    }
}
