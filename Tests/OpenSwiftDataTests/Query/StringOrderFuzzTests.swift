import Foundation
import Testing
import TestSupport
@testable import OpenSwiftData

/// Strings ordered in SQL by their NFC forms' scalars (``StringSemantics/storedOrder(_:_:)``,
/// Swift's `<` wherever that answers), on random Unicode: accents composed and decomposed,
/// combining marks in either canonical order, Hangul as syllables and as jamo, case, digits,
/// CJK, emoji sequences. Each round runs on SQLite and, when the run has a server, in
/// PostgreSQL (`normalize(…, NFC) COLLATE "C"`); a failure prints its seed.
@Suite struct StringOrderFuzzTests {
    /// Pieces a random string is made of, several canonically equivalent to others.
    static let pieces: [String] = [
        "a", "A", "b", "B", "e", "E", "z", "Z", "ss", "ß", "0", "1", "9", "10", " ", "-", "_", ".",
        "é", "e\u{301}", "É", "E\u{301}", "ä", "a\u{308}", "Ä", "ñ", "n\u{303}", "ø", "å", "a\u{30A}", "Å", "\u{212B}",
        "\u{301}", "\u{323}", "a\u{323}\u{301}", "a\u{301}\u{323}", "\u{1E05}", "ǻ",
        "가", "\u{1100}\u{1161}", "한", "\u{1112}\u{1161}\u{11AB}", "日", "本", "語", "中", "ｱ", "ア",
        "😀", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷", "\u{FB01}", "ﬀ", "Ω", "\u{2126}", "ω", "İ", "ı", "i",
    ]

    static func randomString(_ generator: inout SplitMix) -> String {
        let length = Int.random(in: 0...5, using: &generator)
        return (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomStringsSortAsSwiftSortsThem(seed: UInt64) throws {
        var generator = SplitMix(seed: seed)
        let samples = (1...300).map { id in
            QuerySample(id) {
                $0.title = Self.randomString(&generator)
                $0.notes = Bool.random(using: &generator) ? nil : Self.randomString(&generator)
            }
        }
        var orders: [[SortDescriptor<QuerySample>]] = [
            [SortDescriptor(\QuerySample.title)], [SortDescriptor(\.title, order: .reverse)],
            [SortDescriptor(\.notes), SortDescriptor(\.title, order: .reverse)],
        ]
        #if !canImport(Darwin)
        // Foundation's `.lexical` is String's order where Foundation is open source.
        orders += [[SortDescriptor(\.title, comparator: .lexical)], [SortDescriptor(\.title, comparator: .lexical, order: .reverse)]]
        #endif
        for descriptors in orders {
            // The reference: NFC scalars, ties by key (a stable sort of the rows in key order).
            let reference = samples.sorted { lhs, rhs in
                for descriptor in descriptors {
                    let order = StringSemantics.storedOrder(
                        descriptor.keyPath == \QuerySample.title ? lhs.title : lhs.notes ?? "",
                        descriptor.keyPath == \QuerySample.title ? rhs.title : rhs.notes ?? "")
                    let nilFirst = descriptor.keyPath == \QuerySample.notes ? nilOrder(lhs.notes, rhs.notes) : .orderedSame
                    let decided = nilFirst != .orderedSame ? nilFirst : order
                    if decided != .orderedSame {
                        return (decided == .orderedAscending) == (descriptor.order == .forward)
                    }
                }
                return lhs.id < rhs.id
            }.map(\.id)
            let orderBy = try SortTranslator.sql(for: descriptors, columns: QueryFixtures.columns)
            let sqlite = try QueryFixtures.database(samples).read { db in
                try Int.fetchAll(db, sql: "SELECT id FROM sample ORDER BY \(orderBy.sqlite), id")
            }
            #expect(sqlite == reference, "seed \(seed), SQLite\(firstDifference(sqlite, reference, samples))")
            if let postgres = try PostgresSampleTable.of(samples)?.orderedIDs(by: orderBy) {
                #expect(postgres.ids == reference, "seed \(seed), PostgreSQL\(firstDifference(postgres.ids, reference, samples))")
            }
            // And for strings in NFC the reference is Swift's own <.
            let byID = Dictionary(uniqueKeysWithValues: samples.map { ($0.id, $0) })
            let titles = reference.map { byID[$0]!.title }.filter { $0.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual($0.unicodeScalars) }
            if descriptors.count == 1 {
                let forward = descriptors[0].order == .forward
                for (index, earlier) in titles.enumerated() {
                    for later in titles[(index + 1)...] {
                        #expect(!(forward ? later < earlier : earlier < later), "seed \(seed): \(earlier.debugDescription) before \(later.debugDescription)")
                    }
                }
            }
        }
    }

    private func nilOrder(_ lhs: String?, _ rhs: String?) -> ComparisonResult {
        switch (lhs, rhs) {
        case (nil, nil): .orderedSame
        case (nil, _): .orderedAscending
        case (_, nil): .orderedDescending
        default: .orderedSame
        }
    }

    /// Where Swift's own `<` is no order (neither of two different strings less; a string
    /// less than one equal to a string it is greater than), the stores order by NFC forms.
    @Test func whereSwiftsLessThanIsNoOrderTheStoresOrderByNFC() {
        let (decomposed, longer) = ("E\u{301}", "\u{C9}-")
        #expect(!(decomposed < longer) && !(longer < decomposed) && decomposed != longer)
        #expect(StringSemantics.storedOrder(decomposed, longer) == .orderedAscending)
        #expect(StringSemantics.storedOrder(longer, decomposed) == .orderedDescending)
        let (jamo, syllable, longerSyllable) = ("\u{1112}\u{1161}\u{11AB}", "\u{D55C}", "\u{D55C}A")
        #expect(jamo == syllable && syllable < longerSyllable && longerSyllable < jamo)
        #expect(StringSemantics.storedOrder(jamo, longerSyllable) == .orderedAscending)
        #expect(StringSemantics.storedOrder("e\u{301}", "\u{E9}") == .orderedSame)
        #expect(StringSemantics.storedOrder(jamo, syllable) == .orderedSame)
    }

    /// What the fuzz relies on: canonically equivalent pieces are equal to Swift, so the SQL
    /// must tie them (and then order them by key, as a stable sort keeps them).
    @Test func thePiecesHoldCanonicallyEquivalentPairs() {
        #expect("e\u{301}" == "é")
        #expect("a\u{323}\u{301}" == "a\u{301}\u{323}")
        #expect("\u{1100}\u{1161}" == "가")
        #expect("\u{212B}" == "Å")
        #expect("\u{2126}" == "Ω")
    }
}
