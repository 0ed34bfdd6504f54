import Foundation
import Testing
@testable import OpenSwiftData

// Predicates and sorts through relationships, run end to end through `ModelContext.fetch` on a
// real store and checked against `predicate.evaluate` and `sorted(using:)` over the same
// objects in memory.

/// A saved graph of every kind of relationship, in one in-memory store.
///
/// - Shelf/Book (to-many through the inverse key column `Book.shelf`): Fiction holds Dune (412
///   pages), Emma (300) and Ulysses (730); Classics holds Iliad (500); Poetry holds Haiku (40)
///   and Odes (120); Empty holds nothing; Loose (200) and Notebook (50) are on no shelf.
/// - Student/Course (many-to-many, one join table): Ann takes Math and Art, Bob takes Art, Cat
///   takes nothing, Dan takes Math, Art and Music; nobody takes Latin.
/// - Playlist/Song (one-way to-many `songs`, in a join table of its own, and to-one
///   `favorite`): Road plays Alpha and Beta, favorite Alpha; Quiet plays Gamma, no favorite;
///   Silence plays nothing, favorite Delta.
/// - Country/City/Street (chains of to-one): France has Paris (Rue A, Rue B) and Lyon (Rue C);
///   Japan has Tokyo (Ginza); Atlantis (Main) is in no country; Lonely is in no city.
struct RelationshipGraph {
    let container: ModelContainer

    init() throws {
        // One test counts the queries a fetch runs.
        SQLiteStore.countsQueries.store(true, ordering: .relaxed)
        container = try ModelContainer(
            for: Shelf.self, Student.self, Playlist.self, Country.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)

        let fiction = Shelf(name: "Fiction")
        fiction.books = [Book(title: "Dune", pages: 412), Book(title: "Emma", pages: 300), Book(title: "Ulysses", pages: 730)]
        let classics = Shelf(name: "Classics")
        classics.books = [Book(title: "Iliad", pages: 500)]
        let poetry = Shelf(name: "Poetry")
        poetry.books = [Book(title: "Haiku", pages: 40), Book(title: "Odes", pages: 120)]
        for model in [fiction, classics, poetry, Shelf(name: "Empty")] { context.insert(model) }
        context.insert(Book(title: "Loose", pages: 200))
        context.insert(Book(title: "Notebook", pages: 50))

        let math = Course(title: "Math"), art = Course(title: "Art"), music = Course(title: "Music")
        let ann = Student(name: "Ann"), bob = Student(name: "Bob"), cat = Student(name: "Cat"), dan = Student(name: "Dan")
        ann.courses = [math, art]
        bob.courses = [art]
        dan.courses = [math, art, music]
        for model in [ann, bob, cat, dan] { context.insert(model) }
        context.insert(Course(title: "Latin"))

        let alpha = Song(title: "Alpha"), beta = Song(title: "Beta"), gamma = Song(title: "Gamma"), delta = Song(title: "Delta")
        let road = Playlist(name: "Road"), quiet = Playlist(name: "Quiet"), silence = Playlist(name: "Silence")
        road.songs = [alpha, beta]
        road.favorite = alpha
        quiet.songs = [gamma]
        silence.favorite = delta
        for model in [road, quiet, silence] { context.insert(model) }

        let france = Country(name: "France"), japan = Country(name: "Japan")
        let paris = City(name: "Paris"), lyon = City(name: "Lyon"), tokyo = City(name: "Tokyo"), atlantis = City(name: "Atlantis")
        paris.streets = [Street(name: "Rue A"), Street(name: "Rue B")]
        lyon.streets = [Street(name: "Rue C")]
        tokyo.streets = [Street(name: "Ginza")]
        atlantis.streets = [Street(name: "Main")]
        france.cities = [paris, lyon]
        japan.cities = [tokyo]
        context.insert(france)
        context.insert(japan)
        context.insert(atlantis)
        context.insert(Street(name: "Lonely"))
        try context.save()
    }

    /// A new context, holding nothing: what it fetches comes from SQL.
    func context() -> ModelContext {
        ModelContext(container)
    }

