import Foundation
import Testing
@testable import OpenSwiftData

/// Predicates combined from other predicates, as iOS 17.4 code writes with `evaluate` inside
/// `#Predicate`: SQL selects what evaluating them in memory selects.
@Suite struct CompoundPredicateTests {
    let recent = #Predicate<QuerySample> { $0.year >= 2000 }
    let scored = #Predicate<QuerySample> { $0.score > 5 }
    let titled = #Predicate<QuerySample> { $0.title.contains("o") }

    @Test func andOrAndNotAgreeWithSwift() throws {
        try expectSameSelection(CompoundPredicate.and([recent, scored]))
        try expectSameSelection(CompoundPredicate.and([recent, scored, titled]))
        try expectSameSelection(CompoundPredicate.or([recent, scored]))
        try expectSameSelection(CompoundPredicate.not(recent))
        try expectSameSelection(CompoundPredicate.or([CompoundPredicate.not(recent), CompoundPredicate.and([scored, titled])]))
        try expectSameSelection(CompoundPredicate.and([recent]))
    }

    @Test func noPredicatesSelectAllOrNothing() throws {
        try expectSameSelection(CompoundPredicate.and([Predicate<QuerySample>]()), discriminating: false)
        try expectSameSelection(CompoundPredicate.or([Predicate<QuerySample>]()), discriminating: false)
        #expect(try QueryFixtures.selectedIDs(CompoundPredicate.or([Predicate<QuerySample>]())).ids.isEmpty)
    }

    @Test func theSQLIsThePartsJoined() throws {
        let fragment = try PredicateTranslator.sql(for: CompoundPredicate.and([recent, scored]), columns: QueryFixtures.columns)
        #expect(fragment.sqlite == #"(("year" >= ?) AND ("score" > ?))"#)
    }

    @Test func aContextFetchesWithACompoundPredicateFromTheStoreAndFromUnsavedModels() throws {
        let context = ModelContext(try ModelContainer(for: Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
        context.insert(Movie(title: "Cars", year: 2006, rating: 7.2))
        context.insert(Movie(title: "Toy Story", year: 1995, rating: 8.3))
        try context.save()
        context.insert(Movie(title: "Coco", year: 2017, rating: 8.4))
        let recent = #Predicate<Movie> { $0.year >= 2000 }
        let acclaimed = #Predicate<Movie> { $0.rating >= 8 }
        let both = try context.fetch(FetchDescriptor(predicate: CompoundPredicate.and([recent, acclaimed]), sortBy: [SortDescriptor(\.year)]))
        #expect(both.map(\.title) == ["Up", "Coco"])
        let neither = try context.fetch(FetchDescriptor(predicate: CompoundPredicate.not(CompoundPredicate.or([recent, acclaimed]))))
        #expect(neither.isEmpty)
        #expect(try context.fetchCount(FetchDescriptor(predicate: CompoundPredicate.not(acclaimed))) == 1)
    }
}
