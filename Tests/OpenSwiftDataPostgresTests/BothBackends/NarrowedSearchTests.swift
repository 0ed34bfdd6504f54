import Foundation
import OpenSwiftData
import Testing
import TestSupport

@Model final class SearchEntry {
    var index: Int
    var name: String
    init(index: Int, name: String) {
        self.index = index
        self.name = name
    }
}

/// Searches only Swift decides exactly (`contains` and `starts(with:)` by Characters,
/// `localizedStandardContains`, a string's `count`), alone and under `!`, `&&` and `||`: PostgreSQL reads only the
/// rows its SQL narrows them to, and every fetch, page and count must still equal what
/// `Predicate.evaluate` and `sorted(using:)` give on every stored model.
@Suite struct NarrowedSearchTests {
    static let pieces = [
        "anna", "Anna", "ANNA", "smith", "Straße", "STRASSE", "strasse", "ﬁle", "file", "café", "cafe\u{301}", "CAFÉ",
        "\u{212A}elvin", "kelvin", "İstanbul", "ıi", "e", "\u{301}", "\r\n", "\r", "\n", "한", "\u{1112}\u{1161}\u{11AB}",
        "日本", "👩‍👩‍👧", "👩", "x", " ", "%", "_", "Zoë", "zoe", "o\u{308}", "ö", "ǰ", "j", "µ", "μ",
    ]

    static func names(_ count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
    }

