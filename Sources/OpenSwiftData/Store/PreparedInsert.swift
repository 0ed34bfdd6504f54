import GRDB
import GRDBSQLite

/// An `INSERT` prepared once and run for many rows straight through SQLite's C API.
///
/// A save inserts every new row of an entity with the same statement; binding each value
/// directly costs a fraction of building GRDB `StatementArguments` for every row (which was
/// nearly half of the work of a bulk insert). Used only inside the save's transaction, on the
/// connection that prepared it.
final class PreparedInsert {
    private let db: Database
    private let sql: String
    private let statement: OpaquePointer

    init(sql: String, in db: Database) throws {
        self.db = db
        self.sql = sql
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw Self.error(code, db, sql)
        }
        self.statement = statement
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Inserts one row with these values, in column order.
    func run(_ values: [DatabaseValue]) throws {
        defer {
            sqlite3_reset(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value.storage {
            case .null: code = sqlite3_bind_null(statement, index)
            case .int64(let int): code = sqlite3_bind_int64(statement, index, int)
            case .double(let double): code = sqlite3_bind_double(statement, index, double)
            case .string(let string): code = sqlite3_bind_text(statement, index, string, -1, Self.transient)
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw Self.error(code, db, sql) }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw Self.error(code, db, sql) }
    }

    /// Tells SQLite to copy bound text and blobs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func error(_ code: Int32, _ db: Database, _ sql: String) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) },
            sql: sql)
    }
}
