import Foundation
import Testing
@testable import OpenSwiftData

/// `delete(model:where:)`: one `DELETE` at the next save when no relationship involves the
/// entity, with the same view of the context until then as deleting each model would give.
@Suite struct BatchDeleteTests {
    /// A store of ten movies, 2000 through 2009; those of 2001, 2004 and 2007 have notes.
    private func movieStore() throws -> URL {
        let url = temporaryStoreURL()
        try writeStore(url, for: Movie.self) { context in
            for year in 2000..<2010 {
                context.insert(Movie(title: "M\(year)", year: year, rating: 7, notes: year % 3 == 0 ? "note \(year)" : nil))
            }
        }
        return url
    }

    private func open(_ url: URL, _ types: any PersistentModel.Type...) throws -> ModelContext {
        ModelContext(try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: url)))
    }

    private func storedCount(_ url: URL, _ table: String) throws -> Int {
        try rawRow(url, sql: "SELECT COUNT(*) FROM \"\(table)\"")[0]
    }

    @Test func matchingRowsGoAtTheNextSaveWithoutBeingLoaded() throws {
        let url = try movieStore()
        let context = try open(url, Movie.self)
        try context.delete(model: Movie.self, where: #Predicate { $0.year < 2005 })
        #expect(context.registered["Movie", default: [:]].isEmpty)
        #expect(context.hasChanges)
        #expect(try storedCount(url, "Movie") == 10)

        // Until the save, fetches that see unsaved changes leave the rows out.
        #expect(try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)])).map(\.year) == Array(2005..<2010))
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 5)
        var storedOnly = FetchDescriptor<Movie>()
        storedOnly.includePendingChanges = false
        #expect(try context.fetchCount(storedOnly) == 10)

        try context.save()
        #expect(!context.hasChanges)
        #expect(try storedCount(url, "Movie") == 5)
        #expect(try open(url, Movie.self).fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)])).map(\.year)
            == Array(2005..<2010))
    }

    @Test func modelsTheContextHoldsAreMarkedDeletedAtOnce() throws {
        let url = try movieStore()
        let context = try open(url, Movie.self)
        let held = try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)]))
        try context.delete(model: Movie.self, where: #Predicate { $0.year >= 2008 })
        #expect(held.map(\.isDeleted) == Array(repeating: false, count: 8) + [true, true])
        #expect(context.deletedModelsArray.count == 2)
        try context.save()
        #expect(try storedCount(url, "Movie") == 8)
        #expect(context.registeredModel(for: held[9].persistentModelID) as Movie? == nil)
    }

    /// A model of a matching row loaded after the call is let go at the save and reported
    /// deleted, as the models held before the call are.
    @Test func aModelLoadedAfterTheCallIsLetGoAtTheSave() throws {
        let url = try movieStore()
        let context = try open(url, Movie.self)
        var stored = FetchDescriptor<Movie>(predicate: #Predicate { $0.year == 2001 })
        stored.includePendingChanges = false
        let id = try #require(try context.fetchIdentifiers(stored).first)
        try context.delete(model: Movie.self, where: #Predicate { $0.year < 2005 })
        let late = try #require(context.model(for: id) as? Movie)
        #expect(late.year == 2001)
        let deletedIDs = Recorder<[PersistentIdentifier]>([])
        let observer = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
            deletedIDs.value = note.userInfo?[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(late.isDeleted)
        #expect(late.modelContext == nil)
        #expect(context.registeredModel(for: id) as Movie? == nil)
        #expect(deletedIDs.value == [id])
        #expect(try storedCount(url, "Movie") == 5)
    }

    /// A row whose condition is `NULL` (no notes to compare) is not deleted, and fetches before
    /// the save keep it too.
    @Test func rowsTheConditionIsNullForStay() throws {
        let url = try movieStore()
        let context = try open(url, Movie.self)
        try context.delete(model: Movie.self, where: #Predicate { $0.notes == "note 2004" })
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 9)
        try context.save()
        #expect(try storedCount(url, "Movie") == 9)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"Movie\" WHERE \"notes\" IS NULL")[0] as Int == 7)
    }

    @Test func rollbackForgetsAPendingDelete() throws {
        let url = try movieStore()
        let context = try open(url, Movie.self)
        try context.delete(model: Movie.self)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 0)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 10)
        try context.save()
        #expect(try storedCount(url, "Movie") == 10)
    }

    @Test func externalValuesOfDeletedRowsGoToo() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Photo.self) { context in
            context.insert(Photo(name: "big", image: Data(repeating: 1, count: 1000), thumbnail: Data([1])))
            context.insert(Photo(name: "small", image: Data([9])))
        }
        let context = try open(url, Photo.self)
        try context.delete(model: Photo.self, where: #Predicate { $0.name == "big" })
        try context.save()
        #expect(try storedCount(url, "Photo") == 1)
        for sideTable in ["_osd_external_Photo_image", "_osd_external_Photo_thumbnail"] {
            let orphans: Int = try rawRow(url, sql: "SELECT COUNT(*) FROM \(sideTable) WHERE _pk NOT IN (SELECT _pk FROM \"Photo\")")[0]
            #expect(orphans == 0, "\(sideTable) keeps values of deleted rows")
        }
        #expect(try open(url, Photo.self).fetch(FetchDescriptor<Photo>()).map(\.image) == [Data([9])])
    }

    /// An entity with relationships is deleted model by model, so delete rules still run.
    @Test func anEntityWithRelationshipsStillCascades() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Shelf.self, Book.self) { context in
            let shelf = Shelf(name: "Fiction")
            context.insert(shelf)
            shelf.books = [Book(title: "Dune", pages: 412), Book(title: "Emma", pages: 474)]
            context.insert(Shelf(name: "Empty"))
        }
        let context = try open(url, Shelf.self, Book.self)
        try context.delete(model: Shelf.self, where: #Predicate { $0.name == "Fiction" })
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try storedCount(url, "Shelf") == 1)
        #expect(try storedCount(url, "Book") == 0)
    }

    /// An entity only another entity's one-way relationships point at is deleted model by
    /// model too, so no key or join row is left pointing at a deleted row.
    @Test func anEntityOthersPointAtLeavesNoDanglingReferences() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Playlist.self, Song.self) { context in
            let playlist = Playlist(name: "Mix")
            context.insert(playlist)
            let song = Song(title: "Blue")
            playlist.songs = [song, Song(title: "Red")]
            playlist.favorite = song
        }
        let context = try open(url, Playlist.self, Song.self)
        try context.delete(model: Song.self, where: #Predicate { $0.title == "Blue" })
        // Loaded and marked deleted, not left to a statement at the save.
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        let reopened = try open(url, Playlist.self, Song.self)
        let playlist = try #require(try reopened.fetch(FetchDescriptor<Playlist>()).first)
        #expect(playlist.songs.map(\.title) == ["Red"])
        #expect(playlist.favorite == nil)
    }
}
