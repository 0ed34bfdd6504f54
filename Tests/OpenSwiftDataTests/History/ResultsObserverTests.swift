import Foundation
import Observation
import Testing
import TestSupport
@testable import OpenSwiftData

@Model final class Shelfmark {
    var title: String
    var genre: String
    var series: String?
    var isPublished: Bool
    init(title: String, genre: String, series: String? = nil, isPublished: Bool = true) {
        self.title = title
        self.genre = genre
        self.series = series
        self.isPublished = isPublished
    }
}

/// `ResultsObserver`: a fetch kept current as the context's models change, as other contexts
/// save, and as other processes commit.
@MainActor @Suite struct ResultsObserverTests {
    func container(_ name: String) throws -> ModelContainer {
        try ModelContainer(for: Shelfmark.self, OpenerLedger.Entry.self, configurations: ModelConfiguration(url: temporaryStoreURL(name)))
    }

    func titles(_ observer: ResultsObserver<Shelfmark, some Hashable>) -> [String] {
        observer.results.map(\.title)
    }

    @Test func theResultsFollowTheContextsOwnChangesBeforeTheyAreSaved() async throws {
        let context = ModelContext(try container("own"))
        context.insert(Shelfmark(title: "B", genre: "poetry"))
        context.insert(Shelfmark(title: "D", genre: "poetry", isPublished: false))
        try context.save()
        let observer = try ResultsObserver<Shelfmark, Never>(
            filterBy: #Predicate { $0.isPublished }, sortBy: [SortDescriptor(\.title)], modelContext: context)
        #expect(titles(observer) == ["B"])
        #expect(observer.sections == nil)

        let a = Shelfmark(title: "A", genre: "essays")
        context.insert(a)
        #expect(await eventually { titles(observer) == ["A", "B"] }, "an unsaved insert did not reach the results")
        let d = try #require(try context.fetch(FetchDescriptor<Shelfmark>(predicate: #Predicate { $0.title == "D" })).first)
        d.isPublished = true
        #expect(await eventually { titles(observer) == ["A", "B", "D"] }, "a change that makes a model match did not reach the results")
        context.delete(a)
        #expect(await eventually { titles(observer) == ["B", "D"] })
        context.rollback()
        #expect(await eventually { titles(observer) == ["B"] }, "a rollback did not reach the results")
    }

    @Test func anotherContextsSaveReachesTheResults() async throws {
        let container = try container("other-context")
        let observer = try ResultsObserver<Shelfmark, Never>(sortBy: [SortDescriptor(\.title)], modelContainer: container)
        #expect(observer.results.isEmpty)
        let writer = ModelContext(container)
        writer.insert(Shelfmark(title: "unsaved", genre: "x"))
        try await Task.sleep(for: HistoryObserverTests.quietPeriod)
        #expect(observer.results.isEmpty, "another context's unsaved insert reached the results")
        try writer.save()
        #expect(await eventually { titles(observer) == ["unsaved"] })
        #expect(observer.modelContext !== writer)
    }

    /// Models another process saves reach the results as it commits.
    @Test func anotherProcessesSaveReachesTheResults() async throws {
        try #require(StoreOpenerProcess.isBuilt, "StoreOpener is built beside the tests")
        let url = temporaryStoreURL("ledger-results")
        let writer = try StoreOpenerProcess("save-lines", store: url)
        #expect(await writer.waitForLine(startingWith: "ready") != nil)
        writer.send("2")
        #expect(await writer.waitForLine(startingWith: "saved 2") != nil)
        let container = try ModelContainer(for: OpenerLedger.Entry.self, configurations: ModelConfiguration(url: url))
        let observer = try ResultsObserver<OpenerLedger.Entry, Never>(modelContainer: container)
        #expect(observer.results.count == 2)
        writer.send("5")
        #expect(await writer.waitForLine(startingWith: "saved 5") != nil)
        #expect(await eventually { observer.results.count == 7 })
        writer.closeInput()
        #expect(await writer.finish().status == 0)
    }

    /// Setting the filter or the order fetches again at once; the order keeps the identifier
    /// last, for a stable order of equal models.
    @Test func settingTheFilterOrTheOrderFetchesAtOnce() throws {
        let context = ModelContext(try container("settable"))
        for (title, genre) in [("C", "a"), ("A", "b"), ("B", "a")] { context.insert(Shelfmark(title: title, genre: genre)) }
        try context.save()
        let observer = try ResultsObserver<Shelfmark, Never>(fetchDescriptor: FetchDescriptor(sortBy: [SortDescriptor(\.title)]), modelContext: context)
        #expect(titles(observer) == ["A", "B", "C"])
        #expect(observer.sortBy == [SortDescriptor(\.title), SortDescriptor(\.persistentModelID)])

        observer.filterBy = #Predicate { $0.genre == "a" }
        #expect(titles(observer) == ["B", "C"])
        #expect(observer.fetchDescriptor.predicate != nil)
        observer.sortBy = [SortDescriptor(\.title, order: .reverse)]
        #expect(titles(observer) == ["C", "B"])
        observer.filterBy = nil
        #expect(titles(observer) == ["C", "B", "A"])

        // Equal titles keep the order they were saved in.
        context.insert(Shelfmark(title: "same", genre: "z"))
        context.insert(Shelfmark(title: "same", genre: "y"))
        try context.save()
        observer.sortBy = [SortDescriptor(\.title)]
        #expect(observer.results.suffix(2).map(\.genre) == ["z", "y"])
    }

    @Test func sectionsGroupByAStringInTheirFirstModelsOrder() throws {
        let context = ModelContext(try container("sections"))
        for (title, genre) in [("Dune", "novel"), ("Odes", "poetry"), ("Emma", "novel"), ("Ariel", "poetry"), ("Walden", "essay")] {
            context.insert(Shelfmark(title: title, genre: genre))
        }
        try context.save()
        let observer = try ResultsObserver<Shelfmark, String>(sortBy: [SortDescriptor(\.title)], sectionBy: \.genre, modelContext: context)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["essay", "novel", "poetry"])
        #expect(sections.map { $0.map(\.title) } == [["Walden"], ["Dune", "Emma"], ["Ariel", "Odes"]])
        #expect(sections[sectionTitle: "novel"]?.map(\.title) == ["Dune", "Emma"])
        #expect(sections[sectionTitle: "drama"] == nil)
        #expect(sections.contains(sectionTitle: "poetry") && !sections.contains(sectionTitle: "drama"))
        #expect(sections.index(ofSectionTitled: "poetry") == 2)
        #expect(sections[1].id == "novel")
        #expect(observer.sectionBy == \Shelfmark.genre)
        #expect(observer.sortBy.first == SortDescriptor(\.genre))
        #expect(titles(observer) == ["Walden", "Dune", "Emma", "Ariel", "Odes"])

        let emma = try #require(observer.element(at: IndexPath(indexes: [1, 1])))
        #expect(emma.title == "Emma")
        #expect(observer.indexPath(for: emma) == IndexPath(indexes: [1, 1]))
        #expect(observer.element(at: IndexPath(indexes: [1, 2])) == nil)
        #expect(observer.element(at: IndexPath(indexes: [3, 0])) == nil)

        // Changing the order keeps the section's first.
        observer.sortBy = [SortDescriptor(\.title, order: .reverse)]
        #expect(observer.sections?.map { $0.map(\.title) } == [["Walden"], ["Emma", "Dune"], ["Odes", "Ariel"]])
    }

