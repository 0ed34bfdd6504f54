import Foundation
import Testing
@testable import OpenSwiftData

/// Which columns a condition sets to one value: what lets a fetch by a unique attribute go
/// without a sort (the database then plans no `ORDER BY`).
@Suite struct SingleRowConditionTests {
    /// The sample's columns qualified by its table's name, as a fetch's are.
    struct QualifiedColumns: ColumnResolving {
        func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
            QuerySampleColumns.entries.first { $0.keyPath == keyPath }.map {
                ResolvedColumn(sql: .column($0.name, of: "QuerySample"), codec: $0.codec)
            }
        }
    }

    func pinned(_ predicate: Predicate<QuerySample>) throws -> Set<String> {
        try PredicateTranslator.sql(for: predicate, columns: QualifiedColumns()).columnsEqualToArguments(of: "QuerySample")
    }

    @Test func equalitiesInTopLevelConjunctionsPinTheirColumns() throws {
        let year = 1995
        #expect(try pinned(#Predicate { $0.year == year }) == ["year"])
        #expect(try pinned(#Predicate { year == $0.year }) == ["year"])
        #expect(try pinned(#Predicate { $0.year == year && $0.flag }) == ["year"])
        #expect(try pinned(#Predicate { $0.title == "Up" && ($0.big == 3 || $0.flag) && $0.year == year }) == ["title", "year"])
    }

    @Test func equalitiesThatDoNotPinEveryMatch() throws {
        let year = 1995
        #expect(try pinned(#Predicate { $0.year == year || $0.big == 2 }).isEmpty)
        #expect(try pinned(#Predicate { !($0.year == year) }).isEmpty)
        #expect(try pinned(#Predicate { $0.year > year }).isEmpty)
        #expect(try pinned(#Predicate { $0.year == $0.big }).isEmpty)
        // An optional compared with a value: `IS NOT DISTINCT FROM`, which NULL rows may share.
        #expect(try pinned(#Predicate { $0.notes == "x" }).isEmpty)
        // Another table's column, in a hand-made condition.
        let other: SQLFragment = "(\(SQLFragment.column("year", of: "Other")) = \(SQLFragment.argument(.integer(1))))"
        #expect(other.columnsEqualToArguments(of: "QuerySample").isEmpty)
    }
}
