import Foundation
import Testing
@testable import OpenSwiftData
import TestSupport

@Model final class Invoice {
    var number: Int
    var amount: Decimal
    var discount: Decimal?

    init(number: Int, amount: Decimal, discount: Decimal? = nil) {
        self.number = number
        self.amount = amount
        self.discount = discount
    }
}

extension SplitMix {
    /// A decimal of every kind: zero, NaN, small integers, trailing zeros, up to 38 digits,
    /// exponents over `Decimal`'s whole range, and values that share a prefix of digits.
    mutating func decimal(exponents: ClosedRange<Int> = -128...127) -> Decimal {
        let sign: FloatingPointSign = next() % 2 == 0 ? .plus : .minus
        switch next() % 16 {
        case 0: return 0
        case 1: return .nan
        case 2: return Decimal(Int(next() % 11) - 5)
        case 3: return Decimal(sign: sign, exponent: Int(next() % 7) - 3, significand: Decimal(Int(next() % 100) * 100))
        case 4:
            let digits = "12345678901234567890123456789012345678".prefix(Int(next() % 38) + 1)
            return Decimal(sign: sign, exponent: Int(next() % 5) - 2 - digits.count, significand: Decimal(string: String(digits))!)
        default:
            let count = Int(next() % 38) + 1
            var digits = String(next() % 9 + 1)
            for _ in 1..<count { digits += String(next() % 10) }
            let exponent = exponents.lowerBound + Int(next() % UInt64(exponents.count))
            return Decimal(sign: sign, exponent: exponent, significand: Decimal(string: digits)!)
        }
    }
}

/// Decimals compare, sort and compute in SQL exactly as Swift's `Decimal` does: their stored
/// text orders as the values do (`OrderedDecimalText`), and arithmetic runs `Decimal`'s own
/// operators. Each check is against Swift on the same values.
@Suite struct DecimalPredicateTests {
    @Test func theStoredTextRoundTripsAndOrdersAsTheValues() throws {
        var random = SplitMix(seed: 0xDEC1)
        let values = (0..<20_000).map { _ in random.decimal() }
        for value in values {
            let text = OrderedDecimalText.text(for: value)
            let read = try #require(OrderedDecimalText.decimal(from: text), "\(value) stored as \(text)")
            #expect(read == value && read.isNaN == value.isNaN, "\(value) stored as \(text) reads \(read)")
        }
        for (a, b) in zip(values, values.dropFirst() + values.prefix(1)) {
            let (ta, tb) = (OrderedDecimalText.text(for: a), OrderedDecimalText.text(for: b))
            #expect((ta < tb) == (a < b), "\(a) < \(b) is \(a < b), but their texts \(ta) and \(tb) say otherwise")
            #expect((ta == tb) == (a == b), "\(a) == \(b) is \(a == b), but their texts \(ta) and \(tb) say otherwise")
        }
        #expect(OrderedDecimalText.text(for: Decimal(string: "12.5")!) == "P501125")
        #expect(OrderedDecimalText.text(for: Decimal(string: "-12.5")!) == "N498874~")
        #expect(OrderedDecimalText.text(for: Decimal(string: "1.50")!) == OrderedDecimalText.text(for: Decimal(string: "1.5")!))
    }

    @Test func theExtremesRoundTrip() throws {
        for value in [Decimal.greatestFiniteMagnitude, -Decimal.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude] {
            let text = OrderedDecimalText.text(for: value)
            #expect(OrderedDecimalText.decimal(from: text) == value, "\(value) stored as \(text)")
        }
    }

