import Foundation
import GRDB
import Testing
import TestSupport
@testable import OpenSwiftData

// The harness every predicate and sort test uses: a plain class with attributes of many types,
// a real SQLite table holding the same objects (written with `ValueCodec.encode`), the same in
// PostgreSQL when the run has a server (PostgresSampleTable), and helpers that compare what
// each store's SQL selects or orders with what Foundation does in memory.

enum SampleGenre: String, Codable, CaseIterable, Sendable {
    case drama, comedy, horror, documentary
}

/// Comparable by raw value, as hand-written conformances of raw-valued enums usually are.
enum SamplePriority: Int, Codable, CaseIterable, Comparable, Sendable {
    case low = 1, medium = 5, high = 10, urgent = 100
    static func < (lhs: SamplePriority, rhs: SamplePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Comparable by declaration order, which is not the order of the raw values.
enum SampleShuffled: Int, Codable, CaseIterable, Comparable, Sendable {
    case first = 30, second = 10, third = 20
    static func < (lhs: SampleShuffled, rhs: SampleShuffled) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Comparable by raw value, but not CaseIterable, so the order cannot be checked.
enum SampleGrade: String, Codable, Comparable, Sendable {
    case a = "A", b = "B", c = "C"
    static func < (lhs: SampleGrade, rhs: SampleGrade) -> Bool { lhs.rawValue < rhs.rawValue }
}

struct SampleMetadata: Codable, Equatable, Sendable {
    var source: String
}

/// A model stand-in: a plain class, as `T` in the translators is unconstrained.
final class QuerySample: @unchecked Sendable, CustomStringConvertible {
    let id: Int
    var title = "untitled"
    var notes: String?
    var year = 2000
    var big = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint: UInt = 0
    var uint64: UInt64 = 0
    var score = 0.0
    var ratio: Float = 0
    var rating: Double?
    var count: Int?
    var flag = false
    var maybeFlag: Bool?
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var maybeDate: Date?
    var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    var maybeUUID: UUID?
    var data = Data()
    var url = URL(string: "https://example.com")!
    var maybeURL: URL?
    var genre = SampleGenre.drama
    var maybeGenre: SampleGenre?
    var priority = SamplePriority.low
    var maybePriority: SamplePriority?
    var shuffled = SampleShuffled.first
    var grade = SampleGrade.a
    var tags: [String] = []
    var metadata: SampleMetadata?
    var price: Decimal = 0
    /// Not stored: the resolver does not know it.
    var doubledYear: Int { year * 2 }

    init(_ id: Int, _ configure: (QuerySample) -> Void = { _ in }) {
        self.id = id
        configure(self)
    }

    var description: String { "QuerySample(\(id), \(title.debugDescription))" }
}

/// The store's part, played by hand: a column per stored attribute.
struct QuerySampleColumns: ColumnResolving {
    struct Entry: @unchecked Sendable {
        let keyPath: PartialKeyPath<QuerySample>
        let name: String
        let codec: ValueCodec
    }

    static let entries: [Entry] = [
        entry(\.title, "title"), entry(\.notes, "notes"), entry(\.year, "year"), entry(\.big, "big"),
        entry(\.int8, "int8"), entry(\.int16, "int16"), entry(\.int32, "int32"), entry(\.int64, "int64"),
        entry(\.uint8, "uint8"), entry(\.uint16, "uint16"), entry(\.uint32, "uint32"),
        entry(\.uint, "uint"), entry(\.uint64, "uint64"), entry(\.score, "score"), entry(\.ratio, "ratio"),
        entry(\.rating, "rating"), entry(\.count, "count"), entry(\.flag, "flag"),
        entry(\.maybeFlag, "maybeFlag"), entry(\.date, "date"), entry(\.maybeDate, "maybeDate"),
        entry(\.uuid, "uuid"), entry(\.maybeUUID, "maybeUUID"), entry(\.data, "data"), entry(\.url, "url"),
        entry(\.maybeURL, "maybeURL"), entry(\.genre, "genre"), entry(\.maybeGenre, "maybeGenre"),
        entry(\.priority, "priority"), entry(\.maybePriority, "maybePriority"), entry(\.shuffled, "shuffled"), entry(\.grade, "grade"),
        entry(\.tags, "tags"), entry(\.metadata, "metadata"), entry(\.price, "price"),
    ]

    private static func entry<V>(_ keyPath: KeyPath<QuerySample, V>, _ name: String) -> Entry {
        Entry(keyPath: keyPath, name: name, codec: ValueCodec.forType(V.self)!)
    }

    func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
        Self.entries.first { $0.keyPath == keyPath }.map { ResolvedColumn(sql: .identifier($0.name), codec: $0.codec) }
    }
}

enum QueryFixtures {
    static let day: TimeInterval = 86_400

    /// Edge data: NULLs, empty strings, `%` and `_`, mixed case, accents composed and not,
    /// negative numbers, the extremes of every integer width, infinities.
    static let samples: [QuerySample] = [
        QuerySample(1) {
            $0.title = "Toy Story"; $0.notes = "A classic"; $0.year = 1995; $0.big = Int.max
            $0.int8 = .max; $0.int16 = .max; $0.int32 = .max; $0.int64 = .max
            $0.uint8 = .max; $0.uint16 = .max; $0.uint32 = .max; $0.uint = .max; $0.uint64 = .max
            $0.score = 8.3; $0.ratio = 0.1; $0.rating = 4.5; $0.count = 3; $0.flag = true; $0.maybeFlag = true
            $0.date = Date(timeIntervalSinceReferenceDate: -200 * day); $0.maybeDate = Date(timeIntervalSinceReferenceDate: 10 * day)
            $0.uuid = UUID(uuidString: "F0000000-0000-0000-0000-000000000001")!; $0.maybeUUID = UUID(uuidString: "11111111-1111-1111-1111-111111111111")!
            $0.data = Data([1, 2, 3]); $0.url = URL(string: "https://pixar.com/toy-story")!; $0.maybeURL = URL(string: "https://a.example")!
            $0.genre = .comedy; $0.maybeGenre = .comedy; $0.priority = .high; $0.shuffled = .second; $0.grade = .b
            $0.maybePriority = .medium
            $0.tags = ["animation", "toys"]; $0.metadata = SampleMetadata(source: "imdb"); $0.price = Decimal(string: "9.99")!
        },
        QuerySample(2) {
            $0.title = "toy story 2"; $0.notes = nil; $0.year = 1999; $0.big = Int.min
            $0.int8 = .min; $0.int16 = .min; $0.int32 = .min; $0.int64 = .min
            $0.uint8 = 0; $0.uint = 0; $0.uint64 = 0
            $0.score = -1.5; $0.ratio = -3.25; $0.rating = nil; $0.count = nil; $0.flag = false; $0.maybeFlag = nil
            $0.date = .distantPast; $0.maybeDate = nil
            $0.uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
            $0.data = Data(); $0.url = URL(string: "file:///tmp/toy")!
            $0.genre = .drama; $0.maybeGenre = nil; $0.priority = .low; $0.shuffled = .first; $0.grade = .a
            $0.price = Decimal(string: "1.50")!
        },
        QuerySample(3) {
            $0.title = "TOY STORY 3"; $0.notes = ""; $0.year = 2010; $0.big = -1
            $0.int8 = -1; $0.int16 = -300; $0.int32 = -70_000; $0.int64 = -5_000_000_000
            $0.uint8 = 128; $0.uint16 = 40_000; $0.uint32 = 3_000_000_000; $0.uint = 1 << 63; $0.uint64 = 1 << 63
            $0.score = .infinity; $0.ratio = .greatestFiniteMagnitude; $0.rating = 0; $0.count = 0; $0.flag = true; $0.maybeFlag = false
            $0.date = .distantFuture; $0.maybeDate = Date(timeIntervalSinceReferenceDate: -10 * day)
            $0.uuid = UUID(uuidString: "7FFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!; $0.maybeUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
            $0.data = Data([0]); $0.maybeURL = URL(string: "https://b.example/path?q=1")!
            $0.genre = .horror; $0.maybeGenre = .drama; $0.priority = .urgent; $0.shuffled = .third; $0.grade = .c
            $0.maybePriority = .urgent
            $0.tags = ["sequel"]; $0.price = Decimal(string: "1.5")!
        },
        QuerySample(4) {
            $0.title = ""; $0.notes = "100% real"; $0.year = -44; $0.big = 0
            $0.int8 = 7; $0.int16 = 7; $0.int32 = 7; $0.int64 = 7
            $0.uint8 = 7; $0.uint16 = 7; $0.uint32 = 7; $0.uint = (1 << 63) - 1; $0.uint64 = (1 << 63) - 1
            $0.score = -.infinity; $0.ratio = -0.5; $0.rating = -2; $0.count = -4; $0.flag = false; $0.maybeFlag = true
            $0.date = Date(timeIntervalSince1970: 0); $0.maybeDate = Date(timeIntervalSince1970: 0)
            $0.uuid = UUID(uuidString: "80000000-0000-0000-0000-000000000000")!
            $0.data = Data([255, 0, 1]); $0.url = URL(string: "https://pixar.com/toy-story")!
            $0.genre = .documentary; $0.maybeGenre = .documentary; $0.priority = .medium; $0.grade = .b
        },
        QuerySample(5) {
            $0.title = "100% Pure"; $0.notes = "under_score"; $0.year = 0; $0.big = 1
            $0.int8 = 0; $0.int16 = 0; $0.int32 = 0; $0.int64 = 0
            $0.uint8 = 1; $0.uint16 = 1; $0.uint32 = 1; $0.uint = UInt.max - 1; $0.uint64 = UInt64.max - 1
            $0.score = 0; $0.ratio = 1; $0.rating = 4.5; $0.count = 3; $0.flag = true
            $0.date = Date(timeIntervalSinceReferenceDate: 1.5); $0.maybeDate = Date(timeIntervalSinceReferenceDate: 1.5)
            $0.uuid = UUID(uuidString: "F0000000-0000-0000-0000-000000000001")!; $0.maybeUUID = UUID(uuidString: "11111111-1111-1111-1111-111111111111")!
            $0.data = Data([1, 2, 3]); $0.maybeURL = URL(string: "https://a.example")!
            $0.genre = .comedy; $0.maybeGenre = .horror; $0.priority = .high; $0.shuffled = .third
            $0.tags = ["a%b"]; $0.metadata = SampleMetadata(source: "rt")
        },
        QuerySample(6) {
            $0.title = "under_score"; $0.notes = "x"; $0.year = 2024; $0.big = 42
            $0.int8 = 42; $0.uint8 = 42; $0.uint64 = 42; $0.uint = 42
            $0.score = 2.5; $0.ratio = 0.3; $0.rating = 10; $0.count = 10; $0.flag = false; $0.maybeFlag = false
            $0.date = Date(timeIntervalSinceReferenceDate: 5 * day)
            $0.genre = .drama; $0.maybeGenre = .drama; $0.priority = .medium; $0.shuffled = .second; $0.grade = .c
        },
        QuerySample(7) {
            $0.title = "Café"; $0.notes = "café au lait"; $0.year = 1968; $0.big = -42
            $0.score = 7; $0.ratio = 7; $0.rating = 7; $0.count = 7; $0.flag = true; $0.maybeFlag = true
            $0.date = Date(timeIntervalSinceReferenceDate: 10 * day); $0.maybeDate = Date(timeIntervalSinceReferenceDate: 10 * day)
            $0.uuid = UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!
            $0.genre = .documentary; $0.priority = .urgent
        },
        QuerySample(8) {
            $0.title = "Cafe\u{301}"; $0.notes = nil; $0.year = 1969; $0.big = 7
            $0.score = -7.25; $0.ratio = -7; $0.flag = false
            $0.genre = .comedy; $0.priority = .low; $0.grade = .b
        },
        QuerySample(9) {
            $0.title = "cafe"; $0.notes = "CAFE"; $0.year = 1970; $0.big = 1000
            $0.score = 1e300; $0.ratio = 1e30; $0.rating = 1e300; $0.count = 1000
            $0.maybeUUID = UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
            $0.data = Data([0, 0]); $0.genre = .horror; $0.priority = .medium
        },
        QuerySample(10) {
            $0.title = "Ünïcödé Straße"; $0.notes = "STRASSE"; $0.year = 1234; $0.big = -1000
            $0.score = 3.14; $0.ratio = 3.14; $0.rating = 3.14; $0.count = 2; $0.flag = true
            $0.maybeURL = URL(string: "file:///tmp/a%20b")!; $0.grade = .c
        },
        QuerySample(11) {
            $0.title = "a*b?c[d]"; $0.notes = "[bracket]"; $0.year = 1; $0.big = 2
            $0.score = 1; $0.ratio = 1; $0.count = 1; $0.maybeFlag = false
            $0.genre = .documentary; $0.maybeGenre = .comedy; $0.priority = .high
        },
        QuerySample(12) {
            $0.title = "file10"; $0.notes = "file9"; $0.year = 10; $0.big = 10
            $0.score = 10; $0.ratio = 10; $0.rating = 10; $0.count = 10
        },
        QuerySample(13) {
            $0.title = "file9"; $0.notes = "file10"; $0.year = 9; $0.big = 9
            $0.score = 9; $0.ratio = 9; $0.rating = 9; $0.count = 9; $0.flag = true
        },
        QuerySample(14) { $0.title = "Zebra"; $0.notes = "zebra"; $0.year = -3000; $0.score = -0.0; $0.genre = .horror; $0.maybePriority = .low }
        ,
        QuerySample(15) { $0.title = "apple"; $0.notes = "Apple"; $0.year = 3000; $0.score = 0.1; $0.priority = .urgent }
        ,
        QuerySample(16) { $0.title = "Apple"; $0.notes = "apple"; $0.year = 2999; $0.score = 0.2; $0.maybeGenre = .horror }
        ,
        QuerySample(17) { $0.title = "日本語のタイトル"; $0.notes = "タイトル"; $0.year = 2001; $0.score = 5; $0.flag = true }
        ,
        QuerySample(18) {
            $0.title = "emoji 👨‍👩‍👧 family"; $0.notes = "👨"; $0.year = 2002; $0.score = 6
            $0.maybeURL = URL(string: "https://b.example/path?q=1")!
        },
        QuerySample(19) { $0.title = "Toy%"; $0.notes = "%"; $0.year = 2003; $0.score = 7 }
        ,
        QuerySample(20) { $0.title = "Toy_Story"; $0.notes = "_"; $0.year = 2004; $0.score = 8 }
        ,
        QuerySample(21) { $0.title = "ÉCOLE"; $0.notes = "école"; $0.year = 2005; $0.score = 9 }
        ,
        QuerySample(22) { $0.title = "e\u{301}cole"; $0.notes = "ecole"; $0.year = 2006; $0.score = 10 }
        ,
        QuerySample(23) { $0.title = "line\nbreak\ttab"; $0.notes = "\n"; $0.year = 2007; $0.score = 11 }
        ,
        QuerySample(24) { $0.title = "Toy Story"; $0.notes = "duplicate title"; $0.year = 1995; $0.score = 8.3 }
        ,
    ]

    static let columns = QuerySampleColumns()

    /// The samples whose strings SQL compares as Swift does: all but the decomposed accents
    /// (8, 22) and the emoji family that contains a lone "👨" byte-wise but not as a Character
    /// (18). ``PredicateStringTests/knownDifferenceForCanonicallyEquivalentStrings()`` covers those.
    static let byteComparableSamples = samples.filter { ![8, 18, 22].contains($0.id) }

    /// A real SQLite database holding `samples`, with the query functions installed.
    static func database(_ samples: [QuerySample] = samples) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLiteFunctions.install(in: db) }
        let queue = try DatabaseQueue(configuration: configuration)
        try queue.write { db in
            let definitions = QuerySampleColumns.entries.map { entry in
                "\"\(entry.name)\" \(entry.codec.storage.sqlType)\(entry.codec.isOptional ? "" : " NOT NULL")"
            }
            try db.execute(sql: "CREATE TABLE sample (id INTEGER PRIMARY KEY, \(definitions.joined(separator: ", ")))")
            let names = QuerySampleColumns.entries.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: QuerySampleColumns.entries.count + 1).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "INSERT INTO sample (id, \(names)) VALUES (\(placeholders))")
            for sample in samples {
                var values: [DatabaseValue] = [sample.id.databaseValue]
                for entry in QuerySampleColumns.entries {
                    values.append(try entry.codec.encode(sample[keyPath: entry.keyPath]).databaseValue)
                }
                try statement.execute(arguments: StatementArguments(values))
            }
        }
        return queue
    }

    static let sharedDatabase: DatabaseQueue = try! database()

    /// The ids SQL selects with the translation of `predicate`.
    static func selectedIDs(
        _ predicate: Predicate<QuerySample>, in database: DatabaseQueue = sharedDatabase
    ) throws -> (ids: [Int], sql: SQLFragment) {
        let fragment = try PredicateTranslator.sql(for: predicate, columns: columns)
        let ids = try database.read { db in
            try Int.fetchAll(
                db, sql: "SELECT id FROM sample WHERE \(fragment.sqlite) ORDER BY id",
                arguments: fragment.statementArguments)
        }
        return (ids, fragment)
    }
}

