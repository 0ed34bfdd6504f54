import Foundation
import OpenSwiftData
import Testing
import TestSupport

/// What a SwiftData user does, on each backend: saved by one container, read back by another.
@Suite struct BehaviourTests {
    @Test(arguments: Backend.available) func everyKindOfValueIsReadBackUnchanged(backend: Backend) throws {
        let store = try backend.store([Specimen.self])
        let context = ModelContext(try store.container())
        let written = (0..<40).map(Specimen.init)
        for specimen in written { context.insert(specimen) }
        try context.save()

        let read = try ModelContext(try store.container()).fetch(FetchDescriptor<Specimen>(sortBy: [SortDescriptor(\.large)]))
        #expect(read.count == written.count)
        for (stored, original) in zip(read, written) {
            #expect(stored.flag == original.flag && stored.small == original.small && stored.medium == original.medium)
            #expect(stored.large == original.large && stored.unsigned == original.unsigned)
            #expect(stored.ratio.bitPattern == original.ratio.bitPattern && stored.single == original.single)
            #expect(stored.amount == original.amount && stored.text == original.text && stored.when == original.when)
            #expect(stored.link == original.link && stored.tag == original.tag && stored.bytes == original.bytes)
            #expect(stored.shade == original.shade && stored.dimensions == original.dimensions)
            #expect(stored.maybe == original.maybe && stored.maybeText == original.maybeText)
            #expect(stored.attachment == original.attachment)
        }
    }

