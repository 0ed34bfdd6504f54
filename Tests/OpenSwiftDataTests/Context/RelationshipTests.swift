import Foundation
import Testing
@testable import OpenSwiftData

@Suite struct RelationshipTests {
    private func container(_ url: URL, _ types: any PersistentModel.Type...) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: url))
    }

    @Test func inversesUpdateInMemoryAtOnce() {
        let shelf = Shelf(name: "Fiction")
        let book = Book(title: "Dune", pages: 412)
        shelf.books.append(book)
        #expect(book.shelf === shelf)

        let other = Book(title: "Emma", pages: 300)
        other.shelf = shelf
        #expect(shelf.books.map(\.title) == ["Dune", "Emma"])

        let second = Shelf(name: "Classics")
        other.shelf = second
        #expect(shelf.books.map(\.title) == ["Dune"])
        #expect(second.books.map(\.title) == ["Emma"])

        shelf.books.removeAll()
        #expect(book.shelf == nil)
    }

    @Test func everyFormARelationshipValueTakesListsItsModels() {
        let first = Book(title: "Dune", pages: 412)
        let second = Book(title: "Emma", pages: 474)
        let titles = { (value: Any?) in RelatedModels.models(in: value, heldAs: Book.relatedValueTypes).map { ($0 as! Book).title } }
        // Optional values as a property's generic setter boxes them: the optional itself in `Any`.
        #expect(titles(first) == ["Dune"])
        #expect(titles(Optional(first) as Any) == ["Dune"])
        #expect(titles(Book?.none as Any) == [])
        #expect(titles([first, second]) == ["Dune", "Emma"])
        #expect(titles(Optional([second, first]) as Any) == ["Emma", "Dune"])
        #expect(titles([Book]?.none as Any) == [])
        #expect(titles(nil) == [])
    }

    @Test func aSubclassInstanceInARelationshipValueIsListed() {
        let car = Car(name: "Roadster")
        let names = { (value: Any?) in RelatedModels.models(in: value, heldAs: Vehicle.relatedValueTypes).map { ($0 as! Vehicle).name } }
        #expect(names(car) == ["Roadster"])
        #expect(names([car]) == ["Roadster"])
    }

    @Test func insertingTheRootSavesTheGraphAndItReadsBackAfterReopening() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try container(url, Shelf.self))
            let shelf = Shelf(name: "Fiction")
            shelf.books = [Book(title: "Dune", pages: 412), Book(title: "Emma", pages: 300)]
            let inInit = Book(title: "Ulysses", pages: 730, shelf: shelf)
            context.insert(shelf)
            try context.save()
            #expect(inInit.modelContext === context)
            #expect(shelf.books.count == 3)
        }
        let context = ModelContext(try container(url, Shelf.self, Book.self))
        let shelves = try context.fetch(FetchDescriptor<Shelf>())
        #expect(shelves.count == 1)
        #expect(Set(shelves[0].books.map(\.title)) == ["Dune", "Emma", "Ulysses"])
        let books = try context.fetch(FetchDescriptor<Book>())
        #expect(books.count == 3)
        #expect(books.allSatisfy { $0.shelf === shelves[0] })
    }

    @Test func movingAModelBetweenOwnersIsSaved() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try container(url, Shelf.self))
        let fiction = Shelf(name: "Fiction")
        let classics = Shelf(name: "Classics")
        let emma = Book(title: "Emma", pages: 300)
        fiction.books.append(emma)
        context.insert(fiction)
        context.insert(classics)
        try context.save()
        emma.shelf = classics
        try context.save()
        let reread = ModelContext(try container(url, Shelf.self))
        let shelves = try reread.fetch(FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.name)]))
        #expect(shelves.map(\.name) == ["Classics", "Fiction"])
        #expect(shelves[0].books.map(\.title) == ["Emma"])
        #expect(shelves[1].books.isEmpty)
    }

    /// A to-many relationship filled from its inverse, one member at a time (as each new book
    /// names its shelf), holds each member once, in memory, after the save and when read back;
    /// moving members out and back leaves no copy behind.
    @Test func aToManyFilledThroughItsInverseHoldsEachMemberOnce() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try container(url, Shelf.self))
        let fiction = Shelf(name: "Fiction")
        let other = Shelf(name: "Other")
        context.insert(fiction)
        context.insert(other)
        let books = (0..<300).map { Book(title: "B\($0)", pages: $0, shelf: fiction) }
        for book in books { context.insert(book) }
        for book in books.prefix(10) {
            book.shelf = other
            book.shelf = fiction
            book.shelf = fiction
        }
        // Now last in the shelf's array, past its last full group of eight.
        books[9].shelf = other
        #expect(fiction.books.count == 299)
        books[9].shelf = fiction
        #expect(fiction.books.count == 300)
        #expect(Set(fiction.books.map(\.title)).count == 300)
        #expect(other.books.isEmpty)
        try context.save()
        #expect(fiction.books.count == 300)
        let reread = ModelContext(try container(url, Shelf.self))
        let shelf = try #require(try reread.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.name == "Fiction" })).first)
        #expect(Set(shelf.books.map(\.title)) == Set(books.map(\.title)))
        #expect(shelf.books.count == 300)
    }

    /// A shelf whose books were read before another context moved one of them away still
    /// holds it after a refetch brings the move in (the book's own side is refreshed, the shelf's
    /// loaded books are kept). Putting the book back on that shelf then must not add it twice:
    /// this is why linking looks for the new member among those held.
    @Test func linkingAMemberTheToManyStillHoldsAddsItOnce() throws {
        let url = temporaryStoreURL()
        let shared = try container(url, Shelf.self)
        let setup = ModelContext(shared)
        let fiction = Shelf(name: "Fiction")
        fiction.books = [Book(title: "Emma", pages: 300)]
        setup.insert(fiction)
        setup.insert(Shelf(name: "Classics"))
        try setup.save()

        let context = ModelContext(shared)
        let shelf = try #require(try context.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.name == "Fiction" })).first)
        let emma = try #require(shelf.books.first)

        let other = ModelContext(shared)
        let moved = try #require(try other.fetch(FetchDescriptor<Book>()).first)
        let classics = try #require(try other.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.name == "Classics" })).first)
        moved.shelf = classics
        try other.save()

        _ = try context.fetch(FetchDescriptor<Book>())
        #expect(emma.shelf?.name == "Classics")
        #expect(shelf.books.map(\.title) == ["Emma"])
        emma.shelf = shelf
        #expect(shelf.books.map(\.title) == ["Emma"])
    }

    @Test func deletingModelsRemovesTheirJoinRows() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try container(url, Student.self))
        let art = Course(title: "Art")
        let students = ["Ann", "Bob", "Cy"].map { Student(name: $0) }
        for student in students {
            student.courses = [art]
            context.insert(student)
        }
        try context.save()
        context.delete(students[0])
        context.delete(students[2])
        try context.save()
        // The many-to-many's rows, one per student and course; Bob's is the one left.
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"_osd_join_Course_students\"")[0] as Int == 1)
        let reread = ModelContext(try container(url, Student.self))
        let courses = try reread.fetch(FetchDescriptor<Course>())
        #expect(courses.first?.students.map(\.name) == ["Bob"])
    }

    @Test func manyToManyIsSavedFromBothSides() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try container(url, Student.self))
            let ann = Student(name: "Ann")
            let bob = Student(name: "Bob")
            let math = Course(title: "Math")
            let art = Course(title: "Art")
            ann.courses = [math, art]
            art.students.append(bob)
            #expect(Set(math.students.map(\.name)) == ["Ann"])
            #expect(Set(bob.courses.map(\.title)) == ["Art"])
            context.insert(ann)
            context.insert(bob)
            try context.save()
        }
        let context = ModelContext(try container(url, Student.self))
        let students = try context.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))
        #expect(Set(students[0].courses.map(\.title)) == ["Math", "Art"])
        #expect(students[1].courses.map(\.title) == ["Art"])
        let art = try #require(students[1].courses.first)
        #expect(Set(art.students.map(\.name)) == ["Ann", "Bob"])

        art.students.removeAll { $0.name == "Ann" }
        try context.save()
        let again = ModelContext(try container(url, Student.self))
        let ann = try again.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))[0]
        #expect(ann.courses.map(\.title) == ["Math"])
    }

    @Test func inversesAreInferredWhenUnambiguous() throws {
        let schema = Schema([Writer.self])
        #expect(schema.entitiesByName["Writer"]?.relationshipsByName["essays"]?.inverseName == "writer")
        #expect(schema.entitiesByName["Essay"]?.relationshipsByName["writer"]?.inverseName == "essays")
        #expect(schema.entitiesByName["Playlist"] == nil)
        let playlist = Schema([Playlist.self])
        #expect(playlist.entitiesByName["Playlist"]?.relationshipsByName["songs"]?.inverseName == nil)
        #expect(playlist.entitiesByName["Song"] != nil)
        let essay = Essay(title: "On Trees")
        let writer = Writer(name: "Ann")
        essay.writer = writer
        #expect(writer.essays.map(\.title) == ["On Trees"])
    }

    @Test func nullifyEmptiesTheInverseOfADeletedModel() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try container(url, Writer.self))
        let writer = Writer(name: "Ann")
        let essay = Essay(title: "On Trees")
        writer.essays.append(essay)
        context.insert(writer)
        try context.save()
        context.delete(writer)
        try context.save()
        #expect(essay.writer == nil)
        let reread = try ModelContext(try container(url, Writer.self)).fetch(FetchDescriptor<Essay>())
        #expect(reread.count == 1)
        #expect(reread[0].writer == nil)
    }

    @Test func cascadeDeletesThreeLevelsDeep() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try container(url, Country.self))
            let country = Country(name: "France")
            let paris = City(name: "Paris")
            paris.streets = [Street(name: "Rue de Rivoli"), Street(name: "Rue Cler")]
            let lyon = City(name: "Lyon")
            lyon.streets = [Street(name: "Rue de la République")]
            country.cities = [paris, lyon]
            context.insert(country)
            let other = Country(name: "Italy")
            let rome = City(name: "Rome")
            rome.streets = [Street(name: "Via del Corso")]
            other.cities = [rome]
            context.insert(other)
            try context.save()
        }
        let context = ModelContext(try container(url, Country.self))
        let france = try context.fetch(FetchDescriptor<Country>(predicate: #Predicate { $0.name == "France" }))[0]
        context.delete(france)
        try context.save()
        let reread = ModelContext(try container(url, Country.self))
        #expect(try reread.fetch(FetchDescriptor<Country>()).map(\.name) == ["Italy"])
        #expect(try reread.fetch(FetchDescriptor<City>()).map(\.name) == ["Rome"])
        #expect(try reread.fetch(FetchDescriptor<Street>()).map(\.name) == ["Via del Corso"])
    }

    @Test func denyRefusesTheSaveAndWritesNothing() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try container(url, Library.self))
        let library = Library(name: "Central")
        library.members.append(Member(name: "Ann"))
        context.insert(library)
        try context.save()
        let before = try Data(contentsOf: url)

        context.delete(library)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error.description.contains("Library"))
        #expect(error.description.contains("members"))
        #expect(error.description.contains(".deny"))
        #expect(try Data(contentsOf: url) == before)
        let reread = ModelContext(try container(url, Library.self))
        #expect(try reread.fetchCount(FetchDescriptor<Library>()) == 1)
        #expect(try reread.fetch(FetchDescriptor<Member>())[0].library?.name == "Central")

        context.rollback()
        library.members.removeAll()
        context.delete(library)
        try context.save()
        #expect(try ModelContext(try container(url, Library.self)).fetchCount(FetchDescriptor<Library>()) == 0)
    }

    @Test func oneWayRelationshipsPersist() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try container(url, Playlist.self))
            let playlist = Playlist(name: "Road")
            let songs = [Song(title: "A"), Song(title: "B")]
            playlist.songs = songs
            playlist.favorite = songs[1]
            context.insert(playlist)
            try context.save()
        }
        let context = ModelContext(try container(url, Playlist.self))
        let playlist = try context.fetch(FetchDescriptor<Playlist>())[0]
        #expect(Set(playlist.songs.map(\.title)) == ["A", "B"])
        #expect(playlist.favorite?.title == "B")
        #expect(try context.fetchCount(FetchDescriptor<Song>()) == 2)
    }

    @Test func modelCountBoundsAreCheckedAtSave() throws {
        let context = ModelContext(try ModelContainer(for: Team.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let team = Team(name: "Empty")
        context.insert(team)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error.description.contains("Team.players holds 0 models"))
        team.players = [Player(name: "A"), Player(name: "B"), Player(name: "C")]
        let tooMany = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(tooMany == .modelValidationFailure)
        #expect(tooMany.description.contains("Team.players holds 3 models"))
        let removed = team.players.removeLast()
        #expect(removed.team == nil)
        try context.save()
        #expect(team.players.count == 2)
        // Player C joined the context when it joined the team; leaving the team does not delete it.
        #expect(try context.fetchCount(FetchDescriptor<Player>()) == 3)
        let reread = ModelContext(context.container)
        let rereadTeam = try reread.fetch(FetchDescriptor<Team>())[0]
        #expect(rereadTeam.players.map(\.name).sorted() == ["A", "B"])
    }

    @Test func oneObjectPerRowHoldsAcrossRelationships() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(try container(url, Shelf.self))
            let shelf = Shelf(name: "S")
            shelf.books = [Book(title: "A", pages: 1), Book(title: "B", pages: 2)]
            context.insert(shelf)
            try context.save()
        }
        let context = ModelContext(try container(url, Shelf.self))
        let books = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        let shelf = try #require(books[0].shelf)
        #expect(books[1].shelf === shelf)
        #expect(shelf.books.contains { $0 === books[0] })
    }
}

