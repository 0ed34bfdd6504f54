import Foundation
import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// Statements a store repeats are prepared on each connection from their second run on, and
/// answer exactly as the unprepared statement did.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct RepeatedStatementTests {
    @Test func aRepeatedStatementIsPreparedOnceAndAnswersAsBefore() throws {
        let place = try ThrowAwaySchema()
        let session = try place.session()
        // Text no other test sends, so its first runs here are its first in the process.
        let marker = UUID().uuidString
        let statement: (Int) -> PostgresQuery = { value in
            var binds = PostgresBindings()
            binds.append(Int64(value))
            binds.append(marker)
            return PostgresQuery(unsafeSQL: "SELECT $1::bigint * 2, $2::text", binds: binds)
        }
        var answers: [Int64] = []
        for value in 1...4 {
            let row = try #require(try session.query(statement(value), repeated: true).first)
            let (doubled, text) = try row.decode((Int64, String).self)
            #expect(text == marker)
            answers.append(doubled)
        }
        #expect(answers == [2, 4, 6, 8])
        let name = try #require(RepeatedStatements.name(of: statement(0).sql))
        let prepared = try session.query("SELECT name FROM pg_prepared_statements").map { try $0.decode(String.self) }
        #expect(prepared.contains(name))
        // A statement not marked as repeated is never prepared.
        _ = try session.query(PostgresQuery(unsafeSQL: "SELECT \(marker.count) + $1::bigint", binds: { var b = PostgresBindings(); b.append(Int64(1)); return b }()))
        #expect(RepeatedStatements.name(of: "SELECT \(marker.count) + $1::bigint") == nil)
    }

    /// A fetch of one shape over and over, its value nil first, then each type of value: the
    /// prepared statement answers each as the store's first run did.
    @Test func fetchesOfOneShapeAnswerTheSameOnceTheirStatementIsPrepared() throws {
        try ThrowAwaySchema().use { place in
            let container = try ModelContainer(
                for: Screening.self, Cinema.self, Patron.self, configurations: place.configuration(Screening.self, Cinema.self, Patron.self))
            let context = ModelContext(container)
            let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
            for index in 0..<6 {
                context.insert(Screening(code: "C\(index)", title: "T\(index % 2)", startsAt: start + Double(index) * 60, price: Decimal(index), seats: index))
            }
            try context.save()
            for round in 0..<4 {
                let reader = ModelContext(container)
                for index in 0..<6 {
                    let code = "C\(index)"
                    let byCode = try reader.fetch(FetchDescriptor<Screening>(predicate: #Predicate { $0.code == code }))
                    #expect(byCode.map(\.seats) == [index], "round \(round)")
                    let later = start + Double(index) * 60
                    #expect(try reader.fetchCount(FetchDescriptor<Screening>(predicate: #Predicate { $0.startsAt >= later })) == 6 - index)
                    let poster: Data? = round == 0 ? nil : Data([UInt8(index)])
                    #expect(try reader.fetchCount(FetchDescriptor<Screening>(predicate: #Predicate { $0.poster == poster })) == (round == 0 ? 6 : 0))
                }
                var page = FetchDescriptor<Screening>(sortBy: [SortDescriptor(\.title), SortDescriptor(\.code, order: .reverse)])
                page.fetchLimit = 3
                page.fetchOffset = round
                #expect(try reader.fetch(page).map(\.code) == Array(["C4", "C2", "C0", "C5", "C3", "C1"][round..<round + 3]))
            }
        }
    }
}
