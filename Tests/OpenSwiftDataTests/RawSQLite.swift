import Foundation
import GRDB

/// The first row of a query run straight against a store file, bypassing OpenSwiftData.
func rawRow(_ url: URL, sql: String) throws -> Row {
    let queue = try DatabaseQueue(path: url.path)
    return try queue.read { db in
        guard let row = try Row.fetchOne(db, sql: sql) else { throw RawSQLiteError.noRow(sql) }
        return row
    }
}

/// The column names of a table of a store file.
func rawColumns(_ url: URL, table: String) throws -> [String] {
    let queue = try DatabaseQueue(path: url.path)
    return try queue.read { db in try db.columns(in: table).map(\.name) }
}

enum RawSQLiteError: Error {
    case noRow(String)
}
