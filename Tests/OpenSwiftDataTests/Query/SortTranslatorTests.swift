import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// `SortDescriptor` → `ORDER BY`, each checked against `sorted(using:)` on the same samples.
@Suite struct SortTranslatorTests {
    @Test func numbersForwardAndReverse() throws {
        try expectSameOrder([SortDescriptor(\.year)])
        try expectSameOrder([SortDescriptor(\.year, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.big)])
        try expectSameOrder([SortDescriptor(\.score)])
        try expectSameOrder([SortDescriptor(\.score, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.ratio)])
        try expectSameOrder([SortDescriptor(\.int8, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.int16)])
        try expectSameOrder([SortDescriptor(\.int32)])
        try expectSameOrder([SortDescriptor(\.int64, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.uint8)])
        try expectSameOrder([SortDescriptor(\.uint16, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.uint32)])
        try expectSameOrder([SortDescriptor(\.price)])
        try expectSameOrder([SortDescriptor(\.price, order: .reverse)])
    }

    @Test func unsigned64BitValuesSortAsUnsigned() throws {
        try expectSameOrder([SortDescriptor(\.uint64)])
        try expectSameOrder([SortDescriptor(\.uint64, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.uint)])
        let orderBy = try SortTranslator.sql(for: [SortDescriptor(\QuerySample.uint64)], columns: QueryFixtures.columns)
        #expect(orderBy.sqlite == #"("uint64" < 0) ASC, "uint64" ASC"#)
    }

    @Test func datesAndUUIDs() throws {
        try expectSameOrder([SortDescriptor(\.date)])
        try expectSameOrder([SortDescriptor(\.date, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.uuid)])
        try expectSameOrder([SortDescriptor(\.uuid, order: .reverse)])
    }

    @Test func optionalsPutNilFirstForwardAndLastInReverse() throws {
        try expectSameOrder([SortDescriptor(\.rating)])
        try expectSameOrder([SortDescriptor(\.rating, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.count)])
        try expectSameOrder([SortDescriptor(\.maybeDate, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.maybeUUID)])
        try expectSameOrder([SortDescriptor(\.notes)])
        try expectSameOrder([SortDescriptor(\.notes, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.maybePriority)])
        try expectSameOrder([SortDescriptor(\.maybePriority, order: .reverse)])
        // Check the premise: nil first in forward order.
        let sorted = QueryFixtures.samples.sorted(using: SortDescriptor(\QuerySample.rating))
        #expect(sorted.first?.rating == nil)
        #expect(QueryFixtures.samples.sorted(using: SortDescriptor(\QuerySample.rating, order: .reverse)).last?.rating == nil)
    }

    @Test func stringsSortAsSwiftCompares() throws {
        // Case, accents composed and decomposed ("Café" U+00E9 and "Cafe\u{301}" are equal in
        // Swift), digits, emoji, CJK, empty strings: the collation calls String's own `<`.
        try expectSameOrder([SortDescriptor(\.title)])
        try expectSameOrder([SortDescriptor(\.title, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.notes)])
        let orderBy = try SortTranslator.sql(for: [SortDescriptor(\QuerySample.title)], columns: QueryFixtures.columns)
        #expect(orderBy.sqlite == #""title" COLLATE osd_string_order ASC"#)
    }

    @Test func stringsWithTheLexicalComparator() throws {
        try expectSameOrder([SortDescriptor(\.title, comparator: .lexical)])
        try expectSameOrder([SortDescriptor(\.title, comparator: .lexical, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.notes, comparator: .lexical)])
        try expectSameOrder([SortDescriptor(\.notes, comparator: .lexical, order: .reverse)])
        let orderBy = try SortTranslator.sql(
            for: [SortDescriptor(\QuerySample.title, comparator: .lexical, order: .reverse)], columns: QueryFixtures.columns)
        #expect(orderBy.sqlite == #""title" COLLATE osd_lexical DESC"#)
    }

    @Test func enumsByRawValue() throws {
        try expectSameOrder([SortDescriptor(\.priority)])
        try expectSameOrder([SortDescriptor(\.priority, order: .reverse)])
        try expectSameOrder([SortDescriptor(\.grade)])
    }

    @Test func severalDescriptors() throws {
        try expectSameOrder([SortDescriptor(\.year), SortDescriptor(\.title)])
        try expectSameOrder([SortDescriptor(\.priority), SortDescriptor(\.score, order: .reverse), SortDescriptor(\.title)])
        try expectSameOrder([SortDescriptor(\.rating), SortDescriptor(\.notes, order: .reverse), SortDescriptor(\.year)])
        try expectSameOrder([SortDescriptor(\.title, comparator: .lexical), SortDescriptor(\.notes)])
        #expect(try SortTranslator.sql(for: [SortDescriptor<QuerySample>](), columns: QueryFixtures.columns).sqlite == "")
    }

    /// The collations for Apple's `.localizedStandard` (the default comparator of `String` sort
    /// descriptors there) and `.localized`. The open-source Foundation cannot make those
    /// comparators, so the translation is exercised below the descriptor.
    @Test(arguments: [SortTranslator.StringOrdering.localizedStandard, .localized])
    func localizedCollations(_ ordering: SortTranslator.StringOrdering) throws {
        let column = QuerySampleColumns().column(for: \QuerySample.title)!
        let terms = try SortTranslator.terms(
            column: column, valueType: String.self, stringOrdering: ordering, order: .forward,
            keyPathDescription: "\\QuerySample.title")
        let actual = try QueryFixtures.sharedDatabase.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM sample ORDER BY \(terms.map(\.sqlite).joined(separator: ", ")), id")
        }
        let compare: (String, String) -> ComparisonResult = ordering == .localizedStandard
            ? { $0.localizedStandardCompare($1) } : { $0.localizedCompare($1) }
        let expected = QueryFixtures.samples.map(\.title).enumerated()
            .sorted { lhs, rhs in
                let result = compare(lhs.element, rhs.element)
                return result == .orderedSame ? lhs.offset < rhs.offset : result == .orderedAscending
            }
            .map(\.element)
        #expect(actual == expected)
        if ordering == .localizedStandard {
            // Numbers in names sort by value: file9 before file10.
            #expect(actual.firstIndex(of: "file9")! < actual.firstIndex(of: "file10")!)
        }
    }

    @Test func lexicalIsTheOnlyComparatorOnThisPlatform() {
        #expect(SortTranslator.ordering(of: .lexical) == .lexical)
        #expect(SortTranslator.ordering(of: String.StandardComparator(.lexical, order: .reverse)) == .lexical)
    }
}
