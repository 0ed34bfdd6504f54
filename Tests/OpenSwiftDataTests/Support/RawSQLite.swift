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

/// The bytes of a store's files, by suffix ("", "-wal", ".backup", …): every file beside the
/// store whose name starts with the store's, except SQLite's `-shm` index, which any reader may
/// rewrite. What a test compares to show that an open left the store untouched.
func storeFiles(_ url: URL) throws -> [String: Data] {
    let folder = url.deletingLastPathComponent()
    let name = url.lastPathComponent
    var files: [String: Data] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where file.hasPrefix(name) && !file.hasSuffix("-shm") {
        files[String(file.dropFirst(name.count))] = try Data(contentsOf: folder.appendingPathComponent(file))
    }
    return files
}
