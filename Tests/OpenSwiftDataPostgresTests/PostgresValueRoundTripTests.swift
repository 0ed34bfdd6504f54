import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

enum Rating: String, Codable { case good, bad }

struct Address: Codable, Equatable {
    var street: String
    var numbers: [Double]
    var nested: [String: Int]
}

/// Each type's values through a real PostgreSQL column and back, through the value codecs the
/// SQLite store uses: never changed on the way (NUL in a string refused, naming the attribute).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresValueRoundTripTests {
    /// Writes each value to a column of its type's storage and reads it back.
    func roundTrip<T>(_ values: [T], in place: ThrowAwaySchema, session: PostgresSession) throws -> [T] {
        let codec = try #require(ValueCodec.forType(T.self))
        let table = PostgresNames.qualified("values_\(codec.storage.rawValue)_\(UUID().uuidString.prefix(8))", in: place.name)
        try session.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (\"n\" integer PRIMARY KEY, \"v\" \(codec.storage.postgresType))"))
        for (index, value) in values.enumerated() {
            var binds = PostgresBindings()
            binds.append(index)
            try PostgresValues.bind(try codec.encode(value), as: codec.storage, into: &binds, attribute: "v", entity: "Values")
            try session.query(PostgresQuery(
                unsafeSQL: "INSERT INTO \(table) (\"n\", \"v\") VALUES ($1, \(PostgresValues.placeholder(2, for: codec.storage)))", binds: binds))
        }
        return try session.query(PostgresQuery(unsafeSQL: "SELECT \(PostgresValues.selected("\"v\"", for: codec.storage)) FROM \(table) ORDER BY \"n\"")).map { row in
            let cell = try #require(row.first)
            return try codec.decode(try PostgresValues.stored(cell, as: codec.storage)) as! T
        }
    }

    @Test func everyTypeKeepsItsValues() throws {
        try ThrowAwaySchema().use { place in
            let session = try place.session()
            try session.query("CREATE SCHEMA \(unescaped: PostgresNames.quoted(place.name))")
            #expect(try roundTrip([true, false], in: place, session: session) == [true, false])
            #expect(try roundTrip([Int8.min, -1, 0, Int8.max], in: place, session: session) == [Int8.min, -1, 0, Int8.max])
            #expect(try roundTrip([Int16.min, Int16.max], in: place, session: session) == [Int16.min, Int16.max])
            #expect(try roundTrip([Int32.min, Int32.max], in: place, session: session) == [Int32.min, Int32.max])
            #expect(try roundTrip([Int.min, -1, Int.max], in: place, session: session) == [Int.min, -1, Int.max])
            #expect(try roundTrip([UInt8.max, 0], in: place, session: session) == [UInt8.max, 0])
            #expect(try roundTrip([UInt16.max], in: place, session: session) == [UInt16.max])
            #expect(try roundTrip([UInt32.max], in: place, session: session) == [UInt32.max])
            #expect(try roundTrip([UInt64.max, 1 << 63, 0], in: place, session: session) == [UInt64.max, 1 << 63, 0])
            #expect(try roundTrip([UInt.max], in: place, session: session) == [UInt.max])
            let doubles: [Double] = [-0.0, 0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, 1e-300]
            let readDoubles = try roundTrip(doubles, in: place, session: session)
            #expect(readDoubles.map(\.bitPattern) == doubles.map(\.bitPattern))
            #expect(try roundTrip([Float.pi, -Float.leastNonzeroMagnitude], in: place, session: session) == [Float.pi, -Float.leastNonzeroMagnitude])
            let dates = [Date(timeIntervalSinceReferenceDate: 0.000_000_1), Date(timeIntervalSinceReferenceDate: -1e9 + 0.123_456_789), .distantFuture]
            #expect(try roundTrip(dates, in: place, session: session) == dates)
            let decimals: [Decimal] = [0, -1, Decimal(string: "12345678901234567890123456789012345678")!, Decimal(string: "-0.00000000000000000000000000000000001")!,
                                       Decimal(sign: .plus, exponent: 120, significand: 7), Decimal(sign: .minus, exponent: -120, significand: 3), .nan]
            let readDecimals = try roundTrip(decimals, in: place, session: session)
            #expect(readDecimals.dropLast() == decimals.dropLast())
            #expect(readDecimals.last?.isNaN == true)
            let strings = ["", "plain", "naïve café", "👍🏽👨‍👩‍👧", "line\nbreak\ttab", "quote ' \" \\", String(repeating: "長", count: 10_000)]
            #expect(try roundTrip(strings, in: place, session: session) == strings)
            let urls = [URL(string: "https://example.com/a?b=c#d")!, URL(fileURLWithPath: "/tmp/x y")]
            #expect(try roundTrip(urls, in: place, session: session) == urls)
            let uuids = [UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!]
            #expect(try roundTrip(uuids, in: place, session: session) == uuids)
            let data = [Data(), Data([0, 1, 255, 0]), Data(repeating: 7, count: 100_000)]
            #expect(try roundTrip(data, in: place, session: session) == data)
            #expect(try roundTrip([Rating.good, .bad], in: place, session: session) == [.good, .bad])
            let addresses = [Address(street: "1 Infinite Loop", numbers: [0.1, 1e300, -0.0], nested: ["b": 2, "a": 1])]
            #expect(try roundTrip(addresses, in: place, session: session) == addresses)
            let optionals: [String?] = [nil, "some", nil]
            #expect(try roundTrip(optionals, in: place, session: session) == optionals)
        }
    }

    @Test func aStringWithNulIsRefusedNamingTheAttribute() throws {
        var binds = PostgresBindings()
        #expect {
            try PostgresValues.bind(.text("a\u{0}b"), as: .string, into: &binds, attribute: "title", entity: "Film")
        } throws: { error in
            (error as? SwiftDataError) == .modelValidationFailure && "\(error)".contains("Film.title") && "\(error)".contains("NUL")
        }
    }

    /// Random values, compared with what was written: strings of any scalar but NUL, doubles of
    /// any bit pattern but NaN, dates with sub-microsecond fractions, decimals of random digits
    /// and exponents.
    @Test func randomValuesComeBackUnchanged() throws {
        var generator = SystemRandomNumberGenerator()
        try ThrowAwaySchema().use { place in
            let session = try place.session()
            try session.query("CREATE SCHEMA \(unescaped: PostgresNames.quoted(place.name))")
            let strings = (0..<300).map { _ in
                String(String.UnicodeScalarView((0..<Int.random(in: 0...20, using: &generator)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 1...0x10FFFF, using: &generator))
                }))
            }
            #expect(try roundTrip(strings, in: place, session: session) == strings)
            let doubles = (0..<300).map { _ in Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)) }.filter { !$0.isNaN }
            #expect(try roundTrip(doubles, in: place, session: session).map(\.bitPattern) == doubles.map(\.bitPattern))
            let dates = (0..<300).map { _ in Date(timeIntervalSinceReferenceDate: Double.random(in: -3e9...3e9, using: &generator)) }
            #expect(try roundTrip(dates, in: place, session: session) == dates)
            let decimals = (0..<300).map { _ in
                Decimal(sign: Bool.random(using: &generator) ? .plus : .minus, exponent: Int.random(in: -60...60, using: &generator),
                        significand: Decimal(UInt64.random(in: 0...UInt64.max, using: &generator)))
            }
            #expect(try roundTrip(decimals, in: place, session: session) == decimals)
        }
    }
}