/// Asserts that SQL selects exactly the samples `predicate.evaluate` selects in memory.
///
/// - Parameter discriminating: also require the predicate to select some samples but not all,
///   so that a test cannot pass by accident.
func expectSameSelection(
    _ predicate: Predicate<QuerySample>, in samples: [QuerySample]? = nil, discriminating: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let rows = samples ?? QueryFixtures.samples
    let expected = try rows.filter { try predicate.evaluate($0) }.map(\.id)
    let database = samples == nil ? QueryFixtures.sharedDatabase : try QueryFixtures.database(rows)
    let (actual, sql) = try QueryFixtures.selectedIDs(predicate, in: database)
    // Never print `predicate` itself: Foundation's printer stops the process on expression types
    // it does not know, such as StringLocalizedStandardContains.
    #expect(actual == expected, "SQL \(sql)", sourceLocation: sourceLocation)
    let postgres = samples == nil ? PostgresSampleTable.shared : try PostgresSampleTable.of(rows)
    if let (actual, sql) = try postgres?.selectedIDs(where: sql) {
        #expect(actual == expected, "PostgreSQL: \(sql)", sourceLocation: sourceLocation)
    }
    if discriminating {
        #expect(
            !expected.isEmpty && expected.count < rows.count,
            "the predicate selects \(expected.count) of \(rows.count) samples; SQL \(sql)",
            sourceLocation: sourceLocation)
    }
}

