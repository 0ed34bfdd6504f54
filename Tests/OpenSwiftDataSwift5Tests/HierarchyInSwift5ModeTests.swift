import Foundation
import OpenSwiftData
import Testing

// A class hierarchy built in this target's language mode, without a warning.

@Model class PetSwift5 {
    var name: String
    init(name: String) { self.name = name }
}

@available(iOS 26, macOS 26, *)
@Model class DogSwift5: PetSwift5 {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
}

@Suite struct HierarchyInSwift5ModeTests {
    @Test func aSubclassIsSavedAndFetchedThroughItsParent() throws {
        let container = try ModelContainer(for: PetSwift5.self, DogSwift5.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(PetSwift5(name: "Tom"))
        context.insert(DogSwift5(name: "Rex", breed: "collie"))
        try context.save()
        let pets = try ModelContext(container).fetch(FetchDescriptor<PetSwift5>(sortBy: [SortDescriptor(\.name)]))
        #expect(pets.map(\.name) == ["Rex", "Tom"])
        #expect((pets.first as? DogSwift5)?.breed == "collie")
    }
}
