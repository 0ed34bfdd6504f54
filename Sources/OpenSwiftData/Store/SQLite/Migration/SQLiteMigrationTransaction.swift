import Foundation
import GRDB

/// The transaction a migration of an SQLite store runs in, holding the store's write lock:
/// what the migration executor asks of the store file, so that running a plan (its steps, its
/// stages' closures, its report) stays in the Migration layer and only this file's SQL and
/// SQLite's connection stay in the Store.
///
/// Valid only inside ``withWriteLock(at:waitingUpTo:whileWaiting:_:)``'s body, which commits
/// it or rolls it back.
struct SQLiteMigrationTransaction {
    private let db: Database

    /// Opens the store at `url` for migrating, waits up to `wait` seconds for its write lock
    /// and calls `body` in the transaction, which commits when `body` says so and rolls back
    /// otherwise (or when it throws).
    static func withWriteLock<Result>(
        at url: URL, waitingUpTo wait: TimeInterval, whileWaiting: (@Sendable (TimeInterval) -> Void)?,
        _ body: (SQLiteMigrationTransaction) throws -> (result: Result, commit: Bool)
    ) throws -> Result {
        try MigrationConnection.withWriteLock(at: url, waitingUpTo: wait, whileWaiting: whileWaiting) { db in
            try body(SQLiteMigrationTransaction(db: db))
        }
    }

    /// The store's metadata as the transaction reads it; `nil` when the file has none.
    func metadata(of url: URL) throws -> StoreMetadata? {
        try SQLiteStore.readMetadata(db, location: .file(url))
    }

    /// Records `metadata` as the store's.
    func write(_ metadata: StoreMetadata) throws {
        try metadata.write(to: db)
    }

    /// Makes the table recording each migration step, if the store has none yet.
    func createMigrationHistory() throws {
        try MigrationHistory.createTable(in: db)
    }

    /// Records a step that ran.
    func recordStep(from: String, to: String, kind: String, sql: [String], rowsChanged: Int, milliseconds: Int) throws {
        try MigrationHistory.record(from: from, to: to, kind: kind, sql: sql, rowsChanged: rowsChanged, milliseconds: milliseconds, in: db)
    }

    /// How many rows the transaction has inserted, updated or deleted so far.
    var rowsChanged: Int {
        db.totalChangesCount
    }

    /// Runs `body`, counting the rows it changes per table into `tally`.
    func counting<Result>(into tally: RowChangeTally, _ body: () throws -> Result) rethrows -> Result {
        try tally.counting(in: db, body)
    }

    /// Rewrites the stored decimals of `entities` in their ordered text form; returns the SQL.
    func upgradeDecimalText(of entities: [Schema.Entity]) throws -> [String] {
        try DecimalTextUpgrade.run(on: entities, in: db)
    }

    /// What `structure` would drop, read before it runs.
    func droppedValues(_ structure: TableRestructuring) throws -> (entities: [(name: String, rows: Int)], properties: [(entity: String, name: String, values: Int)]) {
        try structure.droppedValues(in: db)
    }

    /// The rows that repeat values a uniqueness constraint of `structure`'s new tables forbids.
    func uniqueConflicts(_ structure: TableRestructuring) throws -> [(entity: String, attributes: [String], repetitions: [(values: [String], rows: Int)])] {
        try structure.uniqueConflicts(in: db)
    }

    /// Changes the tables as `structure` says.
    func run(_ structure: inout TableRestructuring) throws {
        try structure.run(in: db)
    }

    /// Checks and finishes what a custom stage's closure had to fill, then drops the old tables.
    func finishCustomStage(_ structure: inout TableRestructuring, place: String) throws {
        try structure.finishCustomStage(in: db, place: place)
    }

    /// A store over the transaction, reading and writing `schema`'s tables (under `storedNames`
    /// where old tables were kept under other names): what a stage's closure gets a context on.
    func store(schema: Schema, identifier: String, url: URL, storedNames: [String: String] = [:]) -> SQLiteStore {
        SQLiteStore(migrating: db, schema: schema, identifier: identifier, location: .file(url), storedNames: storedNames)
    }
}
