import Foundation
import Testing
@testable import OpenSwiftData

/// An identifier taken before a model's first save keeps naming that model after the save, in
/// every context of the container; one that names nothing never stops the process.
@Suite struct TemporaryIdentifierTests {
    @Test func anIdentifierTakenBeforeTheSaveResolvesInEveryContext() throws {
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let context = ModelContext(container)
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        let temporary = movie.persistentModelID
        #expect(temporary.storeIdentifier == nil)
        #expect(context.model(for: temporary) === movie)
        try context.save()
        #expect(movie.persistentModelID != temporary)

        #expect(context.model(for: temporary) === movie)
        #expect(context.registeredModel(for: temporary) as Movie? === movie)
        let other = ModelContext(container)
        let resolved = try #require(other.model(for: temporary) as? Movie)
        #expect(resolved !== movie)
        #expect(resolved.title == "Up")
        #expect(resolved.persistentModelID == movie.persistentModelID)
        #expect(other.registeredModel(for: temporary) as Movie? === resolved)
    }

    @Test func aModelActorResolvesAnIdentifierTakenBeforeTheSave() async throws {
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let context = ModelContext(container)
        let movie = Movie(title: "Coco", year: 2017, rating: 8.4)
        context.insert(movie)
        let temporary = movie.persistentModelID
        try context.save()
        let reader = MovieTitleReader(modelContainer: container)
        #expect(await reader.title(of: temporary) == "Coco")
    }

    @Test func anIdentifierOfAModelNotYetSavedResolvesToNothingElsewhere() throws {
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let context = ModelContext(container)
        let movie = Movie(title: "Luca", year: 2021, rating: 7.4)
        context.insert(movie)
        let other = ModelContext(container)
        let unresolved = other.model(for: movie.persistentModelID)
        #expect(unresolved !== movie)
        #expect(unresolved.modelContext == nil)
        #expect(other.registeredModel(for: movie.persistentModelID) as Movie? == nil)
    }

    @Test func anIdentifierOfAnEntityTheContainerLacksResolvesToNothing() throws {
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let json = #"{"implementation":{"primaryKey":"p1","isTemporary":false,"entityName":"NoSuchEntity","storeIdentifier":"elsewhere"}}"#
        let id = try JSONDecoder().decode(PersistentIdentifier.self, from: Data(json.utf8))
        let context = ModelContext(container)
        #expect(context.model(for: id) as? Movie == nil)
        #expect(context.registeredModel(for: id) as Movie? == nil)
    }

    @Test func aRowOfAnotherStoreIsNotTakenForThisStoresRow() throws {
        let first = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let second = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: temporaryStoreURL()))
        let context = ModelContext(first)
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        try context.save()
        let other = ModelContext(second)
        other.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        try other.save()
        let elsewhere = ModelContext(second).model(for: movie.persistentModelID)
        #expect(elsewhere.modelContext == nil)
    }
}

@ModelActor
actor MovieTitleReader {
    func title(of id: PersistentIdentifier) -> String? {
        self[id, as: Movie.self]?.title
    }
}
