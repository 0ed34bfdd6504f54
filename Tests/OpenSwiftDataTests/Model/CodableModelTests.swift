import Foundation
import Testing
@testable import OpenSwiftData

/// `@Model` classes that are also `Codable` (apps export and import them as JSON), related to
/// each other one-to-one and one-to-many.
@Model
final class Kennel: Codable {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Puppy.kennel) var puppies: [Puppy] = []
    var favorite: Puppy?

    init(name: String) { self.name = name }

    enum CodingKeys: String, CodingKey { case name }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
    }
}

@Model
final class Puppy: Codable {
    var name: String
    var kennel: Kennel?

    init(name: String) { self.name = name }

    enum CodingKeys: String, CodingKey { case name }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
    }
}

@Suite struct CodableModelTests {
    @Test func codableModelsKeepTheirRelationships() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try ModelContainer(for: Kennel.self, configurations: ModelConfiguration(url: url)))
            let kennel = try JSONDecoder().decode(Kennel.self, from: Data(#"{"name":"Barkley"}"#.utf8))
            let rex = Puppy(name: "Rex")
            kennel.puppies = [rex, Puppy(name: "Fido")]
            kennel.favorite = rex
            context.insert(kennel)
            try context.save()
            #expect(rex.kennel === kennel)
        }
        let context = ModelContext(try ModelContainer(for: Kennel.self, configurations: ModelConfiguration(url: url)))
        let kennel = try #require(try context.fetch(FetchDescriptor<Kennel>()).first)
        #expect(kennel.favorite?.name == "Rex")
        #expect(Set(kennel.puppies.map(\.name)) == ["Rex", "Fido"])
        #expect(String(decoding: try JSONEncoder().encode(kennel), as: UTF8.self) == #"{"name":"Barkley"}"#)
    }
}
