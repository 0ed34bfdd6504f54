import Foundation
import GRDB
import Observation
import Testing
@testable import OpenSwiftData

@Suite struct ContextTests {
    private func inMemory() throws -> ModelContext {
        ModelContext(try ModelContainer(for: Movie.self, Person.self, Tag.self,
                                        configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
    }

    /// "Up" (2009) and "Cars" (2006), inserted into `context` and saved.
    private func savedUpAndCars(in context: ModelContext, upNotes: String? = nil) throws -> (up: Movie, cars: Movie) {
        let up = Movie(title: "Up", year: 2009, rating: 8.3, notes: upNotes)
        let cars = Movie(title: "Cars", year: 2006, rating: 7.2)
        context.insert(up)
        context.insert(cars)
        try context.save()
        return (up, cars)
    }

    @Test func aContextThatGoesAwayLetsGoOfItsModels() throws {
        let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        weak var saved: Movie?
        weak var unsaved: Movie?
        weak var fetched: Movie?
        do {
            let writer = ModelContext(container)
            let up = Movie(title: "Up", year: 2009, rating: 8.3)
            writer.insert(up)
            try writer.save()
            let cars = Movie(title: "Cars", year: 2006, rating: 7.2)
            writer.insert(cars)
            let reader = ModelContext(container)
            let all = try reader.fetch(FetchDescriptor<Movie>())
            saved = up
            unsaved = cars
            fetched = all.first
            #expect(saved != nil && unsaved != nil && fetched != nil)
        }
        #expect(saved == nil)
        #expect(unsaved == nil)
        #expect(fetched == nil)
    }

    @Test func aModelCanBeUsedBeforeItIsInserted() throws {
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        movie.rating = 8.4
        #expect(movie.modelContext == nil)
        #expect(movie.hasChanges == false)
        #expect(movie.persistentModelID.entityName == "Movie")
        #expect(movie.persistentModelID.storeIdentifier == nil)
        // A change made before the insert is what gets saved.
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        context.insert(movie)
        try context.save()
        let reopened = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetch(FetchDescriptor<Movie>()).map(\.rating) == [8.4])
    }

    @Test func savingGivesTheSameObjectAPermanentIdentifier() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        let temporary = movie.persistentModelID
        #expect(movie.persistentModelID == temporary)    // the same until the save
        #expect(movie.modelContext === context)
        #expect(movie.hasChanges)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 1)
        try context.save()
        #expect(movie.persistentModelID != temporary)
        #expect(movie.persistentModelID.storeIdentifier != nil)
        #expect(!movie.hasChanges)
        #expect(!context.hasChanges)
        #expect(context.registeredModel(for: movie.persistentModelID) as Movie? === movie)
        #expect(context.model(for: movie.persistentModelID) as? Movie === movie)
    }

    @Test func oneObjectPerRowPerContext() throws {
        let context = try inMemory()
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        try context.save()
        let first = try context.fetch(FetchDescriptor<Movie>())
        let second = try context.fetch(FetchDescriptor<Movie>())
        #expect(first[0] === second[0])
        let other = ModelContext(context.container)
        let elsewhere = try other.fetch(FetchDescriptor<Movie>())
        #expect(elsewhere[0] !== first[0])
        #expect(elsewhere[0].persistentModelID == first[0].persistentModelID)
    }

