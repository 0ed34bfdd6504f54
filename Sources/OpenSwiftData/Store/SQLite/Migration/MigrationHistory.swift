import Foundation
import GRDB

/// The store's record of the migrations applied to it, one row per step, in
/// `_osd_migrations`: versions, kind, SQL run, rows changed, duration and date.
enum MigrationHistory {
    static let tableName = "_osd_migrations"

    static func createTable(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(tableName.quotedDatabaseIdentifier) (
                "id" INTEGER PRIMARY KEY,
                "fromVersion" TEXT NOT NULL,
                "toVersion" TEXT NOT NULL,
                "kind" TEXT NOT NULL,
                "sql" TEXT NOT NULL,
                "rowsChanged" INTEGER NOT NULL,
                "milliseconds" INTEGER NOT NULL,
                "appliedAt" REAL NOT NULL)
            """)
    }

    /// Records one step: the versions it went between, `custom` or `lightweight`, the SQL it ran.
    static func record(
        from: String, to: String, kind: String, sql: [String], rowsChanged: Int, milliseconds: Int, in db: Database
    ) throws {
        try db.execute(
            sql: "INSERT INTO \(tableName.quotedDatabaseIdentifier) (fromVersion, toVersion, kind, sql, rowsChanged, milliseconds, appliedAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [from, to, kind, sql.joined(separator: ";\n"), rowsChanged, milliseconds, Date().timeIntervalSinceReferenceDate])
    }
}
