import Foundation
import OpenSwiftData
import Testing

/// Relationship edits, predicates of every kind and what a context holds, on each backend.
@Suite struct QueryBehaviourTests {
    /// A library of authors, books and shelves, saved; the second context reads it. Keep the
    /// store while using the context: the store's files or schema go with it.
    private func library(_ backend: Backend) throws -> (store: TestStore, reader: ModelContext) {
        let store = try backend.store([Author.self, Book.self, Shelf.self])
        let context = ModelContext(try store.container())
        let authors = [Author(name: "Le Guin", born: 1929), Author(name: "Butler", born: 1947), Author(name: "Jemisin", born: 1972)]
        let shelves = [Shelf(label: "Fiction"), Shelf(label: "Prize"), Shelf(label: "Empty")]
        for (index, author) in authors.enumerated() {
            author.books = (0..<(index + 1)).map { Book(title: "\(author.name) \($0)", pages: 100 * (index + 1) + $0) }
            context.insert(author)
        }
        shelves[0].books = authors.flatMap(\.books)
        shelves[1].books = authors[2].books
        for shelf in shelves { context.insert(shelf) }
        try context.save()
        return (store, ModelContext(try store.container()))
    }

    @Test(arguments: Backend.available) func predicatesThroughRelationships(backend: Backend) throws {
        let (store, reader) = try library(backend)
        defer { withExtendedLifetime(store) {} }
        let titles = { (predicate: Predicate<Book>) in
            try reader.fetch(FetchDescriptor<Book>(predicate: predicate, sortBy: [SortDescriptor(\.pages)])).map(\.title)
        }
        #expect(try titles(#Predicate { $0.author?.name == "Butler" }) == ["Butler 0", "Butler 1"])
        #expect(try titles(#Predicate { $0.shelves.contains { $0.label == "Prize" } }) == ["Jemisin 0", "Jemisin 1", "Jemisin 2"])
        #expect(try titles(#Predicate { $0.shelves.count == 1 }) == ["Le Guin 0", "Butler 0", "Butler 1"])
        let prolific = try reader.fetch(FetchDescriptor<Author>(predicate: #Predicate { $0.books.count >= 2 }, sortBy: [SortDescriptor(\.born)]))
        #expect(prolific.map(\.name) == ["Butler", "Jemisin"])
        let empty = try reader.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.books.isEmpty }))
        #expect(empty.map(\.label) == ["Empty"])
        let author = try #require(prolific.first)
        let authorID = author.persistentModelID
        #expect(try titles(#Predicate { $0.author?.persistentModelID == authorID }) == ["Butler 0", "Butler 1"])
        // Sorted through a to-one relationship.
        let byAuthor = try reader.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.author?.born, order: .reverse), SortDescriptor(\.pages)]))
        #expect(byAuthor.map(\.title).prefix(3) == ["Jemisin 0", "Jemisin 1", "Jemisin 2"])
    }

    @Test(arguments: Backend.available) func relationshipEditsAreSaved(backend: Backend) throws {
        let (store, reader) = try library(backend)
        let fiction = try #require(try reader.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.label == "Fiction" })).first)
        let prize = try #require(try reader.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { $0.label == "Prize" })).first)
        fiction.books.removeAll { $0.title.hasPrefix("Le Guin") }
        let moved = try #require(try reader.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title == "Butler 1" })).first)
        prize.books.append(moved)
        let leGuin = try #require(try reader.fetch(FetchDescriptor<Author>(predicate: #Predicate { $0.name == "Le Guin" })).first)
        moved.author = leGuin
        let newBook = Book(title: "New", pages: 1)
        newBook.author = leGuin
        newBook.shelves = [fiction, prize]
        try reader.save()

        let after = ModelContext(try store.container())
        let shelves = try after.fetch(FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.label)]))
        #expect(shelves.map { $0.books.map(\.title).sorted() } == [
            [],
            ["Butler 0", "Butler 1", "Jemisin 0", "Jemisin 1", "Jemisin 2", "New"],
            ["Butler 1", "Jemisin 0", "Jemisin 1", "Jemisin 2", "New"],
        ])
        let authors = try after.fetch(FetchDescriptor<Author>(sortBy: [SortDescriptor(\.born)]))
        #expect(authors.map { $0.books.map(\.title).sorted() } == [["Butler 1", "Le Guin 0", "New"], ["Butler 0"], ["Jemisin 0", "Jemisin 1", "Jemisin 2"]])
    }

    @Test(arguments: Backend.available) func prefetchingAndIdentifiersFindTheSameModels(backend: Backend) throws {
        let (store, reader) = try library(backend)
        defer { withExtendedLifetime(store) {} }
        var descriptor = FetchDescriptor<Book>(sortBy: [SortDescriptor(\.pages)])
        descriptor.relationshipKeyPathsForPrefetching = [\.author, \.shelves]
        let books = try reader.fetch(descriptor)
        #expect(books.map { $0.author?.name ?? "" } == ["Le Guin", "Butler", "Butler", "Jemisin", "Jemisin", "Jemisin"])
        let identifier = books[3].persistentModelID
        #expect(reader.model(for: identifier) === books[3])
        let elsewhere = ModelContext(reader.container)
        #expect((elsewhere.model(for: identifier) as? Book)?.title == "Jemisin 0")
        #expect(elsewhere.registeredModel(for: identifier) as Book? != nil)
    }

    @Test(arguments: Backend.available) func unsavedChangesTakePartInFetches(backend: Backend) throws {
        let (store, reader) = try library(backend)
        defer { withExtendedLifetime(store) {} }
        reader.insert(Book(title: "Draft", pages: 5))
        let short = try reader.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.pages < 150 }, sortBy: [SortDescriptor(\.pages)]))
        #expect(short.map(\.title) == ["Draft", "Le Guin 0"])
        var stored = FetchDescriptor<Book>(predicate: #Predicate { $0.pages < 150 })
        stored.includePendingChanges = false
        #expect(try reader.fetch(stored).map(\.title) == ["Le Guin 0"])
        #expect(try reader.fetchCount(FetchDescriptor<Book>()) == 7)
    }

    @Test(arguments: Backend.available) func valuesOfEveryKindCompareInPredicates(backend: Backend) throws {
        let store = try backend.store([Specimen.self])
        let context = ModelContext(try store.container())
        let specimens = (0..<30).map(Specimen.init)
        for specimen in specimens { context.insert(specimen) }
        try context.save()
        let reader = ModelContext(try store.container())
        func indices(_ predicate: Predicate<Specimen>) throws -> [Int] {
            try reader.fetch(FetchDescriptor<Specimen>(predicate: predicate, sortBy: [SortDescriptor(\.large)])).map { $0.large / 1_000_000_007 }
        }
        func expected(_ include: (Specimen) -> Bool) -> [Int] {
            specimens.filter(include).map { $0.large / 1_000_000_007 }
        }
        let tag = specimens[7].tag
        let when = specimens[10].when
        let amount = specimens[12].amount
        let link = specimens[3].link
        let unsigned = specimens[20].unsigned
        let red = Shade.red
        #expect(try indices(#Predicate { $0.flag }) == expected { $0.flag })
        #expect(try indices(#Predicate { !$0.flag && $0.small > 5 }) == expected { !$0.flag && $0.small > 5 })
        #expect(try indices(#Predicate { $0.tag == tag }) == [7])
        #expect(try indices(#Predicate { $0.when >= when }) == expected { $0.when >= when })
        #expect(try indices(#Predicate { $0.amount < amount }) == expected { $0.amount < amount })
        #expect(try indices(#Predicate { $0.link == link }) == [3])
        #expect(try indices(#Predicate { $0.unsigned == unsigned }) == [20])
        #expect(try indices(#Predicate { $0.shade == red }) == expected { $0.shade == .red })
        #expect(try indices(#Predicate { $0.maybe == nil || $0.maybe! > 20 }) == expected { $0.maybe == nil || $0.maybe! > 20 })
        #expect(try indices(#Predicate { ($0.maybeText ?? "") == "m5" }) == [5])
        #expect(try indices(#Predicate { $0.ratio * 7 > 100 && $0.medium % 2000 == 0 }) == expected { $0.ratio * 7 > 100 && $0.medium % 2000 == 0 })
        #expect(try indices(#Predicate { $0.text.count == 10 }) == expected { $0.text.count == 10 })
        #expect(try indices(#Predicate { $0.bytes.isEmpty }) == expected { $0.bytes.isEmpty })
    }
}
