import FluentKit
import FluentPostgresDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
@_spi(Benchmarks) import OpenSwiftData
import OpenSwiftDataPostgres
import PostgresNIO

/// The PostgreSQL cases, on the server `OSD_POSTGRES_URL` names (`Benchmarks/postgres.sh`
/// starts a throw-away one): each (case, driver, size) in a PostgreSQL schema of its own, whose
/// tables our store creates, so all three drivers work on the same layout. postgres-nio is
/// used directly (its fastest simple idioms: one `unnest` insert, one `UPDATE … FROM unnest`),
/// Fluent as its users write it.
enum PostgresBench {
    static var url: URL? {
        ProcessInfo.processInfo.environment["OSD_POSTGRES_URL"].flatMap(URL.init(string:))
    }

    static let itemColumns = (0..<10).map { "\"i\($0)\"" }.joined(separator: ", ")

    /// The held connections of a run.
    final class Handles {
        var container: ModelContainer?
        var connection: PostgresConnection?
        var databases: Databases?
        var fluent: (any Database)?
    }

    static func job(case id: String, driver: String, size n: Int) throws -> Job {
        guard let url else {
            throw ValidationErrorText("the PostgreSQL cases need a server: set OSD_POSTGRES_URL (Benchmarks/postgres.sh starts one)")
        }
        if ["P10", "P11", "P12", "P13"].contains(id) { return try SearchBench.job(case: id, driver: driver, size: n, url: url) }
        let schema = "bench_\(id.lowercased())_\(driver.replacingOccurrences(of: "-", with: "_"))_\(n)"
        let handles = Handles()
        let configuration = PostgresConfiguration(schema: Schema(versionedSchema: ItemsV1.self), url: url, databaseSchema: schema)
        let models = Schema(versionedSchema: ItemsV1.self)
        /// A new, empty store of items (dropped first), seeded with `seed` rows.
        func fresh(seed: Int) throws {
            let connection = try connect(url)
            _ = try connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"), logger: logger).wait()
            _ = try ModelContainer(for: models, configurations: [configuration])
            if seed > 0 {
                try insertUnnest(connection, schema: schema, values: Array(0..<seed))
            }
            try connection.close().wait()
        }
        func open() throws {
            switch driver {
            case "ours":
                handles.container = try ModelContainer(for: models, configurations: [configuration])
            case "postgres-nio":
                handles.connection = try connect(url)
                _ = try handles.connection!.query(PostgresQuery(unsafeSQL: "SET search_path TO \"\(schema)\""), logger: logger).wait()
            case "fluent":
                let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
                var sqlConfiguration = try SQLPostgresConfiguration(url: url)
                sqlConfiguration.searchPath = [schema]
                databases.use(.postgres(configuration: sqlConfiguration, maxConnectionsPerEventLoop: 1), as: .psql)
                handles.databases = databases
                handles.fluent = databases.database(.psql, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            default:
                throw ValidationErrorText("no driver \(driver) for \(id)")
            }
        }
        func close() {
            handles.container = nil
            try? handles.connection?.close().wait()
            handles.connection = nil
            handles.fluent = nil
            handles.databases?.shutdown()
            handles.databases = nil
        }
        switch id {
        case "P1":
            return Job(before: { try fresh(seed: 0); try open() }, body: {
                switch driver {
                case "ours":
                    let context = ModelContext(handles.container!)
                    for i in 0..<n { context.insert(ItemsV1.Item(i)) }
                    try context.save()
                case "postgres-nio":
                    try insertUnnest(handles.connection!, schema: nil, values: Array(0..<n))
                default:
                    let items = (0..<n).map(FluentItem.init)
                    // Fluent binds every value: at most 65 535 per statement.
                    try handles.fluent!.transaction { database in
                        items.chunked(6_000).map { $0.create(on: database) }.flatten(on: database.eventLoop)
                    }.wait()
                }
                return n
            }, after: close)
        case "P2", "P3":
            // P3: i0 < n / 10, one row in ten, in key order.
            let limit = id == "P2" ? n : n / 10
            return Job(once: { try fresh(seed: n); try open() }, body: {
                switch driver {
                case "ours":
                    let context = ModelContext(handles.container!)
                    let descriptor = id == "P2"
                        ? FetchDescriptor<ItemsV1.Item>()
                        : FetchDescriptor<ItemsV1.Item>(predicate: #Predicate { $0.i0 < limit })
                    return try context.fetch(descriptor).reduce(0) { $0 &+ $1.i0 }
                case "postgres-nio":
                    var binds = PostgresBindings()
                    binds.append(limit)
                    let rows = try handles.connection!.query(PostgresQuery(
                        unsafeSQL: "SELECT \"_pk\", \(itemColumns) FROM \"Item\" WHERE \"i0\" < $1 ORDER BY \"_pk\"", binds: binds), logger: logger).wait()
                    var items: [ItemRow] = []
                    for row in rows {
                        let (pk, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = try row.decode((Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
                        items.append(ItemRow(pk: pk, values: [i0, i1, i2, i3, i4, i5, i6, i7, i8, i9]))
                    }
                    return items.reduce(0) { $0 &+ $1.values[0] }
                default:
                    let items = try FluentItem.query(on: handles.fluent!).filter(\.$i0 < limit).sort(\.$id).all().wait()
                    return items.reduce(0) { $0 &+ $1.i0 }
                }
            }, after: {})
        case "P4":
            // Every item's i1 changes; a fresh store of n items each run.
            return Job(before: { try fresh(seed: n); try open() }, body: {
                switch driver {
                case "ours":
                    let context = ModelContext(handles.container!)
                    for item in try context.fetch(FetchDescriptor<ItemsV1.Item>()) { item.i1 += 1 }
                    try context.save()
                case "postgres-nio":
                    let connection = handles.connection!
                    let rows = try connection.query(PostgresQuery(unsafeSQL: "SELECT \"_pk\", \"i1\" FROM \"Item\""), logger: logger).wait()
                    var keys: [Int] = []
                    var values: [Int] = []
                    for row in rows {
                        let (pk, i1) = try row.decode((Int, Int).self)
                        keys.append(pk)
                        values.append(i1 + 1)
                    }
                    var binds = PostgresBindings()
                    binds.append(keys)
                    binds.append(values)
                    _ = try connection.query(PostgresQuery(
                        unsafeSQL: "UPDATE \"Item\" SET \"i1\" = v.i1 FROM unnest($1::bigint[], $2::bigint[]) AS v(pk, i1) WHERE \"Item\".\"_pk\" = v.pk",
                        binds: binds), logger: logger).wait()
                default:
                    let items = try FluentItem.query(on: handles.fluent!).all().wait()
                    for item in items { item.i1 += 1 }
                    try handles.fluent!.transaction { database in
                        items.map { $0.update(on: database) }.flatten(on: database.eventLoop)
                    }.wait()
                }
                return n
            }, after: close)
        case "P5":
            let userConfiguration = PostgresConfiguration(schema: Schema(versionedSchema: UsersV1.self), url: url, databaseSchema: schema)
            return Job(before: { try freshUsers(url, userConfiguration, plan: PlanG1.self, count: n) }, body: {
                switch driver {
                case "ours":
                    handles.container = try ModelContainer(
                        for: Schema(versionedSchema: UsersV2.self), migrationPlan: PlanG1.self, configurations: [userConfiguration])
                case "postgres-nio":
                    let connection = try connect(url)
                    handles.connection = connection
                    for statement in ["BEGIN", "ALTER TABLE \"\(schema)\".\"User\" ADD COLUMN \"nickname\" text", "ALTER TABLE \"\(schema)\".\"User\" ADD COLUMN \"score\" bigint NOT NULL DEFAULT 0", "COMMIT"] {
                        _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
                    }
                default:
                    try open()
                    let migrations = Migrations()
                    migrations.add(AddNicknameAndScore())
                    let migrator = Migrator(
                        databases: handles.databases!, migrations: migrations, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
                    try migrator.setupIfNeeded().flatMap { migrator.prepareBatch() }.wait()
                }
                return n
            }, after: close)
        case "P8":
            return Job(before: {
                try fresh(seed: 0)
                if driver == "ours-no-history" { ModelContainer.recordsPersistentHistory = false }
                handles.container = try ModelContainer(for: models, configurations: [configuration])
                if driver == "postgres-nio" { try open() }
            }, body: {
                if driver == "postgres-nio" {
                    for i in 0..<n {
                        var binds = PostgresBindings()
                        for _ in 0..<10 { binds.append(i) }
                        _ = try handles.connection!.query(PostgresQuery(
                            unsafeSQL: "INSERT INTO \"Item\" (\(itemColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", binds: binds), logger: logger).wait()
                    }
                } else {
                    let context = ModelContext(handles.container!)
                    for i in 0..<n {
                        context.insert(ItemsV1.Item(i))
                        try context.save()
                    }
                }
                return n
            }, after: close)
        case "P9":
            let observed = ObservedStore()
            return Job(before: {
                try fresh(seed: 0)
                handles.container = try ModelContainer(for: models, configurations: [configuration])
                if driver == "ours" {
                    observed.container = try ModelContainer(for: models, configurations: [configuration])
                    observed.observer = try HistoryObserver(modelContainer: observed.container!)
                }
            }, body: {
                try saveEach(n, in: ModelContext(handles.container!), noticedBy: observed.observer) { ItemsV1.Item($0) }
                return n
            }, after: {
                observed.observer = nil
                observed.container = nil
                close()
            })
        case "P6", "P7":
            let userConfiguration = PostgresConfiguration(schema: Schema(versionedSchema: UsersV1.self), url: url, databaseSchema: schema)
            let servers = id == "P6" ? 1 : 4
            return Job(before: { try freshUsers(url, userConfiguration, plan: PlanG4.self, count: n) }, body: {
                let failures = Failures()
                DispatchQueue.concurrentPerform(iterations: servers) { _ in
                    do {
                        switch driver {
                        case "ours":
                            _ = try ModelContainer(for: Schema(versionedSchema: UsersV4.self), migrationPlan: PlanG4.self, configurations: [userConfiguration])
                        case "postgres-nio":
                            let connection = try connect(url)
                            defer { try? connection.close().wait() }
                            try addFullName(connection, schema: schema, locking: servers > 1)
                        default:
                            try addFullNameWithFluent(url, schema: schema)
                        }
                    } catch {
                        failures.record("\(error)")
                    }
                }
                if let failure = failures.first { throw ValidationErrorText(failure) }
                return n
            })
        default:
            throw ValidationErrorText("no PostgreSQL case \(id)")
        }
    }

    /// G4 by hand: `fullName` added, every row read, the names made in Swift and written back in
    /// one `UPDATE … FROM unnest`, in one transaction. With `locking`, as several servers must:
    /// under an advisory lock, and only when the column is not there yet.
    static func addFullName(_ connection: PostgresConnection, schema: String, locking: Bool) throws {
        func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
            try Array(connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait().rows)
        }
        _ = try run("BEGIN")
        if locking {
            _ = try run("SELECT pg_advisory_xact_lock(42)")
            let exists = try run("SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = 'User' AND column_name = 'fullName'")
            if try exists.first?.decode(Int64.self) == 1 {
                _ = try run("COMMIT")
                return
            }
        }
        _ = try run("ALTER TABLE \"\(schema)\".\"User\" ADD COLUMN \"fullName\" text NOT NULL DEFAULT ''")
        var keys: [Int64] = []
        var names: [String] = []
        for row in try run("SELECT \"_pk\", \"firstName\", \"surname\" FROM \"\(schema)\".\"User\"") {
            let (key, first, last) = try row.decode((Int64, String, String).self)
            keys.append(key)
            names.append(first + " " + last)
        }
        var binds = PostgresBindings()
        binds.append(keys)
        binds.append(names)
        _ = try run(
            "UPDATE \"\(schema)\".\"User\" SET \"fullName\" = v.name FROM unnest($1::bigint[], $2::text[]) AS v(pk, name) WHERE \"User\".\"_pk\" = v.pk",
            binds)
        _ = try run("COMMIT")
    }

    /// G4 in Fluent: a migration adding the field, then each user's name set and saved, in one
    /// transaction, run by its Migrator.
    static func addFullNameWithFluent(_ url: URL, schema: String) throws {
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        defer { databases.shutdown() }
        var sqlConfiguration = try SQLPostgresConfiguration(url: url)
        sqlConfiguration.searchPath = [schema]
        databases.use(.postgres(configuration: sqlConfiguration, maxConnectionsPerEventLoop: 1), as: .psql)
        let migrations = Migrations()
        migrations.add(AddFullName())
        let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        try migrator.setupIfNeeded().flatMap { migrator.prepareBatch() }.wait()
    }

    /// A new store of `count` users at version 1 of `plan` (its PostgreSQL schema dropped first).
    static func freshUsers(_ url: URL, _ configuration: OpenSwiftDataPostgres.PostgresConfiguration, plan: any SchemaMigrationPlan.Type, count: Int) throws {
        let connection = try connect(url)
        defer { try? connection.close().wait() }
        _ = try connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(configuration.databaseSchema)\" CASCADE"), logger: logger).wait()
        _ = try ModelContainer(for: Schema(versionedSchema: UsersV1.self), migrationPlan: plan, configurations: [configuration])
        try insertUsers(connection, schema: configuration.databaseSchema, count: count)
    }

    /// Inserts `count` users (our store's User table) in one statement.
    static func insertUsers(_ connection: PostgresConnection, schema: String, count: Int) throws {
        var binds = PostgresBindings()
        binds.append((0..<count).map { _ in UUID() })
        binds.append((0..<count).map { $0 % 10 == 0 ? "Jane" : "User\($0 % 97)" })
        binds.append((0..<count).map { "Surname\($0)" })
        binds.append((0..<count).map { Int64($0 % 90) })
        _ = try connection.query(PostgresQuery(
            unsafeSQL: "INSERT INTO \"\(schema)\".\"User\" (\"id\", \"firstName\", \"surname\", \"age\") SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[])",
            binds: binds), logger: logger).wait()
    }

    static let logger: Logger = {
        var logger = Logger(label: "osd-bench.postgres")
        logger.logLevel = .critical
        return logger
    }()

    static func connect(_ url: URL) throws -> PostgresConnection {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let configuration = PostgresConnection.Configuration(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: String(components.path.dropFirst()), tls: .disable)
        return try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger).wait()
    }

    /// Inserts items of the given values (every column the value) in one statement.
    static func insertUnnest(_ connection: PostgresConnection, schema: String?, values: [Int]) throws {
        let table = schema.map { "\"\($0)\".\"Item\"" } ?? "\"Item\""
        var binds = PostgresBindings()
        for _ in 0..<10 { binds.append(values) }
        let arrays = (1...10).map { "$\($0)::bigint[]" }.joined(separator: ", ")
        _ = try connection.query(PostgresQuery(
            unsafeSQL: "INSERT INTO \(table) (\(itemColumns)) SELECT * FROM unnest(\(arrays))", binds: binds), logger: logger).wait()
    }
}

/// G1 as a Fluent migration: the two columns added to the table our store made.
struct AddNicknameAndScore: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("User")
            .field("nickname", .string)
            .field("score", .int, .required, .sql(.default(0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("User").deleteField("nickname").deleteField("score").update()
    }
}

/// G4 as a Fluent migration: the field added, then every user's `fullName` set from the two
/// names and saved, in one transaction.
struct AddFullName: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.transaction { database in
            try await database.schema("User").field("fullName", .string, .required, .sql(.default(""))).update()
            for user in try await FluentUser.query(on: database).all() {
                user.fullName = user.firstName + " " + user.surname
                try await user.update(on: database)
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema("User").deleteField("fullName").update()
    }
}

/// The user as Fluent models it, over the table our store made.
final class FluentUser: FluentKit.Model, @unchecked Sendable {
    static let schema = "User"
    @ID(custom: "_pk", generatedBy: .database) var id: Int?
    @Field(key: "firstName") var firstName: String
    @Field(key: "surname") var surname: String
    @Field(key: "fullName") var fullName: String

    init() {}
}

/// Errors of the servers of one run, recorded from their threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func record(_ error: String) { lock.withLock { errors.append(error) } }
    var first: String? { lock.withLock { errors.first } }
}

/// A row as postgres-nio's user keeps it.
struct ItemRow {
    let pk: Int
    let values: [Int]
}

/// The item as Fluent models it, over the table our store made.
final class FluentItem: FluentKit.Model, @unchecked Sendable {
    static let schema = "Item"
    @ID(custom: "_pk", generatedBy: .database) var id: Int?
    @Field(key: "i0") var i0: Int
    @Field(key: "i1") var i1: Int
    @Field(key: "i2") var i2: Int
    @Field(key: "i3") var i3: Int
    @Field(key: "i4") var i4: Int
    @Field(key: "i5") var i5: Int
    @Field(key: "i6") var i6: Int
    @Field(key: "i7") var i7: Int
    @Field(key: "i8") var i8: Int
    @Field(key: "i9") var i9: Int

    init() {}

    init(_ value: Int) {
        i0 = value; i1 = value; i2 = value; i3 = value; i4 = value
        i5 = value; i6 = value; i7 = value; i8 = value; i9 = value
    }
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
