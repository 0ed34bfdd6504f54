import Foundation
import OpenSwiftData
import Testing
import TestSupport

/// Random values and predicates on each backend: what the store saves comes back unchanged,
/// and what a fetch selects is what Swift's own evaluation of the predicate selects.
@Suite struct FuzzTests {
    /// Strings of any scalars but NUL (SQLite keeps NUL; PostgreSQL refuses it, by name, in
    /// PostgresContainerTests), numbers of any bit pattern but NaN, sub-microsecond dates,
    /// decimals of random digits.
    ///
    /// - Parameter alphabetOnly: strings of a few letters and marks only: random scripts' text
    ///   has no consistent localized order for `sorted(using:)` to compare with.
    static func samples(_ count: Int, seed: UInt64, alphabetOnly: Bool = false) -> [Sample] {
        var generator = SplitMix(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", "b", "A", "é", "e", "\u{301}", "ß", "😀", " ", "%", "_", "'", "\"", "\\", "\t", "\n", "\r", "N"]
        return (0..<count).map { index in
            let length = Int.random(in: 0...8, using: &generator)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in
                alphabetOnly || Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)!
                    : Unicode.Scalar(UInt32.random(in: 1...0xD7FF, using: &generator))!
            }))
            var number = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if number.isNaN || Bool.random(using: &generator) { number = Double(Int.random(in: -20...20, using: &generator)) / 4 }
            let amount = Decimal(sign: Bool.random(using: &generator) ? .plus : .minus, exponent: Int.random(in: -20...20, using: &generator),
                                 significand: Decimal(UInt64.random(in: 0...1_000_000, using: &generator)))
            let when = Date(timeIntervalSinceReferenceDate: Double.random(in: -3e9...3e9, using: &generator))
            let maybe: Int? = Bool.random(using: &generator) ? nil : Int.random(in: -5...5, using: &generator)
            return Sample(index: index, text: text, number: number, amount: amount, when: when, flag: Bool.random(using: &generator), maybe: maybe)
        }
    }

    @Test(arguments: Backend.available) func randomValuesComeBackUnchanged(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let written = Self.samples(400, seed: 7)
        for sample in written { context.insert(sample) }
        try context.save()
        let read = try ModelContext(try store.container()).fetch(FetchDescriptor<Sample>(sortBy: [SortDescriptor(\.index)]))
        #expect(read.map(\.text) == written.map(\.text))
        #expect(read.map(\.number.bitPattern) == written.map(\.number.bitPattern))
        #expect(read.map(\.amount) == written.map(\.amount))
        #expect(read.map(\.when) == written.map(\.when))
        #expect(read.map(\.maybe) == written.map(\.maybe))
        #expect(read.map(\.flag) == written.map(\.flag))
    }

    /// Each sample is found by its own values, by equality, in SQL.
    @Test(arguments: Backend.available) func equalityFindsEachStoredValue(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let written = Self.samples(60, seed: 11)
        for sample in written { context.insert(sample) }
        try context.save()
        let reader = ModelContext(try store.container())
        for sample in written {
            let (text, number, amount, when) = (sample.text, sample.number, sample.amount, sample.when)
            let expected = Set(written.filter { $0.text == text && $0.number == number && $0.amount == amount && $0.when == when }.map(\.index))
            let found = try reader.fetch(FetchDescriptor<Sample>(predicate: #Predicate {
                $0.text == text && $0.number == number && $0.amount == amount && $0.when == when
            }))
            #expect(Set(found.map(\.index)) == expected, "sample \(sample.index)")
        }
    }

    /// Random comparisons, combined, selected by the store (or in memory where only Swift can
    /// answer) exactly as `Predicate.evaluate` selects them.
    @Test(arguments: Backend.available) func randomPredicatesSelectWhatSwiftSelects(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let written = Self.samples(200, seed: 23)
        for sample in written { context.insert(sample) }
        try context.save()
        let reader = ModelContext(try store.container())
        var generator = SplitMix(seed: 99)
        for round in 0..<60 {
            let pivot = written.randomElement(using: &generator)!
            let (number, amount, when, maybe, text) = (pivot.number, pivot.amount, pivot.when, Int.random(in: -5...5, using: &generator), pivot.text)
            let prefix = String(pivot.text.prefix(1))
            let predicates: [Predicate<Sample>] = [
                #Predicate { $0.number < number && $0.flag },
                #Predicate { $0.amount >= amount || $0.maybe == nil },
                #Predicate { $0.when > when && !($0.maybe == maybe) },
                #Predicate { $0.maybe != nil && $0.maybe! > maybe },
                #Predicate { $0.text < text },
                #Predicate { $0.text.starts(with: prefix) },
                #Predicate { $0.text.contains(prefix) || $0.number == number },
                #Predicate { $0.text.localizedStandardContains(prefix) },
                #Predicate { ($0.maybe ?? 0) * 2 + 1 > maybe },
            ]
            let predicate = predicates[round % predicates.count]
            let expected = try written.filter { try predicate.evaluate($0) }.map(\.index).sorted()
            let descriptor = FetchDescriptor<Sample>(predicate: predicate, sortBy: [SortDescriptor(\.index)])
            #expect(try reader.fetch(descriptor).map(\.index) == expected, "round \(round)")
            #expect(try reader.fetchCount(descriptor) == expected.count, "round \(round)")
        }
    }

    /// Sorts by every kind of value order the rows as `sorted(using:)` does.
    @Test(arguments: Backend.available) func sortsOrderAsSwiftOrders(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let written = Self.samples(150, seed: 5, alphabetOnly: true)
        for sample in written { context.insert(sample) }
        try context.save()
        let reader = ModelContext(try store.container())
        let orders: [[SortDescriptor<Sample>]] = [
            [SortDescriptor(\.number), SortDescriptor(\.index)],
            [SortDescriptor(\.amount, order: .reverse), SortDescriptor(\.index)],
            [SortDescriptor(\.when), SortDescriptor(\.index)],
            [SortDescriptor(\.maybe), SortDescriptor(\.index)],
            [SortDescriptor(\.text), SortDescriptor(\.index)],
        ]
        for (number, order) in orders.enumerated() {
            let expected = written.sorted(using: order).map(\.index)
            let fetched = try reader.fetch(FetchDescriptor<Sample>(sortBy: order)).map(\.index)
            let firstDifference = fetched.indices.first { fetched[$0] != expected[$0] }
            if let firstDifference {
                let (got, wanted) = (written[fetched[firstDifference]], written[expected[firstDifference]])
                Issue.record("order \(number) differs from Swift's at \(firstDifference): \(got.index) (\(got.number), \(got.amount), \(got.when), \(got.text.debugDescription)) before \(wanted.index) (\(wanted.number), \(wanted.amount), \(wanted.when), \(wanted.text.debugDescription))")
            }
        }
    }
}
