import Foundation
import OpenSwiftData
import PostgresNIO
import Synchronization
import Testing
import TestSupport
@testable import OpenSwiftDataPostgres

@Model final class Screening {
    @Attribute(.unique) var code: String
    var title: String
    var startsAt: Date
    var price: Decimal
    var seats: Int
    var poster: Data?
    var cinema: Cinema?
    @Relationship(inverse: \Patron.screenings) var patrons: [Patron] = []
    init(code: String, title: String, startsAt: Date, price: Decimal, seats: Int) {
        self.code = code
        self.title = title
        self.startsAt = startsAt
        self.price = price
        self.seats = seats
    }
}

@Model final class Cinema {
    var name: String
    @Relationship(inverse: \Screening.cinema) var screenings: [Screening] = []
    init(name: String) { self.name = name }
}

@Model final class Patron {
    var name: String
    var screenings: [Screening] = []
    init(name: String) { self.name = name }
}

/// A model whose join table's name is longer than PostgreSQL's 63 bytes.
@Model final class AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits {
    var label: String
    var companionsWithAnEvenLongerRelationshipNameThanTheEntity: [Patron] = []
    init(label: String) { self.label = label }
}

/// Opening a PostgreSQL store: the schema and tables made once, recognised after, refused when
/// they follow other models; names kept under 63 bytes.
@Suite(.enabled(if: PostgresTestServer.isAvailable, "needs PostgreSQL: \(PostgresTestServer.unavailableReason)"))
struct PostgresStoreOpeningTests {
    @Test func openingCreatesTheTablesOnceAndRecognisesThemAfter() throws {
        try ThrowAwaySchema().use { place in
            let store = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let again = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            #expect(again.identifier == store.identifier)

            let session = try place.session()
            let columns = try session.query(
                "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = \(place.name) AND table_name = 'Screening' ORDER BY ordinal_position"
            ).map { try $0.decode((String, String, String).self) }
            #expect(columns.map(\.0) == ["_pk", "code", "title", "startsAt", "startsAt_timestamptz", "price", "seats", "poster", "cinema"])
            #expect(columns.map(\.1) == ["bigint", "text", "text", "double precision", "timestamp with time zone", "numeric", "bigint", "bytea", "bigint"])
            #expect(columns.map(\.2) == ["NO", "NO", "NO", "NO", "YES", "NO", "NO", "YES", "YES"])
            let tables = Set(try session.query("SELECT tablename FROM pg_tables WHERE schemaname = \(place.name)").map { try $0.decode(String.self) })
            #expect(tables == ["Screening", "Cinema", "Patron", "_osd_join_Patron_screenings", "_osd_metadata"])
            let indices = Set(try session.query("SELECT indexname FROM pg_indexes WHERE schemaname = \(place.name)").map { try $0.decode(String.self) })
            #expect(indices.isSuperset(of: ["Screening_unique_code", "Screening_key_cinema", "_osd_join_Patron_screenings_target"]))
        }
    }