/// Asserts that `ORDER BY` orders the samples as `sorted(using:)` does (ties broken by id, the
/// order `sorted(using:)` keeps).
func expectSameOrder(
    _ descriptors: [SortDescriptor<QuerySample>], in samples: [QuerySample]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let rows = samples ?? QueryFixtures.samples
    let expected = rows.sorted(using: descriptors).map(\.id)
    let orderBy = try SortTranslator.sql(for: descriptors, columns: QueryFixtures.columns)
    let database = samples == nil ? QueryFixtures.sharedDatabase : try QueryFixtures.database(rows)
    let actual = try database.read { db in
        try Int.fetchAll(db, sql: "SELECT id FROM sample ORDER BY \(orderBy.sqlite), id")
    }
    #expect(actual == expected, "SQLite: ORDER BY \(orderBy)\(firstDifference(actual, expected, rows))", sourceLocation: sourceLocation)
    let postgres = samples == nil ? PostgresSampleTable.shared : try PostgresSampleTable.of(rows)
    if let (actual, sql) = try postgres?.orderedIDs(by: orderBy) {
        #expect(actual == expected, "PostgreSQL: \(sql)\(firstDifference(actual, expected, rows))", sourceLocation: sourceLocation)
    }
}

/// Where two orders of the samples first part, with the two samples' titles and notes, for
/// a failure's message; empty when they agree.
func firstDifference(_ actual: [Int], _ expected: [Int], _ rows: [QuerySample]) -> String {
    guard let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return "" }
    func shown(_ id: Int) -> String {
        let sample = rows.first { $0.id == id }
        let scalars = { (text: String?) in text.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") } ?? "nil" }
        return "#\(id) title [\(scalars(sample?.title))] notes [\(scalars(sample?.notes))]"
    }
    return "; at \(index) SQL has \(shown(actual[index])), Swift \(shown(expected[index]))"
}