@Suite struct PrefetchingTests {
    @Test func prefetchingLoadsRelationshipsWithOneQueryEach() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Shelf.self) { context in
            for shelfNumber in 0..<20 {
                let shelf = Shelf(name: "S\(shelfNumber)")
                shelf.books = (0..<5).map { Book(title: "B\(shelfNumber)-\($0)", pages: $0) }
                context.insert(shelf)
            }
        }
        SQLiteStore.countsQueries.store(true, ordering: .relaxed)
        func statements(prefetching: Bool) throws -> (Int, Int) {
            let container = try ModelContainer(for: Shelf.self, configurations: ModelConfiguration(url: url))
            let store = try #require(container.stores.first as? SQLiteStore)
            let context = ModelContext(container)
            var shelves = FetchDescriptor<Shelf>()
            var books = FetchDescriptor<Book>()
            if prefetching {
                shelves.relationshipKeyPathsForPrefetching = [\.books]
                books.relationshipKeyPathsForPrefetching = [\.shelf]
            }
            _ = try context.fetchCount(shelves)  // opens the reading connection, which queries too
            let before = store.executedQueryCount
            let fetchedShelves = try context.fetch(shelves)
            let bookCount = fetchedShelves.reduce(0) { $0 + $1.books.count }
            let shelfStatements = store.executedQueryCount - before

            let other = ModelContext(container)
            let middle = store.executedQueryCount
            let names = Set(try other.fetch(books).compactMap { $0.shelf?.name })
            let bookStatements = store.executedQueryCount - middle
            #expect(bookCount == 100)
            #expect(names.count == 20)
            return (shelfStatements, bookStatements)
        }
        let lazy = try statements(prefetching: false)
        let prefetched = try statements(prefetching: true)
        #expect(lazy.0 > 20)
        #expect(lazy.1 > 20)
        #expect(prefetched.0 == 2)
        #expect(prefetched.1 == 2)
    }

    @Test func aCascadeLoadsEachLevelWithOneQueryNotOnePerModel() throws {
        let url = try countryStore()
        SQLiteStore.countsQueries.store(true, ordering: .relaxed)
        let container = try ModelContainer(for: Country.self, configurations: ModelConfiguration(url: url))
        let store = try #require(container.stores.first as? SQLiteStore)
        let context = ModelContext(container)
        for country in try context.fetch(FetchDescriptor<Country>()) { context.delete(country) }
        let before = store.executedQueryCount
        try context.save()
        // Four countries' cities, then twenty cities' streets: a query for each level.
        #expect(store.executedQueryCount - before == 2)
        for table in ["Country", "City", "Street"] {
            #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM \"\(table)\"")[0] as Int == 0)
        }
    }
}

@Suite struct RelationshipLifetimeTests {
    @Test func modelsThatReferToEachOtherGoWhenTheirContextGoes() throws {
        let container = try ModelContainer(for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        weak var weakShelf: Shelf?
        weak var weakBook: Book?
        do {
            let context = ModelContext(container)
            let shelf = Shelf(name: "Fiction")
            let book = Book(title: "Emma", pages: 300, shelf: shelf)
            context.insert(shelf)
            try context.save()
            weakShelf = shelf
            weakBook = book
        }
        #expect(weakShelf == nil)
        #expect(weakBook == nil)
    }

    @Test func aDeletedGraphGoesOnceSaved() throws {
        let context = ModelContext(try ModelContainer(for: Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        weak var weakShelf: Shelf?
        weak var weakBook: Book?
        do {
            let shelf = Shelf(name: "Fiction")
            let book = Book(title: "Emma", pages: 300, shelf: shelf)
            context.insert(shelf)
            try context.save()
            context.delete(shelf)
            try context.save()
            #expect(book.isDeleted)
            weakShelf = shelf
            weakBook = book
        }
        // The context lives on; the deleted models no longer hold each other.
        #expect(weakShelf == nil)
        #expect(weakBook == nil)
    }
}
