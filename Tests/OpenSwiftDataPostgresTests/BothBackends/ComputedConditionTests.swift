import Foundation
import OpenSwiftData
import Testing

@Model final class Reading {
    var index: Int
    var amount: Double
    var divisor: Double
    var single: Float
    var label: String
    var note: String?
    init(index: Int, amount: Double, divisor: Double, single: Float, label: String, note: String?) {
        self.index = index
        self.amount = amount
        self.divisor = divisor
        self.single = single
        self.label = label
        self.note = note
    }
}

/// Conditions computed with Swift's own arithmetic and comparisons (`Double` division by zero,
/// `Float` rounding at its limits, NaN from infinities, `localizedCompare`, force unwraps, a
/// test compared with `==`), alone and beside conditions SQL decides: every fetch, count and
/// page equals what `Predicate.evaluate` gives on every stored model. PostgreSQL computes the
/// arithmetic as Swift does, and narrows what it cannot compute to the other conditions.
@Suite struct ComputedConditionTests {
    static let amounts: [Double] = [1, -1, 2.5, -7.25, 1e300, -1e-300, .infinity, -.infinity, 0.1, 3, 0]
    static let divisors: [Double] = [0, -0.0, 2, -3, .infinity, 0.5, 1]
    static let singles: [Float] = [0.1, 0.2, 3.4e38, -3.4e38, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1.5, .infinity, 0, 7]
    static let labels = ["apple", "Äpfel", "banana", "Zebra", "mango", "éclair", "", "m", "M"]

    static func readings() -> [Reading] {
        var readings: [Reading] = []
        for index in 0..<200 {
            let amount = amounts[index % amounts.count]
            var divisor = divisors[(index / 3) % divisors.count]
            // 0 / 0 and ∞ / ∞ are NaN, which SQLite refuses to compute (PredicateArithmeticTests).
            if (amount == 0 && divisor == 0) || (amount.isInfinite && divisor.isInfinite) { divisor = 2 }
            readings.append(Reading(
                index: index, amount: amount, divisor: divisor, single: singles[(index / 2) % singles.count],
                label: labels[index % labels.count], note: index % 4 == 0 ? nil : "note \(index)"))
        }
        return readings
    }

    @Test(arguments: Backend.available) func computedConditionsAnswerAsSwiftDoes(backend: Backend) throws {
        let store = try backend.store([Reading.self])
        let writing = ModelContext(try store.container())
        for reading in Self.readings() { writing.insert(reading) }
        try writing.save()

        let context = ModelContext(try store.container())
        let everything = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.index)]))
        let infinity = Float.infinity
        let (b, c): (Float, Float) = (0.2, 0.3)
        let ascending = ComparisonResult.orderedAscending
        let predicates: [(String, Predicate<Reading>)] = [
            ("amount / divisor > 1", #Predicate { $0.amount / $0.divisor > 1 }),
            ("index even && amount / divisor < 0", #Predicate { $0.index % 2 == 0 && $0.amount / $0.divisor < 0 }),
            ("!(amount / divisor >= 0) || label starts with b", #Predicate { !($0.amount / $0.divisor >= 0) || $0.label.starts(with: "b") }),
            ("amount - amount != 0 (NaN for infinities)", #Predicate { $0.amount - $0.amount != 0 }),
            ("amount * 0 > -1 (NaN for infinities)", #Predicate { $0.amount * 0 > -1 }),
            ("single * 2 == infinity", #Predicate { $0.single * 2 == infinity }),
            ("single / 3 == 0 && index > 2", #Predicate { $0.single / 3 == 0 && $0.index > 2 }),
            ("single + 0.2 == 0.3", #Predicate { $0.single + b == c }),
            ("localizedCompare && index < 100", #Predicate { $0.label.localizedCompare("m") == ascending && $0.index < 100 }),
            ("caseInsensitiveCompare || index == 3", #Predicate { $0.label.caseInsensitiveCompare("M") == ascending || $0.index == 3 }),
            ("note != nil && note!.count > 6", #Predicate { $0.note != nil && $0.note!.count > 6 }),
            ("contains == index % 3 == 0", #Predicate { $0.label.contains("a") == ($0.index % 3 == 0) }),
        ]
        for (label, predicate) in predicates {
            let expected = try everything.filter { try predicate.evaluate($0) }
            #expect(!expected.isEmpty && expected.count < everything.count, "\(label) discriminates")
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index)]))
            #expect(fetched.map(\.index) == expected.map(\.index), "\(backend) \(label)")
            #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "\(backend) count \(label)")
            var page = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index, order: .reverse)])
            page.fetchOffset = 2
            page.fetchLimit = 5
            let expectedPage = Array(expected.reversed().dropFirst(2).prefix(5))
            #expect(try context.fetch(page).map(\.index) == expectedPage.map(\.index), "\(backend) page \(label)")
            #expect(try context.fetchCount(page) == expectedPage.count, "\(backend) page count \(label)")
        }
    }

    /// 0 / 0 is NaN: PostgreSQL answers as Swift does (SQLite, which has no NaN, refuses).
    @Test func zeroByZeroOnPostgreSQLIsNaN() throws {
        guard Backend.available.contains(.postgres) else { return }
        let store = try Backend.postgres.store([Reading.self])
        let writing = ModelContext(try store.container())
        for (index, amount) in [0.0, 1, -1].enumerated() {
            writing.insert(Reading(index: index, amount: amount, divisor: 0, single: 0, label: "", note: nil))
        }
        try writing.save()
        let context = ModelContext(try store.container())
        let all = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.index)]))
        let notFive = #Predicate<Reading> { $0.amount / $0.divisor != 5 }
        let belowFive = #Predicate<Reading> { $0.amount / $0.divisor < 5 }
        let zeroSingle = #Predicate<Reading> { $0.single / $0.single == 0 }
        for predicate in [notFive, belowFive, zeroSingle] {
            let expected = try all.filter { try predicate.evaluate($0) }.map(\.index)
            #expect(try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index)])).map(\.index) == expected)
        }
    }
}