    /// The store, to count the statements a fetch runs.
    var store: SQLiteStore {
        get throws { try #require(container.stores.first as? SQLiteStore) }
    }

    /// The identifier of the model of type `T` whose `name` key path reads `value`.
    func identifier<T: PersistentModel>(_ type: T.Type, _ key: KeyPath<T, String>, _ value: String) throws -> PersistentIdentifier {
        let model = try #require(try context().fetch(FetchDescriptor<T>()).first { $0[keyPath: key] == value })
        return model.persistentModelID
    }
}

/// Fetches through SQL and expects exactly the models that `evaluate` selects over every model
/// of the entity in memory and, with sort descriptors, in the order `sorted(using:)` gives (ties
/// in the order the models were saved). Returns what `name` reads of the fetched models: in the
/// fetch's order with sort descriptors, alphabetical without (SQL then promises no order).
///
/// - Parameter discriminating: also require the predicate to select some models but not all.
@discardableResult
func expectSQLMatchesMemory<T: PersistentModel>(
    _ predicate: Predicate<T>?, sortBy: [SortDescriptor<T>] = [], in container: ModelContainer,
    name: KeyPath<T, String>, discriminating: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String] {
    let context = ModelContext(container)
    let fetched = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: sortBy))
    let memory = ModelContext(container)
    let everything = try memory.fetch(FetchDescriptor<T>())
        .sorted { $0.persistentModelID < $1.persistentModelID }
    var expected = try everything.filter { try predicate?.evaluate($0) ?? true }
    expected.sort(using: sortBy)
    let inOrder = sortBy.isEmpty ? fetched.sorted { $0.persistentModelID < $1.persistentModelID } : fetched
    let names = inOrder.map { $0[keyPath: name] }
    #expect(names == expected.map { $0[keyPath: name] }, sourceLocation: sourceLocation)
    if discriminating {
        #expect(
            !expected.isEmpty && expected.count < everything.count,
            "the predicate selects \(expected.count) of \(everything.count) models", sourceLocation: sourceLocation)
    }
    // The count and the identifiers come from SQL too.
    #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, sourceLocation: sourceLocation)
    let identifiers = try context.fetchIdentifiers(FetchDescriptor(predicate: predicate, sortBy: sortBy))
    #expect(
        (sortBy.isEmpty ? identifiers.sorted() : identifiers) == expected.map(\.persistentModelID),
        sourceLocation: sourceLocation)
    return sortBy.isEmpty ? names.sorted() : names
}

/// The explanation of the `SwiftDataError` a fetch throws, or nil when it succeeds.
func fetchError<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, in container: ModelContainer) -> String? {
    unsupportedExplanation { _ = try ModelContext(container).fetch(descriptor) }
}

@Suite struct ToOnePredicateTests {
    let graph: RelationshipGraph

    init() throws {
        graph = try RelationshipGraph()
    }

