import Foundation
import Testing
@testable import OpenSwiftData

/// `== != < <= > >=` on every attribute type, each checked against `Predicate.evaluate`.
@Suite struct PredicateComparisonTests {
    @Test func integers() throws {
        let year = 1995
        try expectSameSelection(#Predicate<QuerySample> { $0.year == year })
        try expectSameSelection(#Predicate<QuerySample> { $0.year != 1995 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year < 1995 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year <= 1995 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year > 1995 })
        try expectSameSelection(#Predicate<QuerySample> { $0.year >= 1995 })
        try expectSameSelection(#Predicate<QuerySample> { 1995 < $0.year })
        try expectSameSelection(#Predicate<QuerySample> { $0.year < -40 })
    }

    @Test func integerExtremes() throws {
        let max = Int.max, min = Int.min
        try expectSameSelection(#Predicate<QuerySample> { $0.big == max })
        try expectSameSelection(#Predicate<QuerySample> { $0.big == min })
        try expectSameSelection(#Predicate<QuerySample> { $0.big > min })
        try expectSameSelection(#Predicate<QuerySample> { $0.big < max })
        try expectSameSelection(#Predicate<QuerySample> { $0.big < 0 })
    }

    @Test func everyIntegerWidth() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.int8 < 0 })
        let int8Max = Int8.max
        try expectSameSelection(#Predicate<QuerySample> { $0.int8 == int8Max })
        try expectSameSelection(#Predicate<QuerySample> { $0.int16 >= -300 })
        try expectSameSelection(#Predicate<QuerySample> { $0.int32 != 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.int64 <= -5_000_000_000 })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint8 > 100 })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint16 == 40_000 })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint32 >= 3_000_000_000 })
    }

    @Test func unsigned64BitValuesCompareAsUnsigned() throws {
        // UInt64.max is stored as the bit pattern -1: a signed comparison would get these wrong.
        let half: UInt64 = 1 << 63
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 > 100 })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 >= half })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 < half })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 <= 42 })
        let uint64Max = UInt64.max, uintMax = UInt.max
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 == uint64Max })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint > 1 && $0.uint < uintMax })
        try expectSameSelection(#Predicate<QuerySample> { $0.uint64 != 0 })
    }

    @Test func doublesAndFloats() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.score > 8.3 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score == 8.3 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score < 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score <= 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.score == 0 })
        let infinity = Double.infinity
        try expectSameSelection(#Predicate<QuerySample> { $0.score >= infinity })
        try expectSameSelection(#Predicate<QuerySample> { $0.score > -infinity })
        // 0.1 as a Float is not 0.1 as a Double: both sides must use the Float.
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio == 0.1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio > 0.1 })
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio < 3.14 })
        let greatest = Float.greatestFiniteMagnitude
        try expectSameSelection(#Predicate<QuerySample> { $0.ratio >= greatest })
    }

    @Test func strings() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.title == "Toy Story" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title != "Toy Story" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title == "" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title < "Toy" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title >= "a" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title > "Z" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title <= "Café" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title == "日本語のタイトル" })
        try expectSameSelection(#Predicate<QuerySample> { $0.title == "100% Pure" })
        try expectSameSelection(#Predicate<QuerySample> { ($0.notes ?? "toy story 2") == $0.title })
    }

    @Test func booleans() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.flag == true })
        try expectSameSelection(#Predicate<QuerySample> { $0.flag == false })
        try expectSameSelection(#Predicate<QuerySample> { $0.flag != true })
        let yes = true
        try expectSameSelection(#Predicate<QuerySample> { $0.flag == yes })
    }

    @Test func dates() throws {
        let reference = Date(timeIntervalSinceReferenceDate: 0)
        let later = Date(timeIntervalSinceReferenceDate: 1.5)
        try expectSameSelection(#Predicate<QuerySample> { $0.date > reference })
        try expectSameSelection(#Predicate<QuerySample> { $0.date < reference })
        try expectSameSelection(#Predicate<QuerySample> { $0.date == later })
        try expectSameSelection(#Predicate<QuerySample> { $0.date <= later })
        let distantFuture = Date.distantFuture
        try expectSameSelection(#Predicate<QuerySample> { $0.date != distantFuture })
        try expectSameSelection(#Predicate<QuerySample> { $0.date.timeIntervalSinceReferenceDate > 0 })
        try expectSameSelection(#Predicate<QuerySample> { $0.date.timeIntervalSince1970 <= 0 })
    }

    @Test func uuids() throws {
        let id = UUID(uuidString: "F0000000-0000-0000-0000-000000000001")!
        let middle = UUID(uuidString: "7FFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
        try expectSameSelection(#Predicate<QuerySample> { $0.uuid == id })
        try expectSameSelection(#Predicate<QuerySample> { $0.uuid != id })
        // UUID's `<` is the order of its bytes, which is how SQLite compares BLOBs.
        try expectSameSelection(#Predicate<QuerySample> { $0.uuid > middle })
        try expectSameSelection(#Predicate<QuerySample> { $0.uuid <= middle })
    }

    @Test func dataAndURLs() throws {
        let bytes = Data([1, 2, 3])
        let empty = Data()
        let url = URL(string: "https://pixar.com/toy-story")!
        try expectSameSelection(#Predicate<QuerySample> { $0.data == bytes })
        try expectSameSelection(#Predicate<QuerySample> { $0.data != empty })
        try expectSameSelection(#Predicate<QuerySample> { $0.url == url })
        try expectSameSelection(#Predicate<QuerySample> { $0.url != url })
        try expectSameSelection(#Predicate<QuerySample> { $0.data.isEmpty })
        try expectSameSelection(#Predicate<QuerySample> { $0.data.count >= 2 })
    }

    @Test func enumsByRawValue() throws {
        let comedy = SampleGenre.comedy
        let high = SamplePriority.high
        try expectSameSelection(#Predicate<QuerySample> { $0.genre == comedy })
        try expectSameSelection(#Predicate<QuerySample> { $0.genre != comedy })
        try expectSameSelection(#Predicate<QuerySample> { $0.priority == high })
        try expectSameSelection(#Predicate<QuerySample> { $0.priority < high })
        try expectSameSelection(#Predicate<QuerySample> { $0.priority >= high })
        let b = SampleGrade.b
        try expectSameSelection(#Predicate<QuerySample> { $0.grade > b })
    }

    @Test func optionals() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.notes == nil })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes != nil })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes == "x" })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes != "x" })
        try expectSameSelection(#Predicate<QuerySample> { $0.notes == "" })
        try expectSameSelection(#Predicate<QuerySample> { $0.rating == 4.5 })
        try expectSameSelection(#Predicate<QuerySample> { $0.rating != 4.5 })
        try expectSameSelection(#Predicate<QuerySample> { $0.rating == nil })
        try expectSameSelection(#Predicate<QuerySample> { $0.count != nil })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeFlag == true })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeFlag != true })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeFlag == false })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeFlag == nil })
        let when = Date(timeIntervalSinceReferenceDate: 10 * QueryFixtures.day)
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeDate == when })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeDate != nil })
        let uuid = UUID(uuidString: "11111111-1111-1111-1111-111111111111")
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeUUID == uuid })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeUUID != uuid })
        let url = URL(string: "https://a.example")
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeURL == url })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeURL == nil })
        let drama: SampleGenre? = .drama
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeGenre == drama })
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeGenre != drama })
        let none: SampleGenre? = nil
        try expectSameSelection(#Predicate<QuerySample> { $0.maybeGenre == none })
        // JSON and decimal columns can still be tested against nil.
        try expectSameSelection(#Predicate<QuerySample> { $0.metadata == nil })
    }

    @Test func twoColumns() throws {
        try expectSameSelection(#Predicate<QuerySample> { $0.year < $0.big })
        // nil == nil in Swift: every sample, the NULLs included.
        try expectSameSelection(#Predicate<QuerySample> { $0.rating == $0.rating }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { $0.notes != $0.notes }, discriminating: false)
        try expectSameSelection(#Predicate<QuerySample> { ($0.maybeDate ?? $0.date) == $0.date })
        try expectSameSelection(#Predicate<QuerySample> { ($0.maybeFlag ?? $0.flag) != $0.flag })
    }

    @Test func capturedValuesAreReadInSwift() throws {
        // Key paths on captured values are evaluated while translating, not in SQL.
        let metadata = SampleMetadata(source: "Zebra")
        let numbers = [1995, 2010]
        try expectSameSelection(#Predicate<QuerySample> { $0.title == metadata.source })
        try expectSameSelection(#Predicate<QuerySample> { $0.year > numbers.count * 1000 })
    }
}