    /// Names of random scalars, most from the ranges where plainness is decided (the edges
    /// of PlainText's ranges, combining marks, joiners, jamo, singletons, controls).
    static func randomScalarNames(_ count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix(seed: seed)
        let edges: [ClosedRange<UInt32>] = [
            0x01...0x0E, 0x41...0x5A, 0x61...0x7A, 0x9F...0xAF, 0x2F0...0x36F, 0x370...0x390, 0x47F...0x48B, 0x1100...0x1112,
            0x1161...0x1175, 0x11A8...0x11B0, 0x1DF0...0x1E05, 0x1F00...0x1F10, 0x1FED...0x1FF0, 0x200B...0x2011, 0x2024...0x2031, 0x205D...0x2062,
            0x2126...0x212B, 0x3099...0x309C, 0xAC00...0xAC05, 0xD7A2...0xD7A5, 0xFE0E...0xFE0F, 0x1F1E6...0x1F1E9, 0x1F3FB...0x1F3FC,
        ]
        return (0..<count).map { _ in
            String(String.UnicodeScalarView((0..<Int.random(in: 0...6, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: edges.randomElement(using: &generator)!, using: &generator))
            }))
        }
    }

    @Test(arguments: Backend.available, [UInt64(48), 4_049])
    func narrowedSearchesAnswerAsSwiftDoes(backend: Backend, seed: UInt64) throws {
        let store = try backend.store([SearchEntry.self])
        let writing = ModelContext(try store.container())
        let names = seed == 48 ? Self.names(600, seed: seed) : Self.randomScalarNames(600, seed: seed)
        for (index, name) in names.enumerated() { writing.insert(SearchEntry(index: index, name: name)) }
        try writing.save()

        let context = ModelContext(try store.container())
        let everything = try context.fetch(FetchDescriptor<SearchEntry>(sortBy: [SortDescriptor(\.index)]))
        var generator = SplitMix(seed: seed &* 101)
        let needles = ["", "ss", "SS", "fi", "e", "É", "k", "K", "\r", "\n", "a", "ann", "Strasse", "ö", "o", "한", "👩", "i", "I", "%", "_"]
            + (0..<12).map { _ in
                // A run of Characters or, now and then, of scalars (which may split a Character).
                let name = names.randomElement(using: &generator)!
                guard !name.isEmpty else { return "x" }
                if Bool.random(using: &generator) {
                    let scalars = Array(name.unicodeScalars)
                    let start = Int.random(in: 0..<scalars.count, using: &generator)
                    let end = Int.random(in: start...scalars.count, using: &generator)
                    return String(String.UnicodeScalarView(scalars[start..<end]))
                }
                let characters = Array(name)
                let start = Int.random(in: 0..<characters.count, using: &generator)
                let end = Int.random(in: start...characters.count, using: &generator)
                return String(characters[start..<end])
            }
        for needle in needles {
            let other = needles.randomElement(using: &generator)!
            let k = needle.count
            let predicates: [(String, Predicate<SearchEntry>)] = [
                ("localizedStandardContains", #Predicate { $0.name.localizedStandardContains(needle) }),
                ("contains", #Predicate { $0.name.contains(needle) }),
                ("starts(with:)", #Predicate { $0.name.starts(with: needle) }),
                ("!localizedStandardContains", #Predicate { !$0.name.localizedStandardContains(needle) }),
                ("contains || index < 10", #Predicate { $0.name.contains(needle) || $0.index < 10 }),
                ("!(contains && localizedStandardContains other)", #Predicate { !($0.name.contains(needle) && $0.name.localizedStandardContains(other)) }),
                ("count == k", #Predicate { $0.name.count == k }),
                ("count > k || starts(with:)", #Predicate { $0.name.count > k || $0.name.starts(with: needle) }),
                ("!(k < count) && count != 1", #Predicate { !(k < $0.name.count) && $0.name.count != 1 }),
            ]
            for (label, predicate) in predicates {
                let expected = try everything.filter { try predicate.evaluate($0) }
                let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index)]))
                #expect(fetched.map(\.index) == expected.map(\.index), "\(backend) \(label) \(needle.debugDescription) \(other.debugDescription)")
                #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "\(backend) count \(label) \(needle.debugDescription)")

                let order = [SortDescriptor(\SearchEntry.name), SortDescriptor(\SearchEntry.index)]
                var page = FetchDescriptor(predicate: predicate, sortBy: order)
                page.fetchOffset = 3
                page.fetchLimit = 7
                // Both stores order strings by their NFC forms' scalars, which is Swift's `<` on
                // NFC strings; on others (decomposed Hangul here) Swift's `<` is no total order
                // for sorted(using:) to follow (StringOrderFuzzTests).
                let expectedPage = expected.sorted { a, b in
                    let (x, y) = (Array(a.name.precomposedStringWithCanonicalMapping.unicodeScalars), Array(b.name.precomposedStringWithCanonicalMapping.unicodeScalars))
                    return x == y ? a.index < b.index : x.lexicographicallyPrecedes(y)
                }.dropFirst(3).prefix(7)
                #expect(try context.fetch(page).map(\.index) == expectedPage.map(\.index), "\(backend) page \(label) \(needle.debugDescription)")
                #expect(try context.fetchCount(page) == expectedPage.count, "\(backend) page count \(label) \(needle.debugDescription)")
                #expect(try context.fetchIdentifiers(page) == expectedPage.map(\.persistentModelID), "\(backend) identifiers \(label) \(needle.debugDescription)")
            }
        }
    }

    /// Matches that sort after thousands of candidates Swift rejects: the store reads further
    /// (PostgreSQL in growing windows) until the page is full, and the page is Swift's.
    @Test(arguments: Backend.available) func aPageWhoseMatchesSortLastIsStillFound(backend: Backend) throws {
        let store = try backend.store([SearchEntry.self])
        let writing = ModelContext(try store.container())
        // Names beyond ASCII: every one a candidate for localizedStandardContains on PostgreSQL.
        for index in 0..<3_000 { writing.insert(SearchEntry(index: index, name: index < 2_990 ? "É\(index)" : "Ézzz\(index)")) }
        try writing.save()
        let context = ModelContext(try store.container())
        var page = FetchDescriptor<SearchEntry>(predicate: #Predicate { $0.name.localizedStandardContains("ZZZ") }, sortBy: [SortDescriptor(\.name)])
        page.fetchOffset = 2
        page.fetchLimit = 5
        #expect(try context.fetch(page).map(\.name) == ["Ézzz2992", "Ézzz2993", "Ézzz2994", "Ézzz2995", "Ézzz2996"])
        #expect(try context.fetchCount(page) == 5)
        page.fetchLimit = 50
        #expect(try context.fetch(page).map(\.index) == Array(2_992..<3_000))
    }

    /// A page of a search keeps only its models: the candidates Swift rejected on the way
    /// (every name here is beyond ASCII, so each is a candidate on PostgreSQL) are let go.
    @Test(arguments: Backend.available) func aSearchPageKeepsOnlyItsModels(backend: Backend) throws {
        let store = try backend.store([SearchEntry.self])
        let writing = ModelContext(try store.container())
        for index in 0..<600 { writing.insert(SearchEntry(index: index, name: index % 3 == 0 ? "Zoë \(index)" : "Ånna \(index)")) }
        try writing.save()
        let identifiers = try ModelContext(try store.container()).fetchIdentifiers(FetchDescriptor<SearchEntry>(sortBy: [SortDescriptor(\.index)]))

        let context = ModelContext(try store.container())
        var page = FetchDescriptor<SearchEntry>(predicate: #Predicate { $0.name.localizedStandardContains("zoe") }, sortBy: [SortDescriptor(\.index)])
        page.fetchLimit = 20
        let found = try context.fetch(page)
        #expect(found.map(\.index) == Array(stride(from: 0, to: 60, by: 3)))
        let held = identifiers.prefix(60).filter { (context.registeredModel(for: $0) as SearchEntry?) != nil }
        #expect(held == found.map(\.persistentModelID))
        #expect(try context.fetchCount(page) == 20)
    }
}