    /// A date is kept exactly (seconds since 2001), and its `timestamptz` twin reads the instant.
    @Test func aDatesTimestampTwinIsComputedByTheServer() throws {
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            let session = try place.session()
            let table = PostgresNames.qualified("Screening", in: place.name)
            try session.query(PostgresQuery(unsafeSQL:
                "INSERT INTO \(table) (\"code\", \"title\", \"startsAt\", \"price\", \"seats\") VALUES ('A', 'Up', 0.0000001, 9.5, 40)"))
            let instant = try #require(try session.query(PostgresQuery(unsafeSQL: "SELECT \"startsAt_timestamptz\" FROM \(table)")).first?.decode(Date.self))
            #expect(abs(instant.timeIntervalSinceReferenceDate) < 0.000_001)
            let exact = try #require(try session.query(PostgresQuery(unsafeSQL: "SELECT \"startsAt\" FROM \(table)")).first?.decode(Double.self))
            #expect(exact == 0.0000001)
        }
    }

    @Test func aStoreOfOtherModelsIsRefusedAndLeftAlone() throws {
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits.self))
            let session = try place.session()
            let before = try session.query("SELECT count(*) FROM information_schema.columns WHERE table_schema = \(place.name)").first?.decode(Int.self)
            #expect {
                try PostgresStore(place.configuration(Screening.self, Cinema.self, Patron.self))
            } throws: { error in
                (error as? SwiftDataError) == .loadIssueModelContainer && "\(error)".contains(place.name)
                    && "\(error)".contains("drops entity AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits") && "\(error)".contains("Nothing was changed")
            }
            let after = try session.query("SELECT count(*) FROM information_schema.columns WHERE table_schema = \(place.name)").first?.decode(Int.self)
            #expect(before == after)
        }
    }

    @Test func tablesOfTheSameNamesThatAreNotOursAreRefused() throws {
        try ThrowAwaySchema().use { place in
            let session = try place.session()
            try session.query("CREATE SCHEMA \(unescaped: PostgresNames.quoted(place.name))")
            try session.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(PostgresNames.qualified("Cinema", in: place.name)) (id int)"))
            #expect {
                try PostgresStore(place.configuration(Cinema.self))
            } throws: { error in
                "\(error)".contains("already has tables named Cinema")
            }
        }
    }

    @Test func aReadOnlyConfigurationNeverCreatesAStore() throws {
        try ThrowAwaySchema().use { place in
            #expect {
                try PostgresStore(place.configuration(Cinema.self, isReadOnly: true))
            } throws: { error in
                "\(error)".contains("read-only")
            }
            let schemas = try place.session().query("SELECT count(*) FROM pg_namespace WHERE nspname = \(place.name)").first?.decode(Int.self)
            #expect(schemas == 0)
            let store = try PostgresStore(place.configuration(Cinema.self))
            #expect(try PostgresStore(place.configuration(Cinema.self, isReadOnly: true)).identifier == store.identifier)
        }
    }

    @Test func namesLongerThan63BytesAreShortenedTheSameWayEachTime() throws {
        let long = "_osd_join_AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits_companionsWithAnEvenLongerRelationshipNameThanTheEntity"
        let short = PostgresNames.shortened(long)
        #expect(short.utf8.count == 63)
        #expect(short == PostgresNames.shortened(long))
        #expect(short != PostgresNames.shortened(long + "s"))
        #expect(PostgresNames.shortened("Cinema") == "Cinema")
        try ThrowAwaySchema().use { place in
            _ = try PostgresStore(place.configuration(AnExtraordinarilyLongNamedEntityForPostgresIdentifierLimits.self, Patron.self, Screening.self, Cinema.self))
            let tables = Set(try place.session().query("SELECT tablename FROM pg_tables WHERE schemaname = \(place.name)").map { try $0.decode(String.self) })
            #expect(tables.contains(short))
            #expect(tables.allSatisfy { $0.utf8.count <= 63 })
        }
    }

    /// Servers starting together create the store once: the advisory lock makes them take turns.
    @Test func storesOpenedTogetherCreateOneStore() throws {
        try ThrowAwaySchema().use { place in
            let configuration = place.configuration(Screening.self, Cinema.self, Patron.self)
            let identifiers = Mutex<[Result<String, any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let opened = Result { try PostgresStore(configuration).identifier }
                identifiers.withLock { $0.append(opened) }
            }
            let opened = try identifiers.withLock { try $0.map { try $0.get() } }
            #expect(opened.count == 4)
            #expect(Set(opened).count == 1)
        }
    }

    @Test func aURLThatNamesNoDatabaseOrAnUnreachableServerIsRefused() throws {
        #expect {
            try PostgresConfiguration(url: URL(string: "mysql://root@localhost/films")!).validate()
        } throws: { error in
            "\(error)".contains("is not a postgres:// URL") && "\(error)".contains("postgres://user:password@host:5432/database")
        }
        #expect {
            try PostgresStore(PostgresConfiguration(schema: Schema([Cinema.self]), url: URL(string: "postgres://nobody:secret@127.0.0.1:1/none")!))
        } throws: { error in
            "\(error)".contains("127.0.0.1:1") && !"\(error)".contains("secret")
        }
    }
}