    /// A loaded model is created through `init(backingData:)`, which applies the initial values
    /// its declarations give; they must not replace the values read from the store.
    @Test func aLoadedModelKeepsItsStoredValuesOverItsDeclaredDefaults() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Tag.self) { context in
            context.insert(Tag(name: "swift", uses: 5))
        }
        let context = ModelContext(try ModelContainer(for: Tag.self, configurations: ModelConfiguration(url: url)))
        let loaded = try #require(try context.fetch(FetchDescriptor<Tag>()).first)
        #expect(loaded.uses == 5)
        #expect(!loaded.hasChanges)
        #expect(!context.hasChanges)
    }

    @Test func changesAreTrackedSavedAndRolledBack() throws {
        let context = try inMemory()
        let (up, cars) = try savedUpAndCars(in: context)

        up.rating = 9
        up.rating = 9.5
        up.year = 2010
        #expect(up.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        context.delete(cars)
        #expect(cars.isDeleted)
        #expect(context.deletedModelsArray.count == 1)
        let coco = Movie(title: "Coco", year: 2017, rating: 8.4)
        context.insert(coco)

        context.rollback()
        #expect(up.rating == 8.3)
        #expect(up.year == 2009)
        #expect(!up.hasChanges)
        #expect(!cars.isDeleted)
        #expect(coco.modelContext == nil)
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 2)

        up.rating = 9
        context.delete(cars)
        try context.save()
        let reread = try ModelContext(context.container).fetch(FetchDescriptor<Movie>())
        #expect(reread.map(\.title) == ["Up"])
        #expect(reread[0].rating == 9)
        #expect(cars.modelContext == nil)
    }

    @Test func rollbackPutsBackTheValuesOfTheLastSave() throws {
        let context = try inMemory()
        let (up, cars) = try savedUpAndCars(in: context)

        up.rating = 9
        up.year = 2010
        cars.title = "Cars 2"
        try context.save()
        // Changed, changed again, and changed then deleted: each goes back to what the save
        // wrote, and what only the save changed stays.
        up.rating = 1
        up.rating = 2
        up.title = "Down"
        cars.title = "Cars 3"
        context.delete(cars)
        context.rollback()
        #expect(up.rating == 9)
        #expect(up.title == "Up")
        #expect(up.year == 2010)
        #expect(cars.title == "Cars 2")
        #expect(!cars.isDeleted)
        #expect(!context.hasChanges)

        let reread = try ModelContext(context.container).fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(reread.map(\.title) == ["Cars 2", "Up"])
        #expect(reread.map(\.rating) == [7.2, 9])
        #expect(reread.map(\.year) == [2006, 2010])
    }

    /// An optional attribute set to `nil` holds a value like any other: a rollback puts back
    /// what it held before, and a save writes `NULL`, read back as `nil`.
    @Test func anOptionalAttributeSetToNilIsRolledBackAndSaved() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        let (up, cars) = try savedUpAndCars(in: context, upNotes: "balloons")

        up.notes = nil
        cars.notes = "race"
        context.rollback()
        #expect(up.notes == "balloons")
        #expect(cars.notes == nil)

        up.notes = nil
        try context.save()
        #expect(try rawRow(url, sql: #"SELECT "notes" IS NULL FROM "Movie" WHERE "title" = 'Up'"#)[0] as Bool)
        let reopened = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        let movies = try reopened.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(movies.map(\.title) == ["Cars", "Up"])
        #expect(movies.map(\.notes) == [nil, nil])
    }

    @Test func modelsChangingDifferentPropertiesInOneSaveEachKeepTheirOwn() throws {
        let context = try inMemory()
        let movies = ["Up", "Cars", "Coco", "Soul"].map { Movie(title: $0, year: 2000, rating: 5) }
        for movie in movies { context.insert(movie) }
        try context.save()

        // Runs of rows changing the same properties, then others changing different ones: each
        // row's update writes its own changed columns.
        movies[0].rating = 9
        movies[1].rating = 8
        movies[2].year = 2017
        movies[3].title = "Soul (2020)"
        movies[3].rating = 7
        try context.save()
        let reread = try ModelContext(context.container).fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.rating)]))
        #expect(reread.map(\.title) == ["Coco", "Soul (2020)", "Cars", "Up"])
        #expect(reread.map(\.year) == [2017, 2000, 2000, 2000])
        #expect(reread.map(\.rating) == [5, 7, 8, 9])
    }

    @Test func changedModelsDeletedAndInsertedAgainBeforeASaveKeepTheirChanges() throws {
        let context = try inMemory()
        let movies = ["Up", "Cars", "Coco", "Soul"].map { Movie(title: $0, year: 2000, rating: 5) }
        for movie in movies { context.insert(movie) }
        try context.save()

        for (index, movie) in movies.enumerated() { movie.rating = Double(6 + index) }
        // The first changed model leaves, and the last one takes its place among the changed;
        // then that one leaves too, and the first comes back.
        context.delete(movies[0])
        context.delete(movies[3])
        context.insert(movies[0])
        #expect(Set(context.changedModelsArray.map(\.persistentModelID)) == Set([0, 1, 2].map { movies[$0].persistentModelID }))
        #expect(context.deletedModelsArray.map(\.persistentModelID) == [movies[3].persistentModelID])
        try context.save()

        let reread = try ModelContext(context.container).fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.rating)]))
        #expect(reread.map(\.title) == ["Up", "Cars", "Coco"])
        #expect(reread.map(\.rating) == [6, 7, 8])
        #expect(context.changedModelsArray.isEmpty)
    }

    @Test func deletingAnUnsavedInsertJustForgetsIt() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        context.delete(movie)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 0)
    }

    @Test func transientPropertiesDeclaredTogetherStartEmptyAndAreNotStored() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(for: Sketch.self, configurations: ModelConfiguration(url: url)))
        let sketch = Sketch(title: "Boat")
        sketch.draft = "hull"
        context.insert(sketch)
        try context.save()
        #expect(try rawColumns(url, table: "Sketch") == ["_pk", "title"])
        let fetched = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Sketch>()).first)
        #expect(fetched.title == "Boat")
        #expect(fetched.draft == nil && fetched.note == nil)
    }

    @Test func aDeletedModelInsertedAgainIsSaved() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        context.delete(movie)
        context.insert(movie)
        #expect(!movie.isDeleted)
        try context.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Movie>()).map(\.title) == ["Up"])
    }

    @Test func insertingTwiceIsHarmless() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        context.insert(movie)
        try context.save()
        context.insert(movie)
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 1)
    }

    @Test func fetchesSeeUnsavedChangesUnlessAskedNotTo() throws {
        let context = try inMemory()
        let (up, cars) = try savedUpAndCars(in: context)

        cars.year = 2020
        context.delete(up)
        context.insert(Movie(title: "Coco", year: 2017, rating: 8.4))

        var recent = FetchDescriptor<Movie>(predicate: #Predicate { $0.year > 2010 }, sortBy: [SortDescriptor(\.year)])
        #expect(try context.fetch(recent).map(\.title) == ["Coco", "Cars"])
        #expect(try context.fetchCount(recent) == 2)
        #expect(try context.fetchIdentifiers(recent).count == 2)

        recent.includePendingChanges = false
        #expect(try context.fetch(recent).map(\.title) == [])
        #expect(try context.fetchCount(FetchDescriptor<Movie>(predicate: #Predicate { $0.year > 2000 })) == 2)
    }

    @Test func limitAndOffsetPageThroughSortedResults() throws {
        let context = try inMemory()
        for year in 2000..<2010 {
            context.insert(Movie(title: "M\(year)", year: year, rating: 7))
        }
        try context.save()
        var descriptor = FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year, order: .reverse)])
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 2
        #expect(try context.fetch(descriptor).map(\.year) == [2007, 2006, 2005])
        #expect(try context.fetchCount(descriptor) == 3)
        descriptor.fetchOffset = 8
        #expect(try context.fetch(descriptor).map(\.year) == [2001, 2000])
        #expect(try context.fetchCount(descriptor) == 2)
    }

    @Test func deleteWhereRemovesMatchingModelsAtTheNextSave() throws {
        let context = try inMemory()
        for year in 2000..<2010 {
            context.insert(Movie(title: "M\(year)", year: year, rating: 7))
        }
        try context.save()
        try context.delete(model: Movie.self, where: #Predicate { $0.year < 2005 })
        #expect(context.deletedModelsArray.count == 5)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 5)
        try context.delete(model: Movie.self)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 0)
    }

    @Test func transactionSavesOnlyWhenTheBlockSucceeds() throws {
        struct Failure: Error {}
        let context = try inMemory()
        #expect(throws: Failure.self) {
            try context.transaction {
                context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
                throw Failure()
            }
        }
        #expect(try context.fetchCount(FetchDescriptor<Movie>(predicate: #Predicate { _ in true }, sortBy: [])) == 1)
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>()) == 0)
        try context.transaction {
            context.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        }
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>()) == 2)
    }

    @Test func uniqueAttributeInsertsUpdateTheStoredRow() throws {
        let context = try inMemory()
        let first = Tag(name: "pixar", uses: 1)
        context.insert(first)
        try context.save()
        let duplicate = Tag(name: "pixar", uses: 5)
        context.insert(duplicate)
        try context.save()
        #expect(duplicate.persistentModelID == first.persistentModelID)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Tag>())
        #expect(stored.count == 1)
        #expect(stored[0].uses == 5)
    }

    @Test func aNewUniqueRowWithTheKeyOfTheRowInsertedBeforeItGetsItsKey() throws {
        let context = ModelContext(try ModelContainer(
            for: Movie.self, Tag.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        // Keys are counted per table, the last inserted key per connection: the tag's row gets
        // the key the movie's just got, so the key alone cannot tell an insert from an update.
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        let tag = Tag(name: "pixar", uses: 2)
        context.insert(movie)
        context.insert(tag)
        try context.save()
        #expect(tag.persistentModelID.rowID == movie.persistentModelID.rowID)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Tag>())
        #expect(stored.map(\.uses) == [2])
        #expect(stored.first?.persistentModelID == tag.persistentModelID)

        // An upsert that updates an older row, after another insert: the last inserted key is
        // the other row's.
        context.insert(Tag(name: "ghibli", uses: 1))
        let duplicate = Tag(name: "pixar", uses: 7)
        context.insert(duplicate)
        try context.save()
        #expect(duplicate.persistentModelID == tag.persistentModelID)
        let tags = try ModelContext(context.container).fetch(FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map(\.uses) == [1, 7])
    }

    @Test func twoNewModelsWithOneUniqueValueInOneSaveBecomeOneRow() throws {
        let context = try inMemory()
        let first = Tag(name: "pixar", uses: 1)
        let second = Tag(name: "pixar", uses: 2)
        context.insert(first)
        context.insert(second)
        try context.save()
        // The one inserted last stands for the row; the other leaves the context.
        #expect(second.persistentModelID == first.persistentModelID)
        #expect(second.modelContext === context)
        #expect(first.modelContext == nil)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Tag>())
        #expect(stored.map(\.uses) == [2])
    }

    @Test func anUpsertKeepsItsRelationshipAndExternalBytes() throws {
        let context = ModelContext(try ModelContainer(
            for: Poster.self, Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let up = Movie(title: "Up", year: 2009, rating: 8.3)
        let cars = Movie(title: "Cars", year: 2006, rating: 7.2)
        context.insert(Poster(code: "P1", image: Data([1, 2, 3]), movie: up))
        context.insert(cars)
        try context.save()
        let replacement = Poster(code: "P1", image: Data([9]), movie: cars)
        context.insert(replacement)
        try context.save()

        let reader = ModelContext(context.container)
        let posters = try reader.fetch(FetchDescriptor<Poster>())
        #expect(posters.count == 1)
        #expect(posters.first?.persistentModelID == replacement.persistentModelID)
        #expect(posters.first?.image == Data([9]))
        #expect(posters.first?.movie?.title == "Cars")
    }

    @Test func aStoreWithoutTheUniqueIndexStillUpdatesTheStoredRow() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Tag.self) { $0.insert(Tag(name: "pixar", uses: 1)) }
        // As during a migration's custom stage, which creates the index only after the stage.
        try DatabaseQueue(path: url.path).write { db in
            let index = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Tag' AND sql LIKE '%UNIQUE%'")
            try db.execute(sql: "DROP INDEX \(try #require(index).quotedDatabaseIdentifier)")
        }
        let context = ModelContext(try ModelContainer(for: Tag.self, configurations: ModelConfiguration(url: url)))
        let duplicate = Tag(name: "pixar", uses: 5)
        context.insert(duplicate)
        try context.save()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Tag>())
        #expect(stored.map(\.uses) == [5])
        #expect(stored.first?.persistentModelID == duplicate.persistentModelID)
    }

    @Test func anInsertThatUpdatesTheStoredRowWithoutAnUpsertWritesItsRelationship() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Poster.self, Movie.self) { context in
            context.insert(Poster(code: "P1", image: Data([1]), movie: Movie(title: "Up", year: 2009, rating: 8.3)))
            context.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        }
        // Without the unique index the save finds the stored row by a lookup and updates it.
        try DatabaseQueue(path: url.path).write { db in
            let index = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Poster' AND sql LIKE '%UNIQUE%'")
            try db.execute(sql: "DROP INDEX \(try #require(index).quotedDatabaseIdentifier)")
        }
        let context = ModelContext(try ModelContainer(for: Poster.self, Movie.self, configurations: ModelConfiguration(url: url)))
        let cars = try #require(try context.fetch(FetchDescriptor<Movie>(predicate: #Predicate { $0.title == "Cars" })).first)
        context.insert(Poster(code: "P1", image: Data([2]), movie: cars))
        try context.save()
        let reader = ModelContext(context.container)
        let posters = try reader.fetch(FetchDescriptor<Poster>())
        #expect(posters.count == 1)
        #expect(posters.first?.movie?.title == "Cars")
    }

    @Test func aUniqueKeyOverANewRelatedModelMatchesNoStoredRow() throws {
        let context = ModelContext(try ModelContainer(
            for: DirectedFilm.self, FilmDirector.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(DirectedFilm(title: "Up"))
        try context.save()
        // A new director has no row yet, so this film cannot be the stored director-less one.
        context.insert(DirectedFilm(title: "Up", director: FilmDirector(name: "Pete Docter")))
        try context.save()
        let reader = ModelContext(context.container)
        let films = try reader.fetch(FetchDescriptor<DirectedFilm>())
        #expect(films.map { $0.director?.name ?? "none" }.sorted() == ["Pete Docter", "none"])
    }

    @Test func anUpsertOverAChangedObjectStoresTheInsertedValues() throws {
        let context = try inMemory()
        let first = Tag(name: "pixar", uses: 1)
        context.insert(first)
        try context.save()
        first.uses = 9
        let duplicate = Tag(name: "pixar", uses: 5)
        context.insert(duplicate)
        try context.save()
        // The inserted object stands for the row, so the row holds its values.
        #expect(duplicate.uses == 5)
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Tag>()).map(\.uses) == [5])
    }

    @Test func compoundUniqueConstraintsCompareTheWholeTuple() throws {
        let context = try inMemory()
        context.insert(Person(email: "a@x", givenName: "Ann", familyName: "Lee", age: 30))
        context.insert(Person(email: "b@x", givenName: "Ann", familyName: "Kim", age: 40))
        try context.save()
        context.insert(Person(email: "c@x", givenName: "Ann", familyName: "Lee", age: 31))
        try context.save()
        let people = try ModelContext(context.container).fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.familyName)]))
        #expect(people.map(\.familyName) == ["Kim", "Lee"])
        #expect(people[1].email == "c@x")
        #expect(people[1].age == 31)
    }

    @Test func saveNotificationsCarryTheIdentifiers() throws {
        let context = try inMemory()
        let (up, cars) = try savedUpAndCars(in: context)

        up.rating = 1
        context.delete(cars)
        let coco = Movie(title: "Coco", year: 2017, rating: 8.4)
        context.insert(coco)
        let deletedID = cars.persistentModelID
        let willSave = Recorder<Int>(0)
        let userInfo = Recorder<[AnyHashable: Any]>([:])
        let center = NotificationCenter.default
        let willObserver = center.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { _ in willSave.value += 1 }
        let didObserver = center.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { userInfo.value = $0.userInfo ?? [:] }
        defer {
            center.removeObserver(willObserver)
            center.removeObserver(didObserver)
        }
        try context.save()
        #expect(willSave.value == 1)
        let key = ModelContext.NotificationKey.self
        #expect(userInfo.value[key.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [coco.persistentModelID])
        #expect(userInfo.value[key.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [up.persistentModelID])
        #expect(userInfo.value[key.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [deletedID])
    }

    @Test func enumerateKeepsTheObjectsTheCallerHolds() throws {
        let context = try inMemory()
        for year in 1...30 { context.insert(Movie(title: "M\(year)", year: year, rating: 5)) }
        try context.save()
        let held = try #require(try context.fetch(FetchDescriptor<Movie>(predicate: #Predicate { $0.year == 7 })).first)
        try context.enumerate(FetchDescriptor<Movie>(), batchSize: 10) { _ in }
        let again = try #require(try context.fetch(FetchDescriptor<Movie>(predicate: #Predicate { $0.year == 7 })).first)
        #expect(again === held)
        #expect(held.modelContext === context)
    }

    @Test func enumerateWalksEveryMatchInBatchesAndLetsGoOfThem() throws {
        let context = try inMemory()
        for year in 1...250 {
            context.insert(Movie(title: "M\(year)", year: year, rating: 5))
        }
        try context.save()
        var years: [Int] = []
        try context.enumerate(FetchDescriptor<Movie>(predicate: #Predicate { $0.year % 2 == 0 }, sortBy: [SortDescriptor(\.year)]), batchSize: 40) {
            years.append($0.year)
        }
        #expect(years == Array(stride(from: 2, through: 250, by: 2)))

        #expect(throws: SwiftDataError.modelValidationFailure) {
            try context.enumerate(FetchDescriptor<Movie>(), batchSize: 10) { $0.rating = 1 }
        }
        context.rollback()
        try context.enumerate(FetchDescriptor<Movie>(), batchSize: 10, allowEscapingMutations: true) { $0.rating = 2 }
        try context.save()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>(predicate: #Predicate { $0.rating == 2 })) == 250)
    }

    @Test func deletesInsideEnumerateInsideATransactionAreSavedAndLetGoBatchByBatch() throws {
        let writer = try inMemory()
        for year in 1...95 { writer.insert(Movie(title: "M\(year)", year: year, rating: year % 3 == 0 ? 1 : 5)) }
        try writer.save()
        final class Seen {
            weak var movie: Movie?
            init(_ movie: Movie) { self.movie = movie }
        }
        var seen: [Seen] = []
        // A context of its own, holding no model before: the one that inserted them holds them all.
        let context = ModelContext(writer.container)
        let deletedIDs = Recorder<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) {
            deletedIDs.value = $0.userInfo?[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.transaction {
            try context.enumerate(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]), batchSize: 10) { movie in
                seen.append(Seen(movie))
                if movie.rating < 2 { context.delete(movie) }
            }
            // Each batch's models went with it, the deleted ones too: the deletes are pending.
            #expect(seen.count == 95)
            #expect(seen.filter { $0.movie != nil }.count <= 10)
            #expect(context.hasChanges)
        }
        #expect(!context.hasChanges)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        #expect(stored.map(\.year) == (1...95).filter { $0 % 3 != 0 })
        // The save says which models it deleted, though the context no longer holds them.
        #expect(deletedIDs.value.count == 31 && Set(deletedIDs.value).count == 31)
    }

    @Test func deletesInsideEnumerateStayPendingUntilASaveOrARollback() throws {
        let context = try inMemory()
        for year in 1...30 { context.insert(Movie(title: "M\(year)", year: year, rating: 5)) }
        try context.save()
        try context.enumerate(FetchDescriptor<Movie>(), batchSize: 7) { context.delete($0) }
        #expect(context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 0)
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>()) == 30)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 30)

        // An insert is still a change that escapes: the enumeration stops, keeping every change.
        let error = try #require(throws: SwiftDataError.self) {
            try context.enumerate(FetchDescriptor<Movie>(), batchSize: 10) { movie in
                context.delete(movie)
                context.insert(Movie(title: "copy of \(movie.title)", year: movie.year, rating: 1))
            }
        }
        #expect(error.description.contains("10 inserted and 0 changed models"))
        #expect(context.insertedModelsArray.count == 10)
        try context.save()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>(predicate: #Predicate { $0.rating == 1 })) == 10)
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Movie>()) == 30)
    }

    @Test func deletesInsideEnumerateCascadeAtTheSave() throws {
        let url = try countryStore()
        let context = ModelContext(try ModelContainer(for: Country.self, configurations: ModelConfiguration(url: url)))
        try context.transaction {
            try context.enumerate(FetchDescriptor<Country>(), batchSize: 1) { context.delete($0) }
        }
        let reader = ModelContext(context.container)
        #expect(try reader.fetchCount(FetchDescriptor<Country>()) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<City>()) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<Street>()) == 0)
    }

    @Test func batchedFetchLoadsAsItGoes() throws {
        let context = try inMemory()
        for year in 1...95 {
            context.insert(Movie(title: "M\(year)", year: year, rating: 5))
        }
        try context.save()
        let results = try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]), batchSize: 10)
        #expect(results.count == 95)
        #expect(results[0].year == 1)
        #expect(results[94].year == 95)
        #expect(results.map(\.year) == Array(1...95))
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Movie>(), batchSize: 7)
        #expect(identifiers.count == 95)
        context.insert(Movie(title: "new", year: 1, rating: 1))
        #expect(throws: SwiftDataError.includePendingChangesWithBatchSize) {
            _ = try context.fetch(FetchDescriptor<Movie>(), batchSize: 10)
        }
    }

    @Test func identifiersResolveInAnotherContextAndSurviveEncoding() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        try context.save()
        let data = try JSONEncoder().encode(movie.persistentModelID)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(json["implementation"]?["entityName"] as? String == "Movie")
        #expect(json["implementation"]?["isTemporary"] as? Bool == false)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: data)
        #expect(decoded == movie.persistentModelID)
        let other = ModelContext(context.container)
        let resolved = try #require(other.model(for: decoded) as? Movie)
        #expect(resolved.title == "Up")
        #expect(resolved !== movie)
    }

    @Test func anotherStoresIdentifierIsNotThisContextsModel() throws {
        let context = try inMemory()
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        context.insert(movie)
        try context.save()
        let elsewhere = try inMemory()
        let stranger = Movie(title: "Cars", year: 2006, rating: 7.2)
        elsewhere.insert(stranger)
        try elsewhere.save()
        // The same entity and row key, in another store.
        #expect(stranger.persistentModelID.rowID == movie.persistentModelID.rowID)
        #expect(context.registeredModel(for: stranger.persistentModelID) as Movie? == nil)
    }

    @Test func modelsAreObservablePropertyByProperty() throws {
        let movie = Movie(title: "Up", year: 2009, rating: 8.3)
        let titleChanges = Recorder<Int>(0)
        withObservationTracking { _ = movie.title } onChange: { titleChanges.value += 1 }
        movie.rating = 1
        #expect(titleChanges.value == 0)
        movie.title = "Up!"
        #expect(titleChanges.value == 1)
    }

    @Test func aFetchedModelChangedBeforeAnyReadIsObservedOnceRead() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        }
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)))
        let movie = try #require(try context.fetch(FetchDescriptor<Movie>()).first)
        movie.rating = 9    // nobody has read the model yet: no observer to tell
        let titles = Recorder<[String]>([])
        // The handler reads the model while the change is under way, as SwiftUI does.
        let held = Recorder(movie)
        withObservationTracking { _ = movie.title } onChange: { titles.value.append(held.value.title) }
        movie.title = "Up!"
        #expect(titles.value == ["Up"])    // told before the change, once
        movie.title = "Up!!"
        #expect(titles.value == ["Up"])    // withObservationTracking tells only the first change
        #expect(movie.rating == 9)
    }
}