    @Test func optionalChainingReadsTheRelatedModelsAttribute() throws {
        let fiction = try expectSQLMatchesMemory(#Predicate<Book> { $0.shelf?.name == "Fiction" }, in: graph.container, name: \.title)
        #expect(fiction == ["Dune", "Emma", "Ulysses"])
        // `nil != "Fiction"` holds for the books on no shelf.
        let others = try expectSQLMatchesMemory(#Predicate<Book> { $0.shelf?.name != "Fiction" }, in: graph.container, name: \.title)
        #expect(others == ["Haiku", "Iliad", "Loose", "Notebook", "Odes"])
        try expectSQLMatchesMemory(#Predicate<Book> { $0.shelf?.name.starts(with: "C") == true }, in: graph.container, name: \.title)
        try expectSQLMatchesMemory(#Predicate<Book> { ($0.shelf?.name ?? "none") == "none" }, in: graph.container, name: \.title)
        try expectSQLMatchesMemory(
            #Predicate<Book> { book in
                if let shelf = book.shelf { shelf.name != "Poetry" && book.pages > 300 } else { book.pages > 100 }
            },
            in: graph.container, name: \.title)
        try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf != nil && $0.shelf!.name == "Classics" }, in: graph.container, name: \.title)
    }

    @Test func forceUnwrappingAnEmptyRelationshipFailsAsEvaluateDoes() throws {
        let predicate = #Predicate<Book> { $0.shelf!.name == "Fiction" }
        let context = graph.context()
        let loose = try #require(try context.fetch(FetchDescriptor<Book>()).first { $0.shelf == nil })
        #expect(throws: (any Error).self) { try predicate.evaluate(loose) }
        let error = #expect(throws: (any Error).self) { try graph.context().fetch(FetchDescriptor(predicate: predicate)) }
        // SQL ran the predicate and stopped on the empty relationship, as `evaluate` does; it did
        // not refuse to translate it.
        #expect("\(String(describing: error))".contains("force-unwrapped with ! in the predicate is nil"))
    }

    @Test func chainsOfToOneRelationships() throws {
        let french = try expectSQLMatchesMemory(
            #Predicate<Street> { $0.city?.country?.name == "France" }, in: graph.container, name: \.name)
        #expect(french == ["Rue A", "Rue B", "Rue C"])
        let stateless = try expectSQLMatchesMemory(
            #Predicate<Street> { $0.city != nil && $0.city?.country == nil }, in: graph.container, name: \.name)
        #expect(stateless == ["Main"])
        try expectSQLMatchesMemory(
            #Predicate<Street> { $0.city?.country?.cities.count ?? 0 == 2 }, in: graph.container, name: \.name)
    }

    @Test func comparingWithNil() throws {
        let shelved = try expectSQLMatchesMemory(#Predicate<Book> { $0.shelf != nil }, in: graph.container, name: \.title)
        #expect(shelved.count == 6)
        let loose = try expectSQLMatchesMemory(#Predicate<Book> { $0.shelf == nil }, in: graph.container, name: \.title)
        #expect(loose == ["Loose", "Notebook"])
        let noFavorite = try expectSQLMatchesMemory(#Predicate<Playlist> { $0.favorite == nil }, in: graph.container, name: \.name)
        #expect(noFavorite == ["Quiet"])
        try expectSQLMatchesMemory(#Predicate<Playlist> { $0.favorite?.title == "Delta" }, in: graph.container, name: \.name)
    }

    @Test func comparingByPersistentModelID() throws {
        let fictionID = try graph.identifier(Shelf.self, \.name, "Fiction")
        let onFiction = try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf?.persistentModelID == fictionID }, in: graph.container, name: \.title)
        #expect(onFiction == ["Dune", "Emma", "Ulysses"])
        try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf?.persistentModelID != fictionID }, in: graph.container, name: \.title)
        try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf.flatMap { $0.persistentModelID == fictionID } ?? false }, in: graph.container, name: \.title)

        let duneID = try graph.identifier(Book.self, \.title, "Dune")
        let dune = try expectSQLMatchesMemory(#Predicate<Book> { $0.persistentModelID == duneID }, in: graph.container, name: \.title)
        #expect(dune == ["Dune"])
        try expectSQLMatchesMemory(#Predicate<Book> { $0.persistentModelID != duneID }, in: graph.container, name: \.title)

        let none: PersistentIdentifier? = nil
        let unshelved = try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf?.persistentModelID == none }, in: graph.container, name: \.title)
        #expect(unshelved == ["Loose", "Notebook"])
    }

    @Test func identifiersOfOtherEntitiesStoresOrUnsavedModelsMatchNoRow() throws {
        let annID = try graph.identifier(Student.self, \.name, "Ann")
        let unsaved = Shelf(name: "Unsaved").persistentModelID
        let otherStore = try RelationshipGraph().identifier(Shelf.self, \.name, "Fiction")
        for id in [annID, unsaved, otherStore] {
            let matched = try expectSQLMatchesMemory(
                #Predicate<Book> { $0.shelf?.persistentModelID == id }, in: graph.container, name: \.title, discriminating: false)
            #expect(matched.isEmpty)
            let all = try expectSQLMatchesMemory(
                #Predicate<Book> { $0.shelf?.persistentModelID != id }, in: graph.container, name: \.title, discriminating: false)
            #expect(all.count == 8)
        }
    }

    @Test func capturedIdentifiersAsASet() throws {
        let ids = [
            try graph.identifier(Book.self, \.title, "Dune"),
            try graph.identifier(Book.self, \.title, "Odes"),
            try graph.identifier(Shelf.self, \.name, "Fiction"),  // another entity: never a book
            Book(title: "Unsaved", pages: 1).persistentModelID,
        ]
        let books = try expectSQLMatchesMemory(
            #Predicate<Book> { ids.contains($0.persistentModelID) }, in: graph.container, name: \.title)
        #expect(books == ["Dune", "Odes"])
        let shelfIDs = [try graph.identifier(Shelf.self, \.name, "Poetry")]
        let poetry = try expectSQLMatchesMemory(
            #Predicate<Book> { $0.shelf.flatMap { shelfIDs.contains($0.persistentModelID) } == true },
            in: graph.container, name: \.title)
        #expect(poetry == ["Haiku", "Odes"])
    }

    @Test func aToOneKeyNamingNoRowReadsAsNil() throws {
        // The .noAction delete rule leaves the bottles' keys naming the deleted crate; in
        // memory those relationships are empty, and SQL agrees.
        let container = try ModelContainer(for: Crate.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let deleted = Crate(label: "Deleted")
        deleted.bottles = [Bottle(name: "B1"), Bottle(name: "B2")]
        let kept = Crate(label: "Kept")
        kept.bottles = [Bottle(name: "B3")]
        context.insert(deleted)
        context.insert(kept)
        context.insert(Bottle(name: "B4"))
        try context.save()
        context.delete(deleted)
        try context.save()

        let reader = ModelContext(container)
        let orphans = try reader.fetch(FetchDescriptor<Bottle>()).filter { $0.crate == nil }
        #expect(orphans.map(\.name).sorted() == ["B1", "B2", "B4"])
        let uncrated = try expectSQLMatchesMemory(#Predicate<Bottle> { $0.crate == nil }, in: container, name: \.name)
        #expect(uncrated == ["B1", "B2", "B4"])
        try expectSQLMatchesMemory(#Predicate<Bottle> { $0.crate?.label == nil }, in: container, name: \.name)
        try expectSQLMatchesMemory(#Predicate<Bottle> { $0.crate?.label != "Kept" }, in: container, name: \.name)
        try expectSQLMatchesMemory(
            nil, sortBy: [SortDescriptor(\Bottle.crate?.label, order: .reverse), SortDescriptor(\Bottle.name)],
            in: container, name: \.name, discriminating: false)
    }
}

/// A relationship whose `.noAction` delete rule leaves keys naming deleted rows behind.
@Model final class Crate {
    var label: String
    @Relationship(deleteRule: .noAction, inverse: \Bottle.crate) var bottles: [Bottle] = []
    init(label: String) { self.label = label }
}

@Model final class Bottle {
    var name: String
    var crate: Crate?
    init(name: String) { self.name = name }
}

@Suite struct RelationshipSortTests {
    let graph: RelationshipGraph

    init() throws {
        graph = try RelationshipGraph()
    }

    @Test func sortingByAToOnesAttribute() throws {
        let forward = try expectSQLMatchesMemory(
            nil, sortBy: [SortDescriptor(\Book.shelf?.name), SortDescriptor(\Book.title)], in: graph.container, name: \.title,
            discriminating: false)
        // Books on no shelf sort as nil does: first.
        #expect(forward == ["Loose", "Notebook", "Iliad", "Dune", "Emma", "Ulysses", "Haiku", "Odes"])
        let reverse = try expectSQLMatchesMemory(
            nil, sortBy: [SortDescriptor(\Book.shelf?.name, order: .reverse), SortDescriptor(\Book.pages, order: .reverse)],
            in: graph.container, name: \.title, discriminating: false)
        #expect(reverse == ["Odes", "Haiku", "Ulysses", "Dune", "Emma", "Iliad", "Loose", "Notebook"])
        // Ties (same shelf) keep the order the books were saved in.
        try expectSQLMatchesMemory(
            #Predicate<Book> { $0.pages > 100 }, sortBy: [SortDescriptor(\Book.shelf?.name)], in: graph.container, name: \.title)
    }

    @Test func sortingThroughAChainOfToOnes() throws {
        let streets = try expectSQLMatchesMemory(
            nil, sortBy: [SortDescriptor(\Street.city?.country?.name, order: .reverse), SortDescriptor(\Street.name)],
            in: graph.container, name: \.name, discriminating: false)
        #expect(streets == ["Ginza", "Rue A", "Rue B", "Rue C", "Lonely", "Main"])
        try expectSQLMatchesMemory(
            nil, sortBy: [SortDescriptor(\Playlist.favorite?.title)], in: graph.container, name: \.name, discriminating: false)
    }

    @Test func sortsThroughToManyRelationshipsAreRefused() {
        let message = unsupportedExplanation {
            _ = try graph.context().fetch(FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\Shelf.books.count)]))
        }
        #expect(message?.contains("to-many relationships cannot be sorted by") == true, "\(message ?? "no error")")
    }
}

@Suite struct ToManyPredicateTests {
    let graph: RelationshipGraph

    init() throws {
        graph = try RelationshipGraph()
    }

    @Test func emptinessAndCountThroughTheInverseKey() throws {
        #expect(try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.isEmpty }, in: graph.container, name: \.name) == ["Empty"])
        #expect(
            try expectSQLMatchesMemory(#Predicate<Shelf> { !$0.books.isEmpty }, in: graph.container, name: \.name)
                == ["Classics", "Fiction", "Poetry"])
        #expect(try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.count > 2 }, in: graph.container, name: \.name) == ["Fiction"])
        // `isEmpty == false` works as `!isEmpty` does (Apple's SwiftData crashes on it).
        try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.isEmpty == false }, in: graph.container, name: \.name)
        try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.count * 100 < 250 }, in: graph.container, name: \.name)
    }

    @Test func containsAllSatisfyAndFilter() throws {
        #expect(
            try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.contains { $0.pages > 300 } }, in: graph.container, name: \.name)
                == ["Classics", "Fiction"])
        // Vacuously true for the empty shelf, as in Swift.
        #expect(
            try expectSQLMatchesMemory(#Predicate<Shelf> { $0.books.allSatisfy { $0.pages > 300 } }, in: graph.container, name: \.name)
                == ["Classics", "Empty"])
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Shelf> { $0.books.filter { $0.pages > 300 }.count >= 2 }, in: graph.container, name: \.name) == ["Fiction"])
        try expectSQLMatchesMemory(
            #Predicate<Shelf> { $0.books.filter { $0.pages < 100 }.isEmpty }, in: graph.container, name: \.name)
        try expectSQLMatchesMemory(
            #Predicate<Shelf> { $0.books.filter { $0.pages > 100 }.contains { $0.title.starts(with: "O") } },
            in: graph.container, name: \.name)
        try expectSQLMatchesMemory(
            #Predicate<Shelf> { $0.books.filter { $0.pages > 100 }.allSatisfy { $0.pages < 600 } }, in: graph.container, name: \.name)
    }

    @Test func manyToManyFromBothSides() throws {
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Student> { $0.courses.contains { $0.title == "Art" } }, in: graph.container, name: \.name)
                == ["Ann", "Bob", "Dan"])
        #expect(try expectSQLMatchesMemory(#Predicate<Student> { $0.courses.isEmpty }, in: graph.container, name: \.name) == ["Cat"])
        #expect(try expectSQLMatchesMemory(#Predicate<Student> { $0.courses.count >= 2 }, in: graph.container, name: \.name) == ["Ann", "Dan"])
        #expect(try expectSQLMatchesMemory(#Predicate<Course> { $0.students.count > 1 }, in: graph.container, name: \.title) == ["Art", "Math"])
        #expect(try expectSQLMatchesMemory(#Predicate<Course> { $0.students.isEmpty }, in: graph.container, name: \.title) == ["Latin"])
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Course> { $0.students.allSatisfy { $0.name != "Bob" } }, in: graph.container, name: \.title)
                == ["Latin", "Math", "Music"])
        try expectSQLMatchesMemory(
            #Predicate<Course> { $0.students.filter { $0.name < "C" }.count == 1 }, in: graph.container, name: \.title)
    }

    @Test func oneWayToMany() throws {
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Playlist> { $0.songs.contains { $0.title == "Beta" } }, in: graph.container, name: \.name) == ["Road"])
        #expect(try expectSQLMatchesMemory(#Predicate<Playlist> { $0.songs.isEmpty }, in: graph.container, name: \.name) == ["Silence"])
        #expect(try expectSQLMatchesMemory(#Predicate<Playlist> { $0.songs.count == 1 }, in: graph.container, name: \.name) == ["Quiet"])
        // The favorite is no song of the playlist's own.
        try expectSQLMatchesMemory(
            #Predicate<Playlist> { playlist in
                playlist.songs.allSatisfy { song in
                    playlist.favorite.flatMap { $0.persistentModelID != song.persistentModelID } ?? true
                }
            },
            in: graph.container, name: \.name)
    }

    @Test func nestedClosuresEachReadTheirOwnRows() throws {
        // Courses taken by someone who takes Music: the join table twice, under two aliases.
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Course> { $0.students.contains { $0.courses.contains { $0.title == "Music" } } },
                in: graph.container, name: \.title) == ["Art", "Math", "Music"])
        // A closure reads the outer model's relationships too.
        try expectSQLMatchesMemory(
            #Predicate<Student> { student in
                student.courses.contains { course in course.students.count > student.courses.count }
            },
            in: graph.container, name: \.name)
        // From a book's shelf back to its books.
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Book> { ($0.shelf?.books.count ?? 0) > 2 }, in: graph.container, name: \.title) == ["Dune", "Emma", "Ulysses"])
        try expectSQLMatchesMemory(
            #Predicate<Shelf> { $0.books.contains { $0.shelf?.name == "Poetry" } }, in: graph.container, name: \.name)
        try expectSQLMatchesMemory(
            #Predicate<Country> { $0.cities.contains { $0.streets.count > 1 } }, in: graph.container, name: \.name)
    }

    @Test func containsOfAModelByIdentifier() throws {
        let duneID = try graph.identifier(Book.self, \.title, "Dune")
        #expect(
            try expectSQLMatchesMemory(
                #Predicate<Shelf> { $0.books.contains { $0.persistentModelID == duneID } }, in: graph.container, name: \.name)
                == ["Fiction"])
        // A book's shelf holds the book itself: the variables of both closures are rows.
        try expectSQLMatchesMemory(
            #Predicate<Book> { book in book.shelf?.books.contains { $0.persistentModelID == book.persistentModelID } == true },
            in: graph.container, name: \.title)
        let shelved = try expectSQLMatchesMemory(
            #Predicate<Book> { book in book.shelf?.books.contains(book) == true }, in: graph.container, name: \.title)
        #expect(shelved.count == 6)
        try expectSQLMatchesMemory(
            #Predicate<Course> { course in course.students.contains { $0.courses.count == 1 && $0.courses.contains(course) } },
            in: graph.container, name: \.title)
    }

    @Test func aRelationshipPredicateIsOneQuery() throws {
        let context = graph.context()
        let store = try graph.store
        _ = try context.fetchCount(FetchDescriptor<Shelf>())
        let before = store.executedQueryCount
        let shelves = try context.fetch(FetchDescriptor<Shelf>(
            predicate: #Predicate { $0.books.contains { $0.shelf?.name == "Fiction" } && $0.books.count > 1 },
            sortBy: [SortDescriptor(\.name)]))
        #expect(shelves.map(\.name) == ["Fiction"])
        #expect(store.executedQueryCount - before == 1)
    }
}

@Suite struct RelationshipPredicatePendingChangesTests {
    let graph: RelationshipGraph

    init() throws {
        graph = try RelationshipGraph()
    }

    @Test func anUnsavedChangeToARelatedModelTakesPart() throws {
        let context = graph.context()
        let fiction = try #require(try context.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.name == "Fiction" })).first)
        fiction.name = "Fact"
        let onFiction = FetchDescriptor<Book>(predicate: #Predicate { $0.shelf?.name == "Fiction" })
        #expect(try context.fetch(onFiction).isEmpty)
        #expect(try context.fetchCount(onFiction) == 0)
        #expect(try context.fetchIdentifiers(onFiction).isEmpty)
        var stored = onFiction
        stored.includePendingChanges = false
        #expect(try context.fetch(stored).map(\.title) == ["Dune", "Emma", "Ulysses"])

        let sorted = try context.fetch(FetchDescriptor<Book>(
            predicate: #Predicate { $0.shelf != nil },
            sortBy: [SortDescriptor(\Book.shelf?.name), SortDescriptor(\Book.title)]))
        #expect(sorted.map(\.title) == ["Iliad", "Dune", "Emma", "Ulysses", "Haiku", "Odes"])
    }

    @Test func anUnsavedChangeToAToManysModelsTakesPart() throws {
        let context = graph.context()
        let emma = try #require(try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "Emma" })).first)
        emma.pages = 900
        let long = FetchDescriptor<Shelf>(predicate: #Predicate { $0.books.allSatisfy { $0.pages > 300 } })
        #expect(try context.fetch(long).map(\.name) == ["Fiction", "Classics", "Empty"])
        #expect(try context.fetchCount(long) == 3)

        let student = try #require(try context.fetch(FetchDescriptor<Student>(predicate: #Predicate { $0.name == "Cat" })).first)
        context.insert(Course(title: "Greek"))
        student.courses.append(Course(title: "Hebrew"))
        let busy = FetchDescriptor<Student>(predicate: #Predicate { !$0.courses.isEmpty })
        #expect(try context.fetch(busy).map(\.name) == ["Ann", "Bob", "Cat", "Dan"])
        try context.save()
        #expect(try graph.context().fetch(busy).map(\.name) == ["Ann", "Bob", "Cat", "Dan"])
    }

    @Test func aBatchedFetchRefusesPendingChangesOfRelatedModels() throws {
        let context = graph.context()
        let emma = try #require(try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "Emma" })).first)
        emma.pages = 900
        let long = FetchDescriptor<Shelf>(predicate: #Predicate { $0.books.allSatisfy { $0.pages > 300 } })
        let error = #expect(throws: SwiftDataError.self) { try context.fetch(long, batchSize: 10) }
        #expect(error == .includePendingChangesWithBatchSize)
        #expect(error?.description.contains("unsaved changes to Book, which a batched fetch of Shelf cannot include") == true)
        // A fetch not reading books is not concerned.
        #expect(try context.fetch(FetchDescriptor<Shelf>(), batchSize: 10).count == 4)
    }
}

@Suite struct RelationshipPredicateUnsupportedTests {
    let graph: RelationshipGraph

    init() throws {
        graph = try RelationshipGraph()
    }

    @Test func otherMembersOfAToManyRelationship() {
        let message = fetchError(FetchDescriptor<Shelf>(predicate: #Predicate { $0.books.first?.pages == 412 }), in: graph.container)
        #expect(message?.contains("Shelf.books") == true, "\(message ?? "no error")")
        #expect(message?.contains("PredicateExpressions.KeyPath") == true)
    }

    @Test func aToManyRelationshipAsAWholeThroughOptionalChaining() {
        let message = fetchError(FetchDescriptor<Book>(predicate: #Predicate { $0.shelf.flatMap { $0.books } == nil }), in: graph.container)
        #expect(message?.contains("OptionalFlatMap") == true, "\(message ?? "no error")")
    }

    @Test func identifiersHaveNoOrder() {
        let id = Shelf(name: "x").persistentModelID
        let message = fetchError(
            FetchDescriptor<Book>(predicate: #Predicate { $0.shelf.flatMap { $0.persistentModelID < id } ?? false }), in: graph.container)
        #expect(message?.contains("no order") == true, "\(message ?? "no error")")
    }

    @Test func theIdentifiablePropertyIsThePersistentModelID() throws {
        // `id` is `persistentModelID` for a model that declares no `id`, as in SwiftData.
        let context = ModelContext(graph.container)
        let shelf = try #require(try context.fetch(FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.name)])).first)
        let id = shelf.persistentModelID
        #expect(try context.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.id == id })).map(\.name) == [shelf.name])
        let unsaved = Shelf(name: "x").persistentModelID
        #expect(try context.fetchCount(FetchDescriptor<Shelf>(predicate: #Predicate { $0.id == unsaved })) == 0)
    }

    @Test func closuresOverValuesThatAreNotRelationships() {
        let names = ["Fiction", "Poetry"]
        let message = fetchError(
            FetchDescriptor<Shelf>(predicate: #Predicate { shelf in names.contains { $0 == shelf.name } }), in: graph.container)
        #expect(message?.contains("SequenceContainsWhere") == true, "\(message ?? "no error")")
        #expect(message?.contains("only over a to-many relationship") == true)
    }

    @Test func aPersistentIdentifierIsNoStoredValue() {
        let id = Shelf(name: "x").persistentModelID
        let message = fetchError(
            FetchDescriptor<Book>(predicate: #Predicate { ($0.shelf?.persistentModelID ?? id) == id }), in: graph.container)
        #expect(message?.contains("NilCoalesce") == true, "\(message ?? "no error")")
    }
}
