import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// Bad input gets a clear error and the file is left exactly as it was.
@Suite struct StoreErrorTests {
    private func openError(_ url: URL, _ types: any PersistentModel.Type...) throws -> SwiftDataError {
        try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: url))
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndUntouched() throws {
        let url = temporaryStoreURL()
        let bytes = Data("these are my notes, not a database\n".utf8)
        try bytes.write(to: url)
        let error = try openError(url, Movie.self)
        #expect(error == .loadIssueModelContainer)
        #expect(error.description.contains("is not an SQLite database"))
        #expect(error.description.contains(url.path))
        #expect(try Data(contentsOf: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func anotherAppsSQLiteDatabaseIsRefusedAndUntouched() throws {
        let url = temporaryStoreURL()
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts (owner) VALUES ('me')")
        }
        let before = try Data(contentsOf: url)
        let error = try openError(url, Movie.self)
        #expect(error.description.contains("not an OpenSwiftData store"))
        #expect(error.description.contains("accounts"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aStoreFromANewerFormatIsNeitherOpenedNorMigrated() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "a"))
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE _osd_metadata SET value = '99' WHERE key = 'formatVersion'")
        }
        let before = try Data(contentsOf: url)
        // V2 would migrate the store; a newer format must stop that before anything is written.
        let error = try openError(url, NoteSchemaV2.Memo.self)
        #expect(error.description.contains("was written by a newer OpenSwiftData (store format 99, this build reads up to 2)"))
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
    }

    @Test func aCorruptStoreIsRefusedAndUntouched() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        }
        // Keep the header, garble everything after it.
        var bytes = try Data(contentsOf: url)
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: url)
        try? FileManager.default.removeItem(atPath: url.path + "-wal")
        try? FileManager.default.removeItem(atPath: url.path + "-shm")
        let error = try openError(url, Movie.self)
        #expect(error == .loadIssueModelContainer)
        #expect(error.description.contains(url.path))
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func anUnwritableLocationIsAClearError() throws {
        let blocker = temporaryStoreURL("blocker")
        try Data("a file where a folder should be".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("inside").appendingPathComponent("films.store")
        let error = try openError(url, Movie.self)
        #expect(error == .loadIssueModelContainer)
        #expect(error.description.contains("cannot be created"))
        #expect(error.description.contains("ModelConfiguration(url:)"))
    }

    @Test func aStoreOfAnotherSchemaIsRefusedWithTheDifference() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        }
        let before = try Data(contentsOf: url)
        let error = try openError(url, Person.self)
        #expect(error.description.contains("the entity Movie holds 1 row"))
        #expect(error.description.contains("nothing was changed"))
        #expect(try Data(contentsOf: url) == before)
        let movies = try ModelContext(ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Movie>())
        #expect(movies.count == 1)
    }

    @Test func aNonOptionalPropertyWithNoValueFailsTheSaveAndWritesNothing() throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        let broken = Movie(title: "Broken", year: 2000, rating: 1)
        broken.persistentBackingData = Movie.createBackingData()
        broken.title = "Still broken"
        context.insert(broken)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        // The first unset non-optional property in declaration order (the id was replaced too).
        #expect(error.description.contains("Movie.id has no value; a non-optional property needs one before the model is saved"))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Movie>()) == 0)
        #expect(context.hasChanges)

        // The failed save's transaction is over: without the broken model the next save writes.
        context.delete(broken)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Movie>()).map(\.title) == ["Up"])
    }

    @Test func fetchingAModelTheContainerDoesNotHoldIsAClearError() throws {
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Person>()) }
        #expect(error.description.contains("Person"))
        #expect(error.description.contains("not one of this container's models"))
    }

    /// A value another tool wrote that the model's type cannot hold fails the fetch, naming the
    /// row, the column and what it holds.
    @Test func aStoredValueOfTheWrongKindIsAClearFetchError() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"UPDATE "Movie" SET "year" = 'two thousand nine'"#)
        }
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Movie>()) }
        #expect(error.description.contains("row 1 of Movie"))
        #expect(error.description.contains("column year"))
        #expect(error.description.contains("two thousand nine"))
        #expect(error.description.contains("cannot be read as Int"))
    }

    /// Values another tool wrote into columns read straight into their slots: an integer written
    /// into a real column reads as that `Double`, and a UUID blob of the wrong length, which the
    /// direct read leaves to the codec, fails naming the row, the column and its length.
    @Test func valuesAnotherToolWroteReadAsTheirTypeOrFailClearly() throws {
        let url = temporaryStoreURL()
        let id = UUID()
        try writeStore(url, for: Movie.self) { context in
            let movie = Movie(title: "Up", year: 2009, rating: 8.3)
            movie.id = id
            context.insert(movie)
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"UPDATE "Movie" SET "rating" = CAST(8 AS INTEGER)"#)
        }
        let movie = try #require(try ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<Movie>()).first)
        #expect(movie.rating == 8)
        #expect(movie.id == id)
        #expect(movie.title == "Up")
        #expect(movie.year == 2009)

        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"UPDATE "Movie" SET "id" = X'0102030405060708090A0B0C0D0E0F'"#)
        }
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        let error = try #require(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Movie>()) }
        #expect(error.description.contains("row 1 of Movie"))
        #expect(error.description.contains("column id"))
        #expect(error.description.contains("15 bytes"))
    }
}
