import Foundation
import Testing
@testable import OpenSwiftData

/// A film's cast, first one-way (a join table named after the film's side), then with the
/// actors' side added as its inverse (the pair's table is named after the actor's side).
enum CastSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [CastFilm.self, CastActor.self] }
    @Model final class CastFilm {
        var title: String
        @Relationship(inverse: nil) var actors: [CastActor] = []
        init(title: String) { self.title = title }
    }

    @Model final class CastActor {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum CastSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [CastFilm.self, CastActor.self] }
    @Model final class CastFilm {
        var title: String
        @Relationship(inverse: \CastActor.films) var actors: [CastActor] = []
        init(title: String) { self.title = title }
    }

    @Model final class CastActor {
        var name: String
        var films: [CastFilm] = []
        init(name: String) { self.name = name }
    }
}

extension MigrationTests {
    @Test func aOneWayRelationshipThatGainsAnInverseKeepsItsPairs() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: CastSchemaV1.self)) { context in
            let film = CastSchemaV1.CastFilm(title: "Up")
            context.insert(film)
            film.actors = [CastSchemaV1.CastActor(name: "Ed Asner"), CastSchemaV1.CastActor(name: "Jordan Nagai")]
        }
        let container = try ModelContainer(for: Schema(versionedSchema: CastSchemaV2.self), migrationPlan: CastMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let film = try #require(try context.fetch(FetchDescriptor<CastSchemaV2.CastFilm>()).first)
        #expect(film.actors.map(\.name).sorted() == ["Ed Asner", "Jordan Nagai"])
        let actors = try context.fetch(FetchDescriptor<CastSchemaV2.CastActor>())
        #expect(actors.allSatisfy { $0.films.map(\.title) == ["Up"] })
    }
}

enum CastMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CastSchemaV1.self, CastSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: CastSchemaV1.self, toVersion: CastSchemaV2.self)] }
}
