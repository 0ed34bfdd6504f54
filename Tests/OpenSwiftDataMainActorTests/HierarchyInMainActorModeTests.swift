import Foundation
import OpenSwiftData
import Testing

// A class hierarchy built in this target's language mode, without a warning.

@Model class PetMainActor {
    var name: String
    init(name: String) { self.name = name }
}

@available(iOS 26, macOS 26, *)
@Model class DogMainActor: PetMainActor {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
}

@Suite struct HierarchyInMainActorModeTests {
    @Test func aSubclassIsSavedAndFetchedThroughItsParent() throws {
        let container = try ModelContainer(for: PetMainActor.self, DogMainActor.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(PetMainActor(name: "Tom"))
        context.insert(DogMainActor(name: "Rex", breed: "collie"))
        try context.save()
        let pets = try ModelContext(container).fetch(FetchDescriptor<PetMainActor>(sortBy: [SortDescriptor(\.name)]))
        #expect(pets.map(\.name) == ["Rex", "Tom"])
        #expect((pets.first as? DogMainActor)?.breed == "collie")
    }
}
