import Foundation
import OpenSwiftData
import PostgresNIO

/// A migration statement that waited longer than the configuration's `migrationLockTimeout`
/// for a table another connection uses.
struct MigrationLockTimeout: Error {
    let statement: String
    let underlying: PostgresStatementError
}

extension PostgresStore {
    /// How many times opening is tried again after a migration statement's lock timeout.
    static let migrationRetries = 3

    /// Runs `open` (one opening transaction), again after a lock timeout, waiting a little
    /// longer each time, up to ``migrationRetries`` times; then throws naming the tables'
    /// other users: their process, what they run, since when.
    static func retryingLockTimeouts<T>(_ configuration: PostgresConfiguration, session: PostgresSession, _ open: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try open()
            } catch let timeout as MigrationLockTimeout {
                attempt += 1
                if attempt <= migrationRetries {
                    Thread.sleep(forTimeInterval: configuration.migrationLockTimeout * Double(attempt))
                    continue
                }
                let blockers = (try? lockHolders(in: configuration.databaseSchema, session: session)) ?? []
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "the migration of the PostgreSQL schema \(configuration.databaseSchema) of \(PostgresEndpoint.redacted(configuration.url)) waited \(migrationRetries + 1) times \(configuration.migrationLockTimeout) s for a table other connections use, and was rolled back each time, nothing changed (at: \(timeout.statement)). "
                        + (blockers.isEmpty ? "No other connection holds its tables now: open it again." : "Holding its tables: " + blockers.joined(separator: "; ") + ". End those transactions (or stop those servers), or raise migrationLockTimeout, and open it again."))
            }
        }
    }

    /// The other connections holding locks on the schema's tables: process, table, state,
    /// since when, and what they run.
    private static func lockHolders(in databaseSchema: String, session: PostgresSession) throws -> [String] {
        try session.query("""
            SELECT DISTINCT l.pid, c.relname::text, coalesce(a.state, ''), coalesce(to_char(a.xact_start, 'HH24:MI:SS'), ''), left(coalesce(a.query, ''), 80)
            FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE n.nspname = \(databaseSchema) AND l.pid <> pg_backend_pid() AND l.granted ORDER BY 1, 2
            """).map { row in
            let (pid, table, state, since, query) = try row.decode((Int32, String, String, String, String).self)
            return "process \(pid) on \(table) (\(state), its transaction since \(since): \(query))"
        }
    }
}