/// The explanation of the `SwiftDataError` that `body` throws.
func unsupportedExplanation(of body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as SwiftDataError {
        return error.explanation
    } catch {
        return "unexpected error: \(error)"
    }
}

@Suite struct PredicateTestHarnessTests {
    @Test func fixturesRoundTripThroughTheTable() throws {
        let count = try QueryFixtures.sharedDatabase.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sample")
        }
        #expect(count == QueryFixtures.samples.count)
        let nullNotes = try QueryFixtures.sharedDatabase.read { db in
            try [Int](Int.fetchAll(db, sql: "SELECT id FROM sample WHERE notes IS NULL ORDER BY id"))
        }
        #expect(nullNotes == QueryFixtures.samples.filter { $0.notes == nil }.map(\.id))
    }

    @Test func theHarnessNoticesAWrongTranslation() throws {
        // A resolver that maps `year` to the wrong column must make the comparison fail.
        struct Wrong: ColumnResolving {
            func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
                keyPath == \QuerySample.year ? ResolvedColumn(sql: "\"big\"", codec: ValueCodec.forType(Int.self)!) : nil
            }
        }
        let predicate = #Predicate<QuerySample> { $0.year > 2000 }
        let fragment = try PredicateTranslator.sql(for: predicate, columns: Wrong())
        let ids = try QueryFixtures.sharedDatabase.read { db in
            try Int.fetchAll(db, sql: "SELECT id FROM sample WHERE \(fragment.sqlite) ORDER BY id", arguments: fragment.statementArguments)
        }
        #expect(ids != (try QueryFixtures.samples.filter { try predicate.evaluate($0) }.map(\.id)))
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
    func postgreSQLRunsThePredicatesItCanAndNoticesAWrongTranslation() throws {
        let predicate = #Predicate<QuerySample> { $0.year > 2000 && $0.flag }
        let expected = try QueryFixtures.samples.filter { try predicate.evaluate($0) }.map(\.id)
        let table = try #require(PostgresSampleTable.shared)
        let fragment = try PredicateTranslator.sql(for: predicate, columns: QueryFixtures.columns)
        let selected = try #require(try table.selectedIDs(where: fragment))
        #expect(selected.ids == expected)
        #expect(selected.sql.contains("$1"))
        struct Wrong: ColumnResolving {
            func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
                keyPath == \QuerySample.year ? ResolvedColumn(sql: .identifier("big"), codec: ValueCodec.forType(Int.self)!)
                    : QueryFixtures.columns.column(for: keyPath)
            }
        }
        let wrong = try #require(try table.selectedIDs(where: PredicateTranslator.sql(for: predicate, columns: Wrong())))
        #expect(wrong.ids != expected)
        // Arrays' membership and length and bytes' containment run there.
        let needle = Data([1, 2])
        for computed in [
            #Predicate<QuerySample> { $0.tags.contains("toys") }, #Predicate<QuerySample> { $0.tags.count == 1 },
            #Predicate<QuerySample> { $0.data.contains(needle) },
        ] {
            let ran = try #require(try table.selectedIDs(where: PredicateTranslator.sql(for: computed, columns: QueryFixtures.columns)))
            #expect(ran.ids == (try QueryFixtures.samples.filter { try computed.evaluate($0) }.map(\.id)), "\(ran.sql)")
        }
        // What PostgreSQL lacks is left to the store's in-memory answer, not run wrongly.
        let search = try PredicateTranslator.sql(for: #Predicate<QuerySample> { $0.title.contains("Toy") }, columns: QueryFixtures.columns)
        #expect(try table.selectedIDs(where: search) == nil)
    }

    @Test func argumentsAreBoundNeverSpliced() throws {
        let title = "Robert'); DROP TABLE sample; --"
        let fragment = try PredicateTranslator.sql(
            for: #Predicate<QuerySample> { $0.title == title }, columns: QueryFixtures.columns)
        #expect(!fragment.sqlite.contains("DROP"))
        #expect(fragment.databaseValues == [title.databaseValue])
    }
}
