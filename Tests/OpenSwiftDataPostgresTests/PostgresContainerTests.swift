import Foundation
@testable import OpenSwiftData
import PostgresNIO
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

/// A container over a PostgreSQL store: what a SwiftData user does, saved, read back by a
/// second container (a second connection, as another server would).
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresContainerTests {
    private func container(_ place: ThrowAwaySchema) throws -> ModelContainer {
        try ModelContainer(for: Screening.self, Cinema.self, Patron.self, configurations: place.configuration(Screening.self, Cinema.self, Patron.self))
    }

    @Test func savedModelsAreReadBackWithTheirRelationships() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try container(place))
            let odeon = Cinema(name: "Odeon")
            let up = Screening(code: "UP-1", title: "Up", startsAt: Date(timeIntervalSinceReferenceDate: 1.000_000_1), price: Decimal(string: "9.95")!, seats: 40)
            let coco = Screening(code: "COCO-1", title: "Coco", startsAt: Date(timeIntervalSinceReferenceDate: 86_400), price: 12, seats: 80)
            up.cinema = odeon
            coco.cinema = odeon
            let ana = Patron(name: "Ana")
            ana.screenings = [up, coco]
            context.insert(ana)
            try context.save()

            let reader = ModelContext(try container(place))
            let screenings = try reader.fetch(FetchDescriptor<Screening>(sortBy: [SortDescriptor(\.seats)]))
            #expect(screenings.map(\.title) == ["Up", "Coco"])
            #expect(screenings[0].startsAt == Date(timeIntervalSinceReferenceDate: 1.000_000_1))
            #expect(screenings[0].price == Decimal(string: "9.95")!)
            #expect(screenings[0].cinema?.name == "Odeon")
            #expect(Set(try #require(screenings[0].cinema).screenings.map(\.title)) == ["Up", "Coco"])
            #expect(screenings[1].patrons.map(\.name) == ["Ana"])
            let patron = try #require(try reader.fetch(FetchDescriptor<Patron>()).first)
            #expect(Set(patron.screenings.map(\.code)) == ["UP-1", "COCO-1"])
        }
    }

    @Test func predicatesSortsCountsAndIdentifiersRunOnTheServer() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try container(place))
            for (index, title) in ["Up", "Coco", "Soul", "Luca", "Elio"].enumerated() {
                context.insert(Screening(code: "S\(index)", title: title, startsAt: .now, price: Decimal(index), seats: index * 10))
            }
            try context.save()
            let reader = ModelContext(try container(place))
            let large = FetchDescriptor<Screening>(predicate: #Predicate { $0.seats >= 20 && $0.price < 4 }, sortBy: [SortDescriptor(\.seats, order: .reverse)])
            #expect(try reader.fetch(large).map(\.title) == ["Luca", "Soul"])
            #expect(try reader.fetchCount(large) == 2)
            #expect(try reader.fetchIdentifiers(large).count == 2)
            var paged = FetchDescriptor<Screening>(sortBy: [SortDescriptor(\.seats)])
            paged.fetchOffset = 1
            paged.fetchLimit = 2
            #expect(try reader.fetch(paged).map(\.title) == ["Coco", "Soul"])
            #expect(try reader.fetchCount(paged) == 2)
            let code = "S3"
            #expect(try reader.fetch(FetchDescriptor<Screening>(predicate: #Predicate { $0.code == code })).map(\.title) == ["Luca"])
            #expect(try reader.fetch(FetchDescriptor<Screening>(predicate: #Predicate { $0.poster == nil })).count == 5)
            var seen: [String] = []
            try reader.enumerate(FetchDescriptor<Screening>(sortBy: [SortDescriptor(\.seats)]), batchSize: 2) { seen.append($0.title) }
            #expect(seen == ["Up", "Coco", "Soul", "Luca", "Elio"])
        }
    }

    /// What only Swift answers (Character-exact and localized string functions, string order)
    /// is answered in memory, exactly as Swift would.
    @Test func predicatesOnlySwiftAnswersAreAnsweredInMemory() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try container(place))
            for (index, title) in ["Café", "Cafe\u{301} noir", "cafe", "Tea"].enumerated() {
                context.insert(Screening(code: "C\(index)", title: title, startsAt: .now, price: 1, seats: index))
            }
            try context.save()
            let reader = ModelContext(try container(place))
            let accented = FetchDescriptor<Screening>(predicate: #Predicate { $0.title.contains("é") }, sortBy: [SortDescriptor(\.title)])
            #expect(try reader.fetch(accented).map(\.code) == ["C0", "C1"])
            #expect(try reader.fetchCount(accented) == 2)
            let search = FetchDescriptor<Screening>(predicate: #Predicate { $0.title.localizedStandardContains("CAFE") })
            #expect(try reader.fetchCount(search) == 3)
            try reader.delete(model: Screening.self, where: #Predicate { $0.title.localizedStandardContains("cafe") })
            try reader.save()
            #expect(try ModelContext(try container(place)).fetch(FetchDescriptor<Screening>()).map(\.title) == ["Tea"])
        }
    }

    @Test func changesDeletesAndUpsertsAreSavedInOneTransaction() throws {
        try ThrowAwaySchema().use { place in
            let context = ModelContext(try container(place))
            let odeon = Cinema(name: "Odeon")
            let up = Screening(code: "UP", title: "Up", startsAt: .now, price: 1, seats: 1)
            up.cinema = odeon
            context.insert(up)
            context.insert(Screening(code: "SOUL", title: "Soul", startsAt: .now, price: 1, seats: 2))
            try context.save()

            up.title = "Up (3D)"
            up.cinema = nil
            context.delete(try #require(try context.fetch(FetchDescriptor<Screening>(predicate: #Predicate { $0.code == "SOUL" })).first))
            // The same unique code: the stored row is updated, not duplicated.
            context.insert(Screening(code: "UP", title: "Up again", startsAt: .now, price: 2, seats: 3))
            try context.save()

            let reader = ModelContext(try container(place))
            let stored = try reader.fetch(FetchDescriptor<Screening>())
            #expect(stored.map(\.title) == ["Up again"])
            #expect(stored[0].cinema == nil)
            #expect(try reader.fetch(FetchDescriptor<Cinema>()).first?.screenings.isEmpty == true)

            // A failing save writes nothing: a NUL in a string is refused, naming the attribute.
            context.insert(Screening(code: "BAD", title: "a\u{0}b", startsAt: .now, price: 1, seats: 1))
            context.insert(Cinema(name: "Rex"))
            #expect {
                try context.save()
            } throws: { error in
                "\(error)".contains("Screening.title") && "\(error)".contains("NUL")
            }
            #expect(try ModelContext(try container(place)).fetchCount(FetchDescriptor<Cinema>()) == 1)
        }
    }

    /// A save's last statement, its history's, goes with its COMMIT: when the server refuses
    /// it, the save keeps nothing, and the connection (the pool's only one) serves what follows.
    @Test func aSaveWhoseHistoryIsRefusedKeepsNothing() throws {
        try ThrowAwaySchema().use { place in
            var configuration = place.configuration(Screening.self, Cinema.self, Patron.self)
            configuration.maximumConnections = 1
            let container = try ModelContainer(for: Screening.self, Cinema.self, Patron.self, configurations: configuration)
            let context = ModelContext(container)
            context.insert(Cinema(name: "Odeon"))
            try context.save()
            let transactions = PostgresNames.qualified(StoreHistory.transactionsTable, in: place.name)
            let session = try place.session()
            try session.query(PostgresQuery(unsafeSQL: """
                CREATE FUNCTION \(PostgresNames.qualified("refuse", in: place.name))() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'history refused'; END $$;
                """))
            try session.query(PostgresQuery(unsafeSQL: """
                CREATE TRIGGER refuse BEFORE INSERT ON \(transactions) FOR EACH ROW EXECUTE FUNCTION \(PostgresNames.qualified("refuse", in: place.name))()
                """))

            context.insert(Cinema(name: "Rex"))
            #expect { try context.save() } throws: { "\($0)".contains("history refused") }
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Cinema>()) == 1)

            try session.query(PostgresQuery(unsafeSQL: "DROP TRIGGER refuse ON \(transactions)"))
            try context.save()
            let reader = ModelContext(container)
            #expect(try reader.fetch(FetchDescriptor<Cinema>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Odeon", "Rex"])
            #expect(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
        }
    }

    @Test func eraseEmptiesTheStoreAndKeepsItsTables() throws {
        try ThrowAwaySchema().use { place in
            let container = try container(place)
            let context = ModelContext(container)
            let patron = Patron(name: "Ana")
            patron.screenings = [Screening(code: "A", title: "A", startsAt: .now, price: 1, seats: 1)]
            context.insert(patron)
            try context.save()
            try container.erase()
            let reader = ModelContext(try self.container(place))
            #expect(try reader.fetchCount(FetchDescriptor<Patron>()) == 0)
            #expect(try reader.fetchCount(FetchDescriptor<Screening>()) == 0)
            reader.insert(Patron(name: "Bo"))
            try reader.save()
            #expect(try reader.fetchCount(FetchDescriptor<Patron>()) == 1)
        }
    }
}

/// Servers are async: `container.perform` runs the synchronous context code on the container's
/// threads, as many at once as the store has connections.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresPerformTests {
    @Test func requestsRunSideBySideOnThePoolsConnections() async throws {
        let place = try ThrowAwaySchema()
        defer { _ = try? place.session().query("DROP SCHEMA IF EXISTS \(unescaped: PostgresNames.quoted(place.name)) CASCADE") }
        var configuration = place.configuration(Screening.self, Cinema.self, Patron.self)
        configuration.maximumConnections = 3
        let container = try ModelContainer(for: Screening.self, Cinema.self, Patron.self, configurations: configuration)
        #expect(container.workerThreads.count == 3)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for request in 0..<12 {
                group.addTask {
                    try await container.perform { context in
                        context.insert(Cinema(name: "Cinema \(request)"))
                        try context.save()
                        return try context.fetchCount(FetchDescriptor<Cinema>())
                    }
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            #expect(counts.max() == 12)
        }
        let names = try ModelContext(container).fetch(FetchDescriptor<Cinema>()).map(\.name)
        #expect(Set(names) == Set((0..<12).map { "Cinema \($0)" }))
    }
}
