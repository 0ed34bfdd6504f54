import Foundation
import OpenSwiftData
import Testing

// A class hierarchy built in this target's language mode, without a warning.

@Model class PetSwift6Concurrency {
    var name: String
    init(name: String) { self.name = name }
}

@available(iOS 26, macOS 26, *)
@Model class DogSwift6Concurrency: PetSwift6Concurrency {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
}

@Suite struct HierarchyInSwift6ConcurrencyModeTests {
    @Test func aSubclassIsSavedAndFetchedThroughItsParent() throws {
        let container = try ModelContainer(for: PetSwift6Concurrency.self, DogSwift6Concurrency.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(PetSwift6Concurrency(name: "Tom"))
        context.insert(DogSwift6Concurrency(name: "Rex", breed: "collie"))
        try context.save()
        let pets = try ModelContext(container).fetch(FetchDescriptor<PetSwift6Concurrency>(sortBy: [SortDescriptor(\.name)]))
        #expect(pets.map(\.name) == ["Rex", "Tom"])
        #expect((pets.first as? DogSwift6Concurrency)?.breed == "collie")
    }
}
