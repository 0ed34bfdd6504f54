import Foundation
import Testing
@testable import OpenSwiftData

/// Relationships declared with another version's class of their destination's entity: a model a
/// version takes from an older one through a typealias, and a helper model shared by every
/// version that points at the newest class. Reading them returns the class the property declares.
@Suite struct OtherVersionsClassTests {
    private func writeWeightsV1(_ url: URL) throws {
        try writeStore(url, for: Schema(versionedSchema: WeightsV1.self)) { context in
            let ada = WeightsV1.Person(name: "Ada")
            context.insert(ada)
            for kilograms in [61.5, 60.0] {
                let weight = WeightsV1.Weight(kilograms: kilograms)
                weight.person = ada
                context.insert(weight)
            }
        }
    }

    @Test func aTypealiasedModelReadsItsPersonAsTheClassItDeclares() throws {
        let url = temporaryStoreURL()
        try writeWeightsV1(url)
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: WeightsV2.self), migrationPlan: WeightsPlan.self, configurations: ModelConfiguration(url: url)))
        let weights = try context.fetch(FetchDescriptor<WeightsV2.Weight>(sortBy: [SortDescriptor(\.kilograms)]))
        #expect(weights.map(\.kilograms) == [60.0, 61.5])
        let person = try #require(weights.first?.person)
        #expect(type(of: person) == WeightsV1.Person.self)
        #expect(person.name == "Ada")
        // One object per row and class in a context: both entries read the same person.
        #expect(weights.last?.person === person)
        #expect(person.weights.map(\.kilograms).sorted() == [60.0, 61.5])

        // The container's own class of the entity still reads the row, as a distinct object.
        let current = try #require(try context.fetch(FetchDescriptor<WeightsV2.Person>()).first)
        #expect(current.name == "Ada")
        #expect(current.heightInCentimeters == 0)
        #expect(current.weights.count == 2)
    }

    @Test func aModelReadAsAnotherVersionsClassIsNotSavedAsIfItWereTheContainers() throws {
        let url = temporaryStoreURL()
        try writeWeightsV1(url)
        let container = try ModelContainer(
            for: Schema(versionedSchema: WeightsV2.self), migrationPlan: WeightsPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let person = try #require(try context.fetch(FetchDescriptor<WeightsV2.Weight>()).first?.person)
        person.name = "Grace"
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error.description.contains("WeightsV1.Person"))
        #expect(error.description.contains("WeightsV2.Person"))
        context.rollback()
        #expect(try ModelContext(container).fetch(FetchDescriptor<WeightsV2.Person>()).map(\.name) == ["Ada"])
    }

    @Test func aStoreOfAVersionThatTypealiasesAnOlderModelIsAtThatVersion() throws {
        // Written by version 2, as it shipped; version 3 drops the goals and is otherwise the
        // same: one step, from version 2 as recorded, no repair of an "edited" version.
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: WeightsV2.self)) { context in
            let grace = WeightsV2.Person(name: "Grace")
            grace.heightInCentimeters = 170
            context.insert(grace)
            let weight = WeightsV1.Weight(kilograms: 55)
            context.insert(weight)
            context.insert(WeightsV2.Goal(kilograms: 54))
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: WeightsV3.self), migrationPlan: WeightsPlan.self, configurations: ModelConfiguration(url: url))
        let steps = try #require(container.migrationReports.first?.steps)
        #expect(steps.map(\.fromVersion) == ["WeightsV2 (2.0.0)"])
        #expect(steps.first?.droppedEntities.map(\.entity) == ["Goal"])
        let people = try ModelContext(container).fetch(FetchDescriptor<WeightsV3.Person>())
        #expect(people.map(\.heightInCentimeters) == [170])
    }

    @Test func aHelperModelReadsTheNewestClassInAVersion1Container() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: FlashV1.self)) { context in
            let card = FlashV1.Card(front: "gato")
            card.tags = [CardTag(name: "animals")]
            context.insert(card)
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: FlashV1.self), configurations: ModelConfiguration(url: url)))
        let tag = try #require(try context.fetch(FetchDescriptor<CardTag>()).first)
        let cards = tag.cards
        #expect(cards.map(\.front) == ["gato"])
        // Version 2's card has a back the version 1 store does not: its declared default.
        #expect(cards.map(\.back) == [""])
        #expect(try context.fetch(FetchDescriptor<FlashV1.Card>()).first?.tags.map(\.name) == ["animals"])
    }

    @Test func aWillMigrateStageReadsTheHelpersRelationship() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: FlashV1.self)) { context in
            let card = FlashV1.Card(front: "perro")
            card.tags = [CardTag(name: "animals")]
            context.insert(card)
        }
        let seen = Recorder<[String]>([])
        FlashReadingPlan.seen = seen
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: FlashV2.self), migrationPlan: FlashReadingPlan.self, configurations: ModelConfiguration(url: url)))
        #expect(seen.value == ["animals: perro"])
        #expect(try context.fetch(FetchDescriptor<CardTag>()).first?.cards.map(\.front) == ["perro"])
    }

    @Test func aRelationshipWhoseDeclaredClassCannotBeReadFromTheStoreFailsTheFetch() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PostersV1.self)) { context in
            let poster = PostersV1.Poster(title: "Alien")
            poster.frame = Frame(color: "black")
            context.insert(poster)
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: PostersV1.self), configurations: ModelConfiguration(url: url)))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Frame>()) }
        #expect(error.description.contains("Frame.poster"))
        #expect(error.description.contains("PostersV2.Poster"))
        #expect(error.description.contains("artist has no column in the store, and no default value"))
        // A poster's frame would reach the same relationship: its fetch says so too.
        let throughPoster = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<PostersV1.Poster>()) }
        #expect(throughPoster.description.contains("Frame.poster"))
        // Version 2's container reads both.
        let url2 = temporaryStoreURL()
        try writeStore(url2, for: Schema(versionedSchema: PostersV2.self)) { context in
            let poster = PostersV2.Poster(title: "Heat", artist: "Mann")
            poster.frame = Frame(color: "gold")
            context.insert(poster)
        }
        let current = ModelContext(try ModelContainer(for: Schema(versionedSchema: PostersV2.self), configurations: ModelConfiguration(url: url2)))
        #expect(try current.fetch(FetchDescriptor<Frame>()).first?.poster?.artist == "Mann")
    }
}

/// The flash-card plan with a stage that reads each tag's cards before version 2.
enum FlashReadingPlan: SchemaMigrationPlan {
    nonisolated(unsafe) static var seen: Recorder<[String]>?
    static var schemas: [any VersionedSchema.Type] { [FlashV1.self, FlashV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: FlashV1.self, toVersion: FlashV2.self, willMigrate: { context in
                for tag in try context.fetch(FetchDescriptor<CardTag>()) {
                    seen?.value.append("\(tag.name): \(tag.cards.map(\.front).joined(separator: ", "))")
                }
            }, didMigrate: nil),
        ]
    }
}

// A frame shared by both versions of a poster, pointing at version 2's poster, whose artist
// version 1's store has no column for and no default to read instead.

enum PostersV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Poster.self, Frame.self] }

    @Model final class Poster {
        var title: String
        var frame: Frame?
        init(title: String) { self.title = title }
    }
}

enum PostersV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Poster.self, Frame.self] }

    @Model final class Poster {
        var title: String
        var artist: String
        var frame: Frame?
        init(title: String, artist: String) {
            self.title = title
            self.artist = artist
        }
    }
}

@Model final class Frame {
    var color: String
    @Relationship(inverse: \PostersV2.Poster.frame) var poster: PostersV2.Poster?
    init(color: String) { self.color = color }
}
