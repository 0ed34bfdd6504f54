import Foundation
import GRDB
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
        #expect(context.registered["Movie"]?.isEmpty ?? true)
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

    /// Delete rules run in SQL at the save: no model of any level is loaded, and the rows the
    /// cascade reaches go while the other countries' stay.
    @Test func aCascadeRunsInTheStoreWithoutLoadingModels() throws {
        let url = try countryStore()
        let context = try open(url, Country.self)
        try context.delete(model: Country.self, where: #Predicate { $0.name == "C1" || $0.name == "C2" })
        #expect(context.deletedModelsArray.isEmpty)
        #expect(try context.fetchCount(FetchDescriptor<Country>()) == 2)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try storedCount(url, "Country") == 2)
        #expect(try storedCount(url, "City") == 10)
        #expect(try storedCount(url, "Street") == 30)
        let reopened = try open(url, Country.self)
        let streets = try reopened.fetch(FetchDescriptor<Street>(sortBy: [SortDescriptor(\.name)]))
        #expect(Set(streets.map { String($0.name.prefix(2)) }) == ["C0", "C3"])
        #expect(streets.allSatisfy { $0.city?.country?.name == String($0.name.prefix(2)) })

        // The save dropped its temporary key tables: the next one, on the same connection,
        // makes them again.
        try context.delete(model: Country.self, where: #Predicate { $0.name == "C3" })
        try context.save()
        #expect(try storedCount(url, "Street") == 15)
    }

    /// Deleting every country empties the cities and streets that all belong to one (SQLite's
    /// truncation, no key gathered). A city of no country, or one whose key points at a row
    /// that is gone, is not reached by the cascade and stays with its streets.
    @Test(arguments: [nil, 999] as [Int?])
    func deletingEveryRowCascadesToWhatTheyHoldOnly(strayCountryKey: Int?) throws {
        let url = try countryStore()
        try writeStore(url, for: Country.self) { context in
            let stray = City(name: "Stray")
            stray.streets = [Street(name: "Lost")]
            context.insert(stray)
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: #"UPDATE "City" SET "country" = ? WHERE "name" = 'Stray'"#, arguments: [strayCountryKey]) }
        let context = try open(url, Country.self)
        try context.delete(model: Country.self)
        try context.save()
        #expect(try storedCount(url, "Country") == 0)
        let reopened = try open(url, Country.self)
        let cities = try reopened.fetch(FetchDescriptor<City>())
        #expect(cities.map(\.name) == ["Stray"])
        #expect(cities.map { $0.streets.map(\.name) } == [["Lost"]])

        let whole = try countryStore()
        let allHeld = try open(whole, Country.self)
        try allHeld.delete(model: Country.self)
        try allHeld.save()
        #expect(try storedCount(whole, "City") == 0)
        #expect(try storedCount(whole, "Street") == 0)
    }

    /// A relationship from an entity to itself cascades down a tree as deep as it goes: the
    /// store's walk repeats until no new row is reached.
    @Test func aCascadeFollowsARelationshipToItsOwnEntity() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Folder.self) { context in
            let root = Folder(name: "root")
            context.insert(root)
            var parent = root
            for depth in 1...6 {
                let folder = Folder(name: "deep\(depth)", parent: parent)
                _ = Folder(name: "side\(depth)", parent: parent)
                parent = folder
            }
            let other = Folder(name: "other")
            context.insert(other)
            _ = Folder(name: "kept", parent: other)
        }
        #expect(try storedCount(url, "Folder") == 15)
        let context = try open(url, Folder.self)
        try context.delete(model: Folder.self, where: #Predicate { $0.name == "root" })
        #expect(context.deletedModelsArray.isEmpty)
        try context.save()
        let reopened = try open(url, Folder.self)
        let names = try reopened.fetch(FetchDescriptor<Folder>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["kept", "other"])
    }

    /// With the default `.nullify` rule, the essays of a deleted writer stay without one.
    @Test func nullifyClearsTheKeysOfRowsThatStay() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Writer.self) { context in
            let writer = Writer(name: "Le Guin")
            context.insert(writer)
            writer.essays = [Essay(title: "Dancing"), Essay(title: "Carrier Bag")]
            context.insert(Writer(name: "Other"))
        }
        let context = try open(url, Writer.self)
        try context.delete(model: Writer.self, where: #Predicate { $0.name == "Le Guin" })
        try context.save()
        #expect(try storedCount(url, "Writer") == 1)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"Essay\" WHERE \"writer\" IS NULL")[0] as Int == 2)
        let reopened = try open(url, Writer.self)
        let essays = try reopened.fetch(FetchDescriptor<Essay>())
        #expect(essays.count == 2 && essays.allSatisfy { $0.writer == nil })
    }

    /// A `.deny` relationship that still holds rows refuses the save, and nothing is deleted.
    @Test func denyRefusesTheSaveAndDeletesNothing() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Library.self) { context in
            let library = Library(name: "Central")
            context.insert(library)
            library.members = [Member(name: "Ada"), Member(name: "Alan")]
            context.insert(Library(name: "Empty"))
        }
        let context = try open(url, Library.self)
        try context.delete(model: Library.self)
        #expect(context.deletedModelsArray.isEmpty)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect("\(error)".contains("Library rows cannot be deleted: their relationship members has the .deny delete rule and still holds 2 Member rows"))
        #expect(try storedCount(url, "Library") == 2)
        #expect(try storedCount(url, "Member") == 2)

        // The refused save left no temporary key table behind on its connection: the same
        // context deletes the library without members.
        context.rollback()
        try context.delete(model: Library.self, where: #Predicate { $0.name == "Empty" })
        try context.save()
        #expect(try storedCount(url, "Library") == 1)
    }

    /// Rows that stay and cannot lose their reference (a non-optional key) refuse the delete.
    @Test func aNonOptionalReferenceToADeletedRowRefusesTheSave() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Account.self) { context in
            let account = Account(name: "ada")
            context.insert(account)
            context.insert(Login(at: 1, account: account))
        }
        let context = try open(url, Account.self)
        try context.delete(model: Account.self)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect("\(error)".contains("Account rows cannot be deleted: 1 Login row that stay hold them in Login.account, which is not optional"))
        #expect(try storedCount(url, "Account") == 1)
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"Login\" WHERE \"account\" IS NOT NULL")[0] as Int == 1)
    }

    /// Join rows of deleted rows go from both sides of a many-to-many relationship; the
    /// students stay.
    @Test func joinRowsOfDeletedRowsGo() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Course.self) { context in
            let ada = Student(name: "Ada"), alan = Student(name: "Alan")
            let logic = Course(title: "Logic"), poetry = Course(title: "Poetry")
            context.insert(logic)
            context.insert(poetry)
            logic.students = [ada, alan]
            poetry.students = [ada]
        }
        let context = try open(url, Course.self)
        try context.delete(model: Course.self, where: #Predicate { $0.title == "Logic" })
        try context.save()
        #expect(try storedCount(url, "Student") == 2)
        let reopened = try open(url, Course.self)
        let students = try reopened.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))
        #expect(students.map { $0.courses.map(\.title) } == [["Poetry"], []])
        #expect(try storedCount(url, "_osd_join_Course_students") == 1)
    }

    /// Rows that point at deleted ones through one-way relationships lose the reference: the
    /// key is cleared and the join row goes, nothing is left dangling.
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
        #expect(context.deletedModelsArray.isEmpty)
        try context.save()
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"Playlist\" WHERE \"favorite\" IS NOT NULL")[0] as Int == 0)
        #expect(try storedCount(url, "_osd_join_Playlist_songs") == 1)
        let reopened = try open(url, Playlist.self, Song.self)
        let playlist = try #require(try reopened.fetch(FetchDescriptor<Playlist>()).first)
        #expect(playlist.songs.map(\.title) == ["Red"])
        #expect(playlist.favorite == nil)
    }

    /// A model of an entity the cascade reaches, loaded after the call, makes the save delete
    /// model by model: the loaded city is marked deleted and let go, not left over a gone row.
    @Test func aModelTheCascadeReachesLoadedBeforeTheSaveIsDeletedToo() throws {
        let url = try countryStore()
        let context = try open(url, Country.self)
        try context.delete(model: Country.self, where: #Predicate { $0.name == "C0" })
        let city = try #require(try context.fetch(FetchDescriptor<City>(predicate: #Predicate { $0.name == "C0-1" })).first)
        try context.save()
        #expect(city.isDeleted)
        #expect(city.modelContext == nil)
        #expect(try storedCount(url, "Country") == 3)
        #expect(try storedCount(url, "City") == 15)
        #expect(try storedCount(url, "Street") == 45)
    }

    /// A context that holds models the delete would touch deletes model by model from the start.
    @Test func heldModelsOfATouchedEntityDeleteModelByModel() throws {
        let url = try countryStore()
        let context = try open(url, Country.self)
        let streets = try context.fetch(FetchDescriptor<Street>())
        try context.delete(model: Country.self, where: #Predicate { $0.name == "C3" })
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(streets.filter(\.isDeleted).count == 15)
        #expect(try storedCount(url, "Street") == 45)
    }
}