    @Test(arguments: Backend.available) func relationshipsKeepTheirInversesAndDeleteRules(backend: Backend) throws {
        let store = try backend.store([Author.self, Book.self, Shelf.self])
        let context = ModelContext(try store.container())
        let author = Author(name: "Le Guin", born: 1929)
        let books = [Book(title: "Earthsea", pages: 200), Book(title: "Dispossessed", pages: 380)]
        let shelf = Shelf(label: "Favourites")
        author.books = books
        shelf.books = books
        context.insert(author)
        context.insert(shelf)
        try context.save()

        let reader = ModelContext(try store.container())
        let readAuthor = try #require(try reader.fetch(FetchDescriptor<Author>()).first)
        #expect(Set(readAuthor.books.map(\.title)) == ["Earthsea", "Dispossessed"])
        let readBook = try #require(try reader.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.pages > 300 })).first)
        #expect(readBook.author?.name == "Le Guin")
        #expect(readBook.shelves.map(\.label) == ["Favourites"])
        // A predicate through a relationship runs in the store.
        let byAuthor = FetchDescriptor<Book>(predicate: #Predicate { $0.author?.born == 1929 }, sortBy: [SortDescriptor(\.pages)])
        #expect(try reader.fetch(byAuthor).map(\.pages) == [200, 380])

        // Deleting the author cascades to the books; the shelf keeps nothing (nullify).
        reader.delete(readAuthor)
        try reader.save()
        let after = ModelContext(try store.container())
        #expect(try after.fetchCount(FetchDescriptor<Book>()) == 0)
        #expect(try after.fetch(FetchDescriptor<Shelf>()).first?.books.isEmpty == true)
    }

    @Test(arguments: Backend.available) func aDenyRuleRefusesTheSaveAndNothingChanges(backend: Backend) throws {
        let store = try backend.store([Archive.self, ArchiveItem.self])
        let context = ModelContext(try store.container())
        let archive = Archive(label: "1999")
        archive.items = [ArchiveItem(code: 1)]
        context.insert(archive)
        try context.save()
        context.delete(archive)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Archive>()) == 1)
    }

    @Test(arguments: Backend.available) func anInsertWithAStoredUniqueValueUpdatesTheRow(backend: Backend) throws {
        let store = try backend.store([Author.self, Book.self, Shelf.self])
        let context = ModelContext(try store.container())
        context.insert(Author(name: "Butler", born: 1900))
        try context.save()
        let second = ModelContext(try store.container())
        second.insert(Author(name: "Butler", born: 1947))
        second.insert(Author(name: "Jemisin", born: 1972))
        try second.save()
        let authors = try ModelContext(try store.container()).fetch(FetchDescriptor<Author>(sortBy: [SortDescriptor(\.born)]))
        #expect(authors.map(\.name) == ["Butler", "Jemisin"])
        #expect(authors.map(\.born) == [1947, 1972])
    }

    /// With several uniqueness constraints (one over two attributes, one over an optional), an
    /// insert matching any of them takes over the stored row; `nil` codes match each other.
    @Test(arguments: Backend.available) func insertsMatchingAnyUniquenessConstraintUpdateTheRow(backend: Backend) throws {
        let store = try backend.store([Seat.self])
        let context = ModelContext(try store.container())
        context.insert(Seat(row: "A", number: 1, code: "A1", holder: "Ana"))
        context.insert(Seat(row: "A", number: 2, code: nil, holder: "Bo"))
        try context.save()
        let second = ModelContext(try store.container())
        second.insert(Seat(row: "A", number: 1, code: "A1", holder: "Cy"))
        second.insert(Seat(row: "B", number: 9, code: "A1", holder: "Di"))
        second.insert(Seat(row: "C", number: 3, code: nil, holder: "Ed"))
        try second.save()
        let seats = try ModelContext(try store.container()).fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.holder)]))
        #expect(seats.map { "\($0.row)\($0.number) \($0.code ?? "-") \($0.holder)" } == ["B9 A1 Di", "C3 - Ed"])
    }

    @Test(arguments: Backend.available) func batchDeletesRemoveWhatThePredicateSelects(backend: Backend) throws {
        let store = try backend.store([Author.self, Book.self, Shelf.self, Sample.self])
        let context = ModelContext(try store.container())
        for index in 0..<30 {
            context.insert(Sample(index: index, text: "s\(index)", number: Double(index), amount: 1, when: .now, flag: index % 2 == 0, maybe: nil))
        }
        let author = Author(name: "A", born: 1)
        author.books = (0..<4).map { Book(title: "b\($0)", pages: $0) }
        context.insert(author)
        try context.save()

        let deleter = ModelContext(try store.container())
        try deleter.delete(model: Sample.self, where: #Predicate { $0.flag && $0.index >= 10 })
        try deleter.delete(model: Author.self)
        try deleter.save()
        let reader = ModelContext(try store.container())
        #expect(try reader.fetchCount(FetchDescriptor<Sample>()) == 20)
        #expect(try reader.fetchCount(FetchDescriptor<Book>()) == 0)
    }

    @Test(arguments: Backend.available) func pagesCountsIdentifiersAndBatchesAgree(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        for index in 0..<50 {
            context.insert(Sample(index: index, text: "s\(index)", number: Double(index % 7), amount: Decimal(index), when: .now, flag: true, maybe: index))
        }
        try context.save()
        let reader = ModelContext(try store.container())
        var descriptor = FetchDescriptor<Sample>(predicate: #Predicate { $0.number < 5 }, sortBy: [SortDescriptor(\.number, order: .reverse), SortDescriptor(\.index)])
        let all = try reader.fetch(descriptor).map(\.index)
        #expect(all.count == 36)
        descriptor.fetchOffset = 5
        descriptor.fetchLimit = 10
        #expect(try reader.fetch(descriptor).map(\.index) == Array(all[5..<15]))
        #expect(try reader.fetchCount(descriptor) == 10)
        let identifiers = try reader.fetchIdentifiers(descriptor)
        #expect(identifiers.map { (reader.model(for: $0) as? Sample)?.index } == all[5..<15].map(Optional.some))
        let batched = try reader.fetch(descriptor, batchSize: 3)
        #expect(batched.map(\.index) == Array(all[5..<15]))
        var enumerated: [Int] = []
        try reader.enumerate(descriptor, batchSize: 4) { enumerated.append($0.index) }
        #expect(enumerated == Array(all[5..<15]))
    }

    @Test(arguments: Backend.available) func aHierarchyIsFetchedByClass(backend: Backend) throws {
        let store = try backend.store([Vehicle.self, Truck.self])
        let context = ModelContext(try store.container())
        context.insert(Vehicle(wheels: 2))
        context.insert(Truck(wheels: 6, load: 12.5))
        context.insert(Truck(wheels: 18, load: 40))
        try context.save()
        let reader = ModelContext(try store.container())
        let vehicles = try reader.fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.wheels)]))
        #expect(vehicles.map(\.wheels) == [2, 6, 18])
        #expect(vehicles.map { $0 is Truck } == [false, true, true])
        #expect(try reader.fetch(FetchDescriptor<Truck>(predicate: #Predicate { $0.load > 20 })).map(\.wheels) == [18])
        #expect(try reader.fetchCount(FetchDescriptor<Truck>()) == 2)
    }

    /// A subclass's fetch answered in memory (a predicate PostgreSQL leaves to Swift, unsaved
    /// inserts it must include) reads its own class's rows only, not its siblings' in the
    /// hierarchy's table.
    @Test(arguments: Backend.available) func aSubclassFetchAnsweredInMemoryHoldsOnlyItsClass(backend: Backend) throws {
        let store = try backend.store([Vehicle.self, Truck.self])
        let context = ModelContext(try store.container())
        context.insert(Vehicle(wheels: 2))
        context.insert(Truck(wheels: 6, load: 12.5))
        try context.save()
        let halved = try ModelContext(try store.container()).fetch(FetchDescriptor<Truck>(predicate: #Predicate { $0.load / 2 > 1 }))
        #expect(halved.map(\.load) == [12.5])
        context.insert(Truck(wheels: 18, load: 40))
        let trucks = try context.fetch(FetchDescriptor<Truck>(predicate: #Predicate { $0.load / 2 > 1 }, sortBy: [SortDescriptor(\.wheels)]))
        #expect(trucks.map(\.load) == [12.5, 40])
        #expect(try context.fetchCount(FetchDescriptor<Truck>()) == 2)
    }

    @Test(arguments: Backend.available) func aModelActorSavesWhatAnotherContainerReads(backend: Backend) async throws {
        let store = try backend.store([Sample.self])
        let importer = SampleImporter(modelContainer: try store.container())
        try await importer.importSamples(count: 120)
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Sample>()) == 120)
    }

    /// Edits of many models (the same properties of each, or different ones) are saved exactly.
    @Test(arguments: Backend.available) func bulkEditsAreSavedExactly(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let samples = FuzzTests.samples(300, seed: 3)
        for sample in samples { context.insert(sample) }
        try context.save()
        var generator = SplitMix(seed: 4)
        for sample in samples {
            sample.number = Double.random(in: -1e6...1e6, using: &generator)
            sample.flag.toggle()
        }
        try context.save()
        for sample in samples where sample.index % 3 == 0 {
            sample.maybe = sample.maybe == nil ? sample.index : nil
            sample.text += "\t\\x"
            sample.amount += Decimal(string: "0.000001")!
        }
        try context.save()
        let read = try ModelContext(try store.container()).fetch(FetchDescriptor<Sample>(sortBy: [SortDescriptor(\.index)]))
        #expect(read.map(\.number.bitPattern) == samples.map(\.number.bitPattern))
        #expect(read.map(\.flag) == samples.map(\.flag))
        #expect(read.map(\.maybe) == samples.map(\.maybe))
        #expect(read.map(\.text) == samples.map(\.text))
        #expect(read.map(\.amount) == samples.map(\.amount))
    }

    /// NaN is refused on both, naming the attribute (SQLite cannot keep it), and nothing is saved.
    @Test(arguments: Backend.available) func aNaNIsRefusedByNameAndNothingIsSaved(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        context.insert(Sample(index: 1, text: "fine", number: 1, amount: 1, when: .now, flag: true, maybe: nil))
        context.insert(Sample(index: 2, text: "nan", number: .nan, amount: 1, when: .now, flag: true, maybe: nil))
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".contains("number") && "\(error)".contains("NaN")
        }
        #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Sample>()) == 0)
    }

    /// PostgreSQL refuses a NUL in a string, naming the attribute, and keeps nothing of the save
    /// (its many rows stream in one COPY); SQLite keeps the NUL.
    @Test(arguments: Backend.available) func aStringWithNULIsKeptBySQLiteAndRefusedByPostgreSQL(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        for index in 0..<5_000 {
            context.insert(Sample(index: index, text: index == 4_321 ? "a\u{0}b" : "s\(index)", number: 1, amount: 1, when: .now, flag: true, maybe: nil))
        }
        switch backend {
        case .sqlite:
            try context.save()
            let stored = try ModelContext(try store.container()).fetch(FetchDescriptor<Sample>(predicate: #Predicate { $0.index == 4_321 }))
            #expect(stored.map(\.text) == ["a\u{0}b"])
        case .postgres:
            #expect {
                try context.save()
            } throws: { error in
                "\(error)".contains("Sample.text") && "\(error)".contains("NUL")
            }
            #expect(try ModelContext(try store.container()).fetchCount(FetchDescriptor<Sample>()) == 0)
        }
    }

    @Test(arguments: Backend.available) func rollbackForgetsUnsavedChanges(backend: Backend) throws {
        let store = try backend.store([Sample.self])
        let context = ModelContext(try store.container())
        let sample = Sample(index: 1, text: "kept", number: 1, amount: 1, when: .now, flag: true, maybe: nil)
        context.insert(sample)
        try context.save()
        sample.text = "changed"
        context.insert(Sample(index: 2, text: "dropped", number: 1, amount: 1, when: .now, flag: true, maybe: nil))
        context.rollback()
        #expect(sample.text == "kept")
        try context.save()
        #expect(try ModelContext(try store.container()).fetch(FetchDescriptor<Sample>()).map(\.text) == ["kept"])
    }
}

@ModelActor actor SampleImporter {
    func importSamples(count: Int) throws {
        for index in 0..<count {
            modelContext.insert(Sample(index: index, text: "i\(index)", number: 0, amount: 0, when: .now, flag: false, maybe: nil))
            if index % 50 == 49 { try modelContext.save() }
        }
        try modelContext.save()
    }
}