    @Test func anOptionalStringsNilTitlesTheEmptySection() throws {
        let context = ModelContext(try container("optional-sections"))
        context.insert(Shelfmark(title: "Dune", genre: "novel", series: "Dune"))
        context.insert(Shelfmark(title: "Emma", genre: "novel"))
        context.insert(Shelfmark(title: "Dune Messiah", genre: "novel", series: "Dune"))
        try context.save()
        let observer = try ResultsObserver<Shelfmark, String>(
            fetchDescriptor: FetchDescriptor(sortBy: [SortDescriptor(\.title)]), sectionBy: \.series, modelContext: context)
        #expect(observer.sections?.sectionTitles == ["", "Dune"])
        #expect(observer.sections?[sectionTitle: ""]?.map(\.title) == ["Emma"])
        #expect(observer.sections?[sectionTitle: "Dune"]?.map(\.title) == ["Dune", "Dune Messiah"])
    }

    @Test func sectionsFollowChanges() async throws {
        let context = ModelContext(try container("moving-sections"))
        let book = Shelfmark(title: "Walden", genre: "essay")
        context.insert(book)
        try context.save()
        let observer = try ResultsObserver<Shelfmark, String>(sectionBy: \.genre, modelContext: context)
        #expect(observer.sections?.sectionTitles == ["essay"])
        book.genre = "memoir"
        context.insert(Shelfmark(title: "Odes", genre: "poetry"))
        #expect(await eventually { observer.sections?.sectionTitles == ["memoir", "poetry"] })
    }

    /// `Observable`: observation tracking hears the results change, and an unchanged fetch
    /// does not set them again.
    @Test func observationTrackingHearsTheResultsChange() async throws {
        let container = try container("tracked-results")
        let context = ModelContext(container)
        context.insert(Shelfmark(title: "A", genre: "x"))
        try context.save()
        let observer = try ResultsObserver<Shelfmark, Never>(modelContext: context)
        let changes = Recorder(0)
        func track() {
            withObservationTracking { _ = observer.results } onChange: { changes.value += 1 }
        }
        track()
        // A change that does not change which models match sets nothing.
        try context.fetch(FetchDescriptor<Shelfmark>()).first!.genre = "y"
        try await Task.sleep(for: HistoryObserverTests.quietPeriod)
        #expect(changes.value == 0, "a fetch with the same models set the results again")
        context.insert(Shelfmark(title: "B", genre: "x"))
        #expect(await eventually { changes.value == 1 })
    }

    /// Letting the observer go stops its refreshes and the watch of the store.
    @Test func releasingTheObserverStopsFollowing() throws {
        let container = try container("released-results")
        let context = ModelContext(container)
        var observer: ResultsObserver<Shelfmark, Never>? = try ResultsObserver(modelContext: context)
        #expect(context.changeListeners.count == 1)
        #expect(container.remoteChangeWatch.withLock { $0.observers } == 1)
        _ = observer
        observer = nil
        #expect(context.changeListeners.isEmpty)
        #expect(container.remoteChangeWatch.withLock { $0.observers } == 0)
    }

    @Test func aFailingFirstFetchThrows() throws {
        let context = ModelContext(try container("failing"))
        // Memo is not one of the container's models.
        #expect(throws: SwiftDataError.self) {
            try ResultsObserver<Memo, Never>(modelContext: context)
        }
    }
}
