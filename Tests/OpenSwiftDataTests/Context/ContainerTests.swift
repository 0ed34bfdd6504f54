import Foundation
import GRDB
import Testing
@testable import OpenSwiftData
import PixarFilmTracker

@Suite struct ContainerTests {
    @Test func aStoreWrittenClosedAndReopenedKeepsItsModels() throws {
        let url = temporaryStoreURL()
        do {
            let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3, notes: "balloons"))
            try context.save()
        }
        #expect(FileManager.default.fileExists(atPath: url.path))
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let movies = try ModelContext(container).fetch(FetchDescriptor<Movie>())
        #expect(movies.count == 1)
        #expect(movies[0].notes == "balloons")
        #expect(container.configurations.first?.url == url)
        #expect(container.schema.entities.map(\.name) == ["Movie"])
    }

    @Test func theStoreRecordsItsSchemaAndFingerprint() throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let fingerprint = try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'fingerprint'")[0] as String
        #expect(fingerprint == container.schema.fingerprint)
        let schemaJSON = try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'schema'")[0] as String
        let recorded = try JSONDecoder().decode(Schema.self, from: Data(schemaJSON.utf8))
        #expect(recorded.fingerprint == container.schema.fingerprint)
        #expect(recorded.entities.first?.attributesByName["title"]?.storageType == .string)
        let indexNames = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Movie' ORDER BY name")
        }
        #expect(indexNames == ["Movie_index_title_year", "Movie_index_year"])
    }

    @Test func inMemoryContainersStartEmptyAndWriteNothing() throws {
        let first = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(first)
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 1)
        let second = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<Movie>()) == 0)
        #expect(first.configurations.first?.url.path == "/dev/null")
    }

    @Test func twoContainersOnOneFileSeeEachOthersSaves() throws {
        let url = temporaryStoreURL()
        let writer = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let reader = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let readContext = ModelContext(reader)
        #expect(try readContext.fetchCount(FetchDescriptor<Movie>()) == 0)
        let writeContext = ModelContext(writer)
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        writeContext.insert(movie)
        try writeContext.save()
        let seen = try readContext.fetch(FetchDescriptor<Movie>())
        #expect(seen.map(\.title) == ["Up"])
        movie.rating = 9.5
        try writeContext.save()
        #expect(try readContext.fetch(FetchDescriptor<Movie>())[0].rating == 9.5)
        #expect(seen[0].rating == 9.5)
    }

    @Test func readersDoNotWaitForAWriter() throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        try context.save()

        let outsideWriter = try DatabaseQueue(path: url.path)
        let writing = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? outsideWriter.inTransaction(.immediate) { db in
                try db.execute(sql: "UPDATE Movie SET rating = 1")
                writing.signal()
                finish.wait()
                return .commit
            }
            done.signal()
        }
        writing.wait()
        let start = Date()
        let during = try ModelContext(container).fetch(FetchDescriptor<Movie>())
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(during[0].rating == 8.3)
        finish.signal()
        done.wait()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Movie>())[0].rating == 1)
    }

    @Test func thisProcessReadsWhatAnotherOneSaved() async throws {
        let url = temporaryStoreURL()
        try #require(OSDProcess.isBuilt, "osd is built beside the tests")
        #expect(try await OSDProcess.run(["demo", "--store", url.path]).status == 0)
        let container = try ModelContainer(for: PixarSchemaV3.PixarFilm.self, configurations: ModelConfiguration(url: url))
        let films = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(sortBy: [SortDescriptor(\.releaseYear)]))
        #expect(films.first?.title == "Toy Story")
        #expect(films.first?.releaseYear == 1995)
        #expect(films.count == 14)
    }

    @Test func readOnlyStoresRefuseToSaveAndStayUnchanged() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        }
        let before = try Data(contentsOf: url)
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        let context = ModelContext(container)
        let movie = try context.fetch(FetchDescriptor<Movie>())[0]
        movie.rating = 1
        context.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error.description.contains("read-only"))
        #expect(error.description.contains(url.path))
        #expect(try Data(contentsOf: url) == before)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Movie>())[0].rating == 8.3)

        let memory = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true, allowsSave: false)))
        memory.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        #expect(throws: SwiftDataError.modelValidationFailure) { try memory.save() }
    }

    @Test func eraseRemovesEveryModelAndKeepsTheStoreUsable() throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: Movie.self, Photo.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        context.insert(Photo(name: "p", image: Data([1])))
        try context.save()
        try container.erase()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Movie>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<Photo>()) == 0)
        fresh.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        try fresh.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Movie>()) == 1)
    }

    @Test func configurationsSplitEntitiesBetweenStores() throws {
        let moviesURL = temporaryStoreURL("movies")
        let peopleURL = temporaryStoreURL("people")
        let container = try ModelContainer(
            for: Movie.self, Person.self,
            configurations: ModelConfiguration(schema: Schema([Movie.self]), url: moviesURL),
            ModelConfiguration(schema: Schema([Person.self]), url: peopleURL))
        let context = ModelContext(container)
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        let person = Person(email: "a@x", givenName: "A", familyName: "B", age: 1)
        context.insert(movie)
        context.insert(person)
        try context.save()
        // Changes in both stores, one save: each store's changed models are done with.
        movie.rating = 9.1
        person.age = 2
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.changedModelsArray.isEmpty)
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<Movie>()).map(\.rating) == [9.1])
        #expect(try reader.fetch(FetchDescriptor<Person>()).map(\.age) == [2])
        #expect(try rawColumns(moviesURL, table: "Movie").contains("title"))
        #expect(try rawColumns(peopleURL, table: "Person").contains("email"))
        let movieTables = try DatabaseQueue(path: moviesURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        }
        #expect(movieTables == ["Movie"])

        #expect(throws: SwiftDataError.duplicateConfiguration) {
            try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: moviesURL), ModelConfiguration(url: moviesURL))
        }
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) {
            try ModelContainer(for: Movie.self, configurations: ModelConfiguration(schema: Schema([Person.self]), isStoredInMemoryOnly: true))
        }
    }

    @Test func theDefaultLocationIsNamedAfterTheConfiguration() {
        let unnamed = ModelConfiguration()
        #expect(unnamed.url.lastPathComponent == "default.store")
        // On Linux: `$XDG_DATA_HOME/<executable>/`, usually `~/.local/share/<executable>/`.
        let folder = unnamed.url.deletingLastPathComponent()
        #expect(folder.lastPathComponent == ProcessInfo.processInfo.processName)
        let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        #expect(folder.deletingLastPathComponent().standardizedFileURL.path == URL(fileURLWithPath: dataHome).standardizedFileURL.path)
        #expect(ModelConfiguration("Films").url.lastPathComponent == "Films.store")
        #expect(ModelConfiguration(isStoredInMemoryOnly: true).isStoredInMemoryOnly)
    }

    @MainActor @Test func theMainContextAutosaves() async throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        #expect(container.mainContext === container.mainContext)
        #expect(container.mainContext.autosaveEnabled)
        #expect(!ModelContext(container).autosaveEnabled)
        container.mainContext.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        for _ in 0..<100 where container.mainContext.hasChanges {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Movie>()) == 1)
    }
}