    /// Text a store could hold that this form never writes (a crafted or damaged file) reads as
    /// no value, never as another one, and never stops the process.
    @Test func textNeverWrittenIsNoValue() throws {
        let nines = String(repeating: "9", count: 39)
        let twoTo128 = "340282366920938463463374607431768211456"
        for text in ["P665" + nines, "P500" + twoTo128, "P6651", "P0001", "P999" + "1", "N9998~", "N6278", "P5010", "P50101", "N49819~", "Mx", "O0", "P50", ""] {
            #expect(OrderedDecimalText.decimal(from: text) == nil, "\(text)")
        }
        var random = SplitMix(seed: 0xDEC4)
        let alphabet = Array("MNOP0123456789~-.e".utf8)
        for _ in 0..<200_000 {
            var bytes = [alphabet[Int(random.next() % 4)]]
            for _ in 0..<random.next() % 48 {
                bytes.append(random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard OrderedDecimalText.isOrdered(text), let value = OrderedDecimalText.decimal(from: text) else { continue }
            #expect(OrderedDecimalText.text(for: value) == text, "\(text) reads as \(value)")
        }
    }

    /// Values written to a file, read back after reopening, and queried with comparisons,
    /// ranges, membership and sorts whose answers are Swift's.
    @Test func comparisonsRangesAndSortsAgreeWithSwift() throws {
        var random = SplitMix(seed: 0xDEC2)
        let amounts = (0..<1_500).map { _ in random.decimal() }
        let url = temporaryStoreURL("invoices")
        do {
            let context = ModelContext(try ModelContainer(for: Invoice.self, configurations: ModelConfiguration(url: url)))
            for (number, amount) in amounts.enumerated() {
                context.insert(Invoice(number: number, amount: amount, discount: number % 3 == 0 ? nil : random.decimal()))
            }
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Invoice.self, configurations: ModelConfiguration(url: url)))
        let invoices = try context.fetch(FetchDescriptor<Invoice>(sortBy: [SortDescriptor(\.number)]))
        #expect(invoices.map(\.amount).elementsEqual(amounts) { $0 == $1 && $0.isNaN == $1.isNaN })

        for _ in 0..<25 {
            let pick = random.next() % 2 == 0 ? amounts[Int(random.next() % UInt64(amounts.count))] : random.decimal()
            let other = random.decimal()
            let (low, high) = pick < other ? (pick, other) : (other, pick)
            let picked = [pick, other]
            let predicates: [Predicate<Invoice>] = [
                #Predicate { $0.amount > pick },
                #Predicate { $0.amount <= pick },
                #Predicate { $0.amount == pick },
                #Predicate { $0.amount != pick },
                #Predicate { $0.amount >= low && $0.amount < high },
                #Predicate { (low...high).contains($0.amount) },
                #Predicate { picked.contains($0.amount) },
                #Predicate { ($0.discount ?? 0) > pick },
                #Predicate { $0.discount != nil && $0.discount! < $0.amount },
            ]
            for predicate in predicates {
                try expectSQLAgreesWithSwift(predicate, context: context, invoices: invoices)
            }
        }
        for order in [SortOrder.forward, .reverse] {
            let sorted = try context.fetch(FetchDescriptor<Invoice>(sortBy: [SortDescriptor(\.amount, order: order)])).map(\.amount)
            let expected = amounts.sorted { order == .forward ? $0 < $1 : $1 < $0 }
            #expect(sorted.elementsEqual(expected) { $0 == $1 }, "sorted \(order)")
        }
    }

    @Test func arithmeticAgreesWithSwift() throws {
        var random = SplitMix(seed: 0xDEC3)
        let context = ModelContext(try ModelContainer(for: Invoice.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        // Exponents a product of two cannot take below Decimal's smallest, where Foundation
        // stops the process (see productsTooSmallForDecimalAreRefused).
        for number in 0..<600 {
            context.insert(Invoice(number: number, amount: random.decimal(exponents: -60...60), discount: random.decimal(exponents: -60...60)))
        }
        try context.save()
        let invoices = try context.fetch(FetchDescriptor<Invoice>())
        for _ in 0..<15 {
            let delta = random.decimal(exponents: -60...60)
            let limit = random.decimal()
            let predicates: [Predicate<Invoice>] = [
                #Predicate { $0.amount + delta > limit },
                #Predicate { $0.amount - delta <= limit },
                #Predicate { $0.amount * delta >= limit },
                #Predicate { -$0.amount < limit },
                #Predicate { $0.amount * $0.discount! != $0.amount },
                #Predicate { $0.amount + $0.discount! == $0.discount! + $0.amount },
                #Predicate { $0.amount - 1 < 0 },
            ]
            for predicate in predicates {
                try expectSQLAgreesWithSwift(predicate, context: context, invoices: invoices)
            }
        }
    }

    @Test func productsTooSmallForDecimalAreRefused() throws {
        let context = ModelContext(try ModelContainer(for: Invoice.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Invoice(number: 1, amount: Decimal(sign: .plus, exponent: -100, significand: 3)))
        try context.save()
        let tiny = Decimal(sign: .plus, exponent: -100, significand: 7)
        let error = #expect(throws: (any Error).self) {
            try context.fetch(FetchDescriptor(predicate: #Predicate<Invoice> { $0.amount * tiny > 0 }))
        }
        #expect("\(error!)".contains("is smaller than the smallest Decimal"))
    }

    /// A decimal overflowing `Decimal` is NaN in Swift, and in SQL.
    @Test func overflowIsNaNAsInSwift() throws {
        let context = ModelContext(try ModelContainer(for: Invoice.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Invoice(number: 1, amount: .greatestFiniteMagnitude))
        context.insert(Invoice(number: 2, amount: 1))
        try context.save()
        let nan = Decimal.nan
        let fetched = try context.fetch(FetchDescriptor(predicate: #Predicate<Invoice> { $0.amount * $0.amount == nan }))
        #expect(fetched.map(\.number) == [1])
        #expect((Decimal.greatestFiniteMagnitude * .greatestFiniteMagnitude).isNaN)
    }

    private func expectSQLAgreesWithSwift(
        _ predicate: Predicate<Invoice>, context: ModelContext, invoices: [Invoice], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.number).sorted()
        let expected = try invoices.filter { try predicate.evaluate($0) }.map(\.number).sorted()
        #expect(fetched == expected, "\(predicate)", sourceLocation: sourceLocation)
    }
}
