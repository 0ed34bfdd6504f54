import Foundation
import Testing
@testable import OpenSwiftData

/// `contains`, `starts(with:)`, `isEmpty` and `count` on strings.
@Suite struct PredicateStringTests {
    /// Text in one normalization form, without grapheme clusters that split byte-wise.
    let nfc = QueryFixtures.byteComparableSamples

    @Test func containsIsCaseSensitive() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("Toy") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("toy") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("TOY") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("Story") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { !$0.title.contains("Story") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("é") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("タイトル") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("\n") }, in: nfc)
    }

    @Test func wildcardCharactersAreLiteral() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("%") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("_") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("y%") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("Toy_") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("*") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("[d]") }, in: nfc)
        let needle = "0%"
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains(needle) }, in: nfc)
    }

    @Test func emptyNeedle() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains("") }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "") }, discriminating: false)
    }

    @Test func containsAnotherAttribute() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains($0.notes ?? "∅") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { ($0.notes ?? "").contains($0.title) }, in: nfc)
    }

    @Test func startsWith() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "Toy") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "toy") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "Toy%") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "Toy_") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "100%") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "a*b?c[") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "a?") }, in: nfc, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "日本") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: "Ca") }, in: nfc)
        // A prefix computed per row.
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: $0.notes ?? "∅") }, in: nfc)
        try expectSameSelection(#Predicate<QuerySample> { ($0.notes ?? "").starts(with: $0.title) }, in: nfc)
    }

    @Test func substringTestsOnTextCompareCharactersAndOnDataBytes() throws {
        let text = try PredicateTranslator.sql(
            for: #Predicate<QuerySample> { $0.title.starts(with: "a*b?c[d]") && $0.title.contains("%_") },
            columns: QueryFixtures.columns)
        #expect(text.sqlite == #"(osd_starts_with("title", ?) AND osd_contains("title", ?))"#)
        #expect(text.databaseValues == ["a*b?c[d]".databaseValue, "%_".databaseValue])
        let bytes = Data([1, 2])
        let data = try PredicateTranslator.sql(
            for: #Predicate<QuerySample> { $0.data.starts(with: bytes) || $0.data.contains(bytes) },
            columns: QueryFixtures.columns)
        #expect(data.sqlite == #"((substr("data", 1, length(?)) = ?) OR (instr("data", ?) > 0))"#)
    }

    /// Text in other normalization forms and clusters that bytes split: `contains` and
    /// `starts(with:)` find whole `Character`s, up to canonical equivalence, as Swift does.
    @Test(arguments: ["👍", "👍🏽", "e", "é", "e\u{301}", "Cafe", "Café", "Cafe\u{301}", "\r", "\n", "\r\n", "K", "\u{212A}", "line", "👨", "👨‍👩‍👧", "a", ""])
    func substringTestsAgreeWithSwiftOnEveryString(_ needle: String) throws {
        let samples = [
            "👍🏽 great", "👍 fine", "e\u{301}cole", "école", "Cafe\u{301}", "Café", "Cafe", "line\r\nbreak",
            "line\rbreak", "line\nbreak", "\u{212A}elvin", "Kelvin", "emoji 👨‍👩‍👧 family", "👨 alone", "plain ascii", "",
        ].enumerated().map { index, title in QuerySample(index + 1) { $0.title = title } }
        try expectSameSelection(#Predicate<QuerySample> { $0.title.contains(needle) }, in: samples, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { $0.title.starts(with: needle) }, in: samples, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { !$0.title.contains(needle) }, in: samples, discriminating: false)
    }

    @Test func aThumbIsNotFoundInsideATintedThumb() throws {
        let samples = [QuerySample(1) { $0.title = "👍🏽" }, QuerySample(2) { $0.title = "👍" }]
        let thumb = #Predicate<QuerySample> { $0.title.contains("👍") }
        #expect(try samples.filter { try thumb.evaluate($0) }.map(\.id) == [2])
        #expect(try QueryFixtures.selectedIDs(thumb, in: QueryFixtures.database(samples)).ids == [2])
    }

    @Test func isEmptyAndCharacterCount() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title.isEmpty })
        try expectSameSelection(#Predicate<QuerySample> { !$0.title.isEmpty })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.count == 4 })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.count > 10 })
        // The family emoji is one Character of five code points, and "e\u{301}" one of two:
        // SQL's length() would count them differently.
        try expectSameSelection(#Predicate<QuerySample> { $0.title.count == 14 })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes?.count == 1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.title.count == ($0.notes ?? "").count })
    }

    @Test func dataContainsData() throws {
        let bytes = Data([2, 3])
        try expectSameSelection(#Predicate<QuerySample> { $0.data.contains(bytes) })
        try expectSameSelection(#Predicate<QuerySample> { $0.data.starts(with: bytes) }, discriminating: false)
        let zero = Data([0])
        try expectSameSelection(#Predicate<QuerySample> { $0.data.contains(zero) })
        try expectSameSelection(#Predicate<QuerySample> { $0.data.starts(with: zero) })
        let start = Data([1])
        try expectSameSelection(#Predicate<QuerySample> { $0.data.starts(with: start) })
    }

    /// Where SQL's byte-wise strings and Swift's canonical equivalence part ways. These tests
    /// pin the documented difference; they fail if it ever changes, one way or the other.
    @Test func knownDifferenceForCanonicallyEquivalentStrings() throws {
        // QuerySample 7 is "Café" with U+00E9, sample 8 "Cafe\u{301}": equal in Swift, not in SQL.
        let composed = #Predicate<QuerySample> { $0.title == "Café" }
        #expect(try QueryFixtures.samples.filter { try composed.evaluate($0) }.map(\.id) == [7, 8])
        #expect(try QueryFixtures.selectedIDs(composed).ids == [7])
        // Substring tests agree: Swift matches whole Characters, and so does SQL.
        let letter = #Predicate<QuerySample> { $0.title.contains("Cafe") }
        #expect(try QueryFixtures.samples.filter { try letter.evaluate($0) }.map(\.id) == [])
        #expect(try QueryFixtures.selectedIDs(letter).ids == [])
        // Ordering: "e\u{301}cole" sorts as "école" (after "m") in Swift, as "e…" in SQL.
        let range = #Predicate<QuerySample> { ("d"..."m").contains($0.title) }
        #expect(try QueryFixtures.samples.filter { try range.evaluate($0) }.map(\.id) == [12, 13, 18, 23])
        #expect(try QueryFixtures.selectedIDs(range).ids == [12, 13, 18, 22, 23])
    }
}
