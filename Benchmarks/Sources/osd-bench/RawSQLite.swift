import CSQLite
import Foundation

/// A thin, checked wrapper over the SQLite C API for the raw driver and for fast seeding.
struct SQLiteError: Error, CustomStringConvertible {
    var description: String
}

var SQLITE_TRANSIENT_VALUE: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

final class RawDB {
    let handle: OpaquePointer

    /// Opens a file with the PRAGMAs every driver uses: WAL, synchronous=NORMAL.
    init(path: String, synchronous: String = "NORMAL") throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw SQLiteError(description: "open \(path): \(rc)")
        }
        handle = db
        try exec("PRAGMA journal_mode=WAL")
        try exec("PRAGMA synchronous=\(synchronous)")
    }

    deinit { sqlite3_close_v2(handle) }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "\(rc)"
            sqlite3_free(message)
            throw SQLiteError(description: "\(sql): \(text)")
        }
    }

    var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(description: "prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return RawStatement(statement, db: handle)
    }

    func scalarInt(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }
}

final class RawStatement {
    let handle: OpaquePointer
    let db: OpaquePointer
    init(_ handle: OpaquePointer, db: OpaquePointer) {
        self.handle = handle
        self.db = db
    }
    deinit { sqlite3_finalize(handle) }

    @inline(__always) func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, sqlite3_int64(value))
    }
    @inline(__always) func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(handle, index, value, -1, SQLITE_TRANSIENT_VALUE)
    }
    @inline(__always) func bind(_ index: Int32, _ value: UUID) {
        var bytes = value.uuid
        withUnsafeBytes(of: &bytes) { raw in
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress, 16, SQLITE_TRANSIENT_VALUE)
        }
    }
    @inline(__always) func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }
    /// Binds `NULL` for `nil`.
    @inline(__always) func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }
    /// Steps once; true while a row is available.
    @inline(__always) func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(description: "step: \(String(cString: sqlite3_errmsg(db)))")
    }
    /// Runs a statement that returns no row, then resets it for reuse.
    @inline(__always) func run() throws {
        let rc = sqlite3_step(handle)
        sqlite3_reset(handle)
        if rc != SQLITE_DONE { throw SQLiteError(description: "run: \(String(cString: sqlite3_errmsg(db)))") }
    }
    @inline(__always) func reset() { sqlite3_reset(handle) }
    @inline(__always) func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    @inline(__always) func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: pointer)
    }
    @inline(__always) func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    /// The column's text, `nil` for `NULL`.
    @inline(__always) func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }
    @inline(__always) func uuid(_ column: Int32) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if let blob = sqlite3_column_blob(handle, column), sqlite3_column_bytes(handle, column) == 16 {
            withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16)) }
        }
        return UUID(uuid: bytes)
    }
}
