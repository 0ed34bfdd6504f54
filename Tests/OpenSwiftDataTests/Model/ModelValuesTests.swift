import Foundation
import Testing

@testable import OpenSwiftData

/// A model's values kept each as its property's type: what is put in a slot comes back out,
/// boxed or typed, an empty slot reads as no value, and a copy is independent of the original.
@Suite struct ModelValuesTests {
    let layout = ModelLayout.of(Movie.self)

    func index(_ name: String) -> Int {
        layout.properties.firstIndex { $0.name == name }!
    }

    @Test func attributesAreKeptAsTheirDeclaredTypesAndOptionalsAsAny() {
        let slots = layout.valueSlots
        #expect(slots.slots[index("title")].type == String.self)
        #expect(slots.slots[index("year")].type == Int.self)
        #expect(slots.slots[index("rating")].type == Double.self)
        #expect(slots.slots[index("id")].type == UUID.self)
        #expect(slots.slots[index("genre")].type == Genre.self)
        #expect(slots.slots[index("notes")].type == Any.self)
        // Ten-odd bytes a value, not the 32 of an `Any`, except for the optional.
        #expect(slots.words * 8 < 32 * layout.properties.count)
    }

    @Test func whatIsPutInASlotComesBackAndAnEmptySlotHasNoValue() {
        var values = ModelValues(layout.valueSlots)
        #expect(!ModelState.holdsValue(values[index("title")]))
        #expect(!values.holdsValue(at: index("title")))

        values.set("Spirited Away", at: index("title"))
        values.set(2001, at: index("year"))
        values[index("rating")] = 8.6
        values[index("notes")] = Optional<String>.none as Any
        values[index("genre")] = Genre.animation

        #expect(values[index("title")] as? String == "Spirited Away")
        #expect(values.slot(at: index("year"), holding: Int.self)?.load(as: Int.self) == 2001)
        #expect(values[index("rating")] as? Double == 8.6)
        #expect(values.holdsValue(at: index("notes")))
        #expect((values[index("notes")] as? String?) == .some(nil))
        #expect(values[index("genre")] as? Genre == .animation)
        // A typed read of a slot that holds another type, or nothing, finds no slot.
        #expect(values.slot(at: index("year"), holding: String.self) == nil)
        #expect(values.slot(at: index("released"), holding: Date.self) == nil)

        values[index("title")] = ModelState.noValue
        #expect(!values.holdsValue(at: index("title")))
        #expect(!ModelState.holdsValue(values[index("title")]))
    }

    @Test func aCopyKeepsItsValuesWhenTheOriginalChanges() {
        var original = ModelValues(layout.valueSlots)
        original.set("Ponyo", at: index("title"))
        original.set(2008, at: index("year"))
        let copy = original

        original.set(String(repeating: "Howl's Moving Castle ", count: 4), at: index("title"))
        original[index("year")] = ModelState.noValue

        #expect(copy[index("title")] as? String == "Ponyo")
        #expect(copy[index("year")] as? Int == 2008)
        #expect(original[index("title")] as? String == String(repeating: "Howl's Moving Castle ", count: 4))
        #expect(!original.holdsValue(at: index("year")))
    }

    @Test func aFetchedModelReadsItsTypedValuesAfterReopening() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ModelValues-\(UUID()).store")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Movie(title: "Totoro", year: 1988, rating: 8.1, notes: "forest"))
            context.insert(Movie(title: "Kiki", year: 1989, rating: 7.8))
            try context.save()
        }
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let movies = try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(movies.map(\.title) == ["Totoro", "Kiki"])
        #expect(movies.map(\.year) == [1988, 1989])
        #expect(movies.map(\.notes) == ["forest", nil])

        // A change and a rollback go through the same slots.
        movies[0].title = "My Neighbor Totoro"
        movies[1].notes = "delivery"
        context.rollback()
        #expect(movies[0].title == "Totoro")
        #expect(movies[1].notes == nil)
    }
}
