import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Gauge {
    var label: String
    var value: Double
    var single: Float
    init(label: String, value: Double, single: Float) {
        self.label = label
        self.value = value
        self.single = single
    }
}

/// Arithmetic that makes NaN (`∞ * 0`, `∞ - ∞`): SQLite gives `NULL`, Swift NaN, which no
/// `==` or `<` holds for and every `!=` does. The answers are Swift's.
@Suite struct NaNArithmeticPredicateTests {
    @Test func comparisonsOfNaNAnswerAsSwiftDoes() throws {
        let context = ModelContext(try ModelContainer(for: Gauge.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let gauges = [
            Gauge(label: "plus", value: .infinity, single: .infinity),
            Gauge(label: "minus", value: -.infinity, single: -.infinity),
            Gauge(label: "zero", value: 0, single: 0),
            Gauge(label: "some", value: 1.5, single: 2.5),
        ]
        for gauge in gauges { context.insert(gauge) }
        try context.save()
        let predicates: [Predicate<Gauge>] = [
            #Predicate { $0.value * 0 != 1 },
            #Predicate { $0.value * 0 == 0 },
            #Predicate { !($0.value * 0 == 0) },
            #Predicate { $0.value - $0.value < 1 },
            #Predicate { !($0.value - $0.value >= 1) },
            #Predicate { -($0.value * 0) != 0 },
            #Predicate { ($0.value + 1) * 0 > -1 || $0.label == "zero" },
            #Predicate { $0.single * 0 != 0 },
            #Predicate { $0.single - $0.single <= 0 },
        ]
        for predicate in predicates {
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.label)])).map(\.label)
            let expected = try gauges.filter { try predicate.evaluate($0) }.map(\.label).sorted()
            #expect(fetched == expected, "\(predicate)")
        }
    }
}
