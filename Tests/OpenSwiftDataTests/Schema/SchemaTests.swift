import Foundation
import Testing
@testable import OpenSwiftData

enum ItemV1 {
    @Model final class Item {
        var name: String
        var count: Int = 0
        init(name: String) { self.name = name }
    }
}

/// Same structure as V1: only a default value and an original name differ.
enum ItemV1Cosmetic {
    @Model final class Item {
        var name: String = "unnamed"
        @Attribute(originalName: "total") var count: Int = 5
        init(name: String) { self.name = name }
    }
}

enum ItemOptionalCount {
    @Model final class Item {
        var name: String
        var count: Int?
        init(name: String) { self.name = name }
    }
}

enum ItemHashModified {
    @Model final class Item {
        var name: String
        @Attribute(hashModifier: "cents") var count: Int = 0
        init(name: String) { self.name = name }
    }
}

enum ItemUnique {
    @Model final class Item {
        @Attribute(.unique) var name: String
        var count: Int = 0
        init(name: String) { self.name = name }
    }
}

@Suite struct SchemaTests {
    @Test func entitiesAreNamedAfterTheUnqualifiedClassName() {
        #expect(Schema.entityName(for: ItemV1.Item.self) == "Item")
        #expect(Schema.entityName(for: ItemOptionalCount.Item.self) == "Item")
        let schema = Schema([Movie.self, Person.self])
        #expect(schema.entities.map(\.name) == ["Movie", "Person"])
        #expect(schema.entity(for: Movie.self)?.name == "Movie")
    }

    @Test func propertiesBecomeAttributesInDeclarationOrder() throws {
        let entity = try #require(Schema([Movie.self]).entity(for: Movie.self))
        #expect(entity.storedProperties.map(\.name) == ["id", "title", "year", "rating", "notes", "genre", "released"])
        let notes = try #require(entity.attributesByName["notes"])
        #expect(notes.isOptional)
        #expect(ObjectIdentifier(notes.valueType) == ObjectIdentifier(String?.self))
        #expect(!entity.attributesByName["title"]!.isOptional)
        #expect(entity.indices == [["year"], ["title", "year"]])
    }

    @Test func attributeOptionsAndDefaultsAreRecorded() throws {
        let note = try #require(Schema([Note.self]).entity(for: Note.self))
        let text = try #require(note.attributesByName["text"])
        #expect(text.originalName == "body")
        #expect(text.hashModifier == "v2")
        let title = try #require(note.attributesByName["title"])
        #expect(title.options.contains(.spotlight))
        #expect(title.defaultValue as? String == "Untitled")
        #expect(title.originalName == "title")

        let counter = try #require(Schema([Counter.self]).entity(for: Counter.self))
        #expect(counter.storedProperties.map(\.name) == ["name"])
    }

    @Test func uniquenessComesFromTheAttributeOptionAndTheMacro() throws {
        #expect(Schema([Tag.self]).entity(for: Tag.self)?.uniquenessConstraints == [["name"]])
        #expect(Schema([Person.self]).entity(for: Person.self)?.uniquenessConstraints == [["email"], ["givenName", "familyName"]])
    }

    @Test func theFingerprintIgnoresDefaultsAndOriginalNames() {
        #expect(Schema([ItemV1.Item.self]).fingerprint == Schema([ItemV1Cosmetic.Item.self]).fingerprint)
        #expect(Schema([ItemV1.Item.self], version: .init(1, 0, 0)).fingerprint
            == Schema([ItemV1.Item.self], version: .init(2, 0, 0)).fingerprint)
    }

    @Test func theFingerprintChangesWithStructure() {
        let base = Schema([ItemV1.Item.self]).fingerprint
        #expect(base != Schema([ItemOptionalCount.Item.self]).fingerprint)
        #expect(base != Schema([ItemHashModified.Item.self]).fingerprint)
        #expect(base != Schema([ItemUnique.Item.self]).fingerprint)
        #expect(base != Schema([ItemV1.Item.self, Movie.self]).fingerprint)
    }

    @Test func schemasEncodeCanonicallyAndLoadBack() throws {
        let schema = Schema([Movie.self, Person.self], version: .init(2, 1, 0))
        let url = temporaryStoreURL().deletingPathExtension().appendingPathExtension("json")
        try schema.save(to: url)
        let loaded = try Schema.load(from: url)
        #expect(loaded == schema)
        #expect(loaded.version == Schema.Version(2, 1, 0))
        #expect(loaded.fingerprint == schema.fingerprint)
        #expect(try loaded.canonicalJSON() == schema.canonicalJSON())
        #expect(Schema([Person.self, Movie.self]).fingerprint == Schema([Movie.self, Person.self]).fingerprint)
    }

    @Test func versionsOrderNumerically() {
        #expect(Schema.Version(1, 2, 3) < Schema.Version(1, 10, 0))
        #expect(Schema.Version(2, 0, 0) > Schema.Version(1, 99, 99))
        #expect(Schema.Version(1, 2, 3).description == "1.2.3")
    }

    @Test func twoModelsWithOneEntityNameAreRefused() throws {
        let clash = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: ItemV1.Item.self, ItemOptionalCount.Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        #expect(clash.description.contains("two model classes are both named Item"))
    }
}
