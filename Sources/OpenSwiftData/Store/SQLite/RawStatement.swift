import Foundation
import GRDB
import GRDBSQLite

/// A statement run straight through SQLite's C API, for the store's hot paths: inserting and
/// updating the rows of a save, and reading every row a fetch returns, without GRDB's
/// `StatementArguments` and `Row` (the DocC article Internals says what they cost).
///
/// Used only inside one `read` or `write` of the connection that prepared it.
final class RawStatement: StoredRowReading {
    private let db: Database
    private let sql: String
    /// GRDB's statement, which owns (and in time finalizes) the SQLite statement; held so it
    /// stays prepared while this is in use.
    private let prepared: GRDB.Statement
    private let statement: OpaquePointer
    /// Room for the bytes of each text and blob parameter bound more than once (index 0 for
    /// parameter 1), reused for every value bound to it after the first. SQLite is told not to
    /// copy those values (`SQLITE_STATIC`): copying into room this statement keeps costs less
    /// than SQLite allocating, copying and freeing its own copy of each, for the thousands of
    /// rows a save or a migration binds. They stay put until the statement is reset with its
    /// bindings cleared, and are freed after. Made at the first parameter bound a second time.
    private var parameterBytes: [UnsafeMutableRawBufferPointer] = []
    /// The parameters bound once already: bit `i - 1` for parameter `i`, up to 64 (later ones
    /// are always copied by SQLite).
    private var boundOnce: UInt64 = 0

    /// Prepares `sql` on `db`.
    ///
    /// - Parameter reusable: whether `sql` is one of a few a connection runs again and again
    ///   (a table's insert, the update of a set of columns): such a statement is kept in the
    ///   connection's statement cache and prepared once. Statements whose text varies with
    ///   their input (`IN` lists of any length, predicates) are prepared for the one use, so
    ///   the cache does not grow with every length and shape.
    init(sql: String, in db: Database, reusable: Bool = false) throws {
        self.db = db
        self.sql = sql
        prepared = try reusable ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        statement = prepared.sqliteStatement
    }

    deinit {
        // Left ready for its next use, holding no copy of the values bound last and no
        // reference to the room they were kept in.
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for bytes in parameterBytes { bytes.deallocate() }
    }

    /// Runs a statement that returns no rows (an insert, an update) once `bindValues` has bound each of
    /// its parameters with ``bind(_:as:at:)`` or ``bind(_:at:)``.
    func execute(_ bindValues: (RawStatement) throws -> Void) throws {
        defer { sqlite3_reset(statement) }
        try bindValues(self)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw Self.error(code, db, sql) }
    }

    /// The key of the row the connection inserted last, read from SQLite directly: GRDB's
    /// `lastInsertedRowID` first checks which queue it runs on, which costs more than the read.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(db.sqliteConnection)
    }

    /// The rows the last statement of the connection inserted, updated or deleted (not counting
    /// triggers'): 0 after an `INSERT … ON CONFLICT DO NOTHING` that met a conflict.
    var changedRowCount: Int32 {
        sqlite3_changes(db.sqliteConnection)
    }

    /// Runs a query with these values and calls `body` for each row, which reads its columns
    /// with ``value(at:)``.
    func forEachRow(_ values: [DatabaseValue], _ body: (RawStatement) throws -> Void) throws {
        defer { sqlite3_reset(statement) }
        try bind(values)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw Self.error(code, db, sql) }
            try body(self)
        }
    }

    // A column is read as one `sqlite3_value`, whose type and contents are then read without
    // the connection's lock: each `sqlite3_column_` call takes and releases it, so reading a
    // column's type and then its contents that way took it twice. The value is valid until the
    // statement steps, and the connection is used by one thread at a time (GRDB serializes
    // every access), which is what reading such a value needs.

    /// The current row's value at a column index (0-based).
    func value(at index: Int32) -> DatabaseValue {
        Self.databaseValue(of: sqlite3_column_value(statement, index))
    }

    /// The current row's value at a column index (0-based) as `codec`'s Swift type, read with
    /// the C call for the storage class the codec writes.
    func value(at index: Int32, as codec: ValueCodec) throws -> Any {
        let column = sqlite3_column_value(statement, index)
        let type = sqlite3_value_type(column)
        switch (type, codec.identityType) {
        case (SQLITE_INTEGER, .int?): return Int(sqlite3_value_int64(column))
        case (SQLITE_FLOAT, .double?): return sqlite3_value_double(column)
        case (SQLITE_TEXT, .string?): return Self.text(of: column)
        case (SQLITE_NULL, _): if let nilValue = codec.nilValue { return nilValue }
        default: break
        }
        switch (type, codec.reading) {
        case (SQLITE_INTEGER, .integer(let read)): return try read(sqlite3_value_int64(column))
        case (SQLITE_FLOAT, .real(let read)): return try read(sqlite3_value_double(column))
        case (SQLITE_TEXT, .text(let read)): return try read(Self.text(of: column))
        case (SQLITE_BLOB, .blob(let read)): return try Self.bytes(of: column, read)
        // NULL, and storage classes the codec converts or refuses.
        default: return try codec.decode(StoredValue(Self.databaseValue(of: column)))
        }
    }

    /// Reads the current row's value at a column index into the model values' slot at
    /// `index`: an integer, real or text the codec takes as it is goes straight into its slot,
    /// anything else through ``value(at:as:)``.
    func read(at column: Int32, as codec: ValueCodec, into values: inout ModelValues, at index: Int) throws {
        let value = sqlite3_column_value(statement, column)
        switch (sqlite3_value_type(value), codec.identityType) {
        case (SQLITE_INTEGER, .int?): values.set(Int(sqlite3_value_int64(value)), at: index)
        case (SQLITE_FLOAT, .double?): values.set(sqlite3_value_double(value), at: index)
        case (SQLITE_TEXT, .string?): values.set(Self.text(of: value), at: index)
        case (SQLITE_BLOB, _) where codec.storage != .data && codec.storage != .uuid && Self.isUnfilledMarker(value):
            // A new attribute a migration's custom stage has yet to fill: no value.
            return
        default: values[index] = try self.value(at: column, as: codec)
        }
    }

    /// The current row's integer at a column index; `nil` when it holds another storage class.
    func integer(at index: Int32) -> Int64? {
        let value = sqlite3_column_value(statement, index)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    /// The current row's real at a column index; `nil` when it holds another storage class.
    func real(at index: Int32) -> Double? {
        let value = sqlite3_column_value(statement, index)
        return sqlite3_value_type(value) == SQLITE_FLOAT ? sqlite3_value_double(value) : nil
    }

    /// The current row's text at a column index; `nil` when it holds another storage class.
    func text(at index: Int32) -> String? {
        let value = sqlite3_column_value(statement, index)
        return sqlite3_value_type(value) == SQLITE_TEXT ? Self.text(of: value) : nil
    }

    /// The current row's UUID at a column index: a blob of 16 bytes; `nil` for anything else.
    func uuid(at index: Int32) -> UUID? {
        let value = sqlite3_column_value(statement, index)
        guard sqlite3_value_type(value) == SQLITE_BLOB else { return nil }
        return Self.bytes(of: value) { UUID(storedBytes: $0) }
    }

    /// Whether a value is `TableRestructuring.unfilledMarker`, the BLOB `X'00'`.
    private static func isUnfilledMarker(_ value: OpaquePointer?) -> Bool {
        sqlite3_value_bytes(value) == 1 && sqlite3_value_blob(value).load(as: UInt8.self) == 0
    }

    /// The current row's integer at a column index, or `nil` for `NULL`.
    func int64(at index: Int32) -> Int64? {
        let column = sqlite3_column_value(statement, index)
        return sqlite3_value_type(column) == SQLITE_NULL ? nil : sqlite3_value_int64(column)
    }

    private static func databaseValue(of column: OpaquePointer?) -> DatabaseValue {
        switch sqlite3_value_type(column) {
        case SQLITE_INTEGER: sqlite3_value_int64(column).databaseValue
        case SQLITE_FLOAT: sqlite3_value_double(column).databaseValue
        case SQLITE_TEXT: text(of: column).databaseValue
        case SQLITE_BLOB: bytes(of: column) { Data($0) }.databaseValue
        default: .null
        }
    }

    private static func text(of column: OpaquePointer?) -> String {
        let count = Int(sqlite3_value_bytes(column))
        guard let bytes = sqlite3_value_text(column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Calls `body` with a blob's bytes, valid only during the call.
    private static func bytes<R>(of column: OpaquePointer?, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let count = Int(sqlite3_value_bytes(column))
        return try body(UnsafeRawBufferPointer(start: sqlite3_value_blob(column), count: count))
    }

    private func bind(_ values: [DatabaseValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds a value to a parameter (1-based).
    func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value.storage {
        case .null: code = sqlite3_bind_null(statement, index)
        case .int64(let int): code = sqlite3_bind_int64(statement, index, int)
        case .double(let double): code = sqlite3_bind_double(statement, index, double)
        case .string(let string): code = bind(text: string, at: index)
        case .blob(let data): code = bind(data, at: index)
        }
        guard code == SQLITE_OK else { throw Self.error(code, db, sql) }
    }

    /// Binds a model's value, a slot of its backing data (``ModelState/noValue``: none), to a
    /// parameter (1-based), written as `codec` says, with the C call for its storage class.
    ///
    /// The slot is never copied into an `Optional`: a bulk insert binds every property of every
    /// model here, and copying an `Any?` costs more than binding an integer.
    func bind(_ slot: Any, as codec: ValueCodec, at index: Int32) throws {
        let code: Int32
        if !ModelState.holdsValue(slot) {
            code = sqlite3_bind_null(statement, index)
        } else if !codec.isOptional {
            code = try bind(present: slot, as: codec, at: index)
        } else if let value = codec.unwrapped(slot) {
            code = try bind(present: value, as: codec, at: index)
        } else {
            code = sqlite3_bind_null(statement, index)
        }
        guard code == SQLITE_OK else { throw Self.error(code, db, sql) }
    }

    /// Binds the value in the slot at `slot` of `values` straight from where it lies when the
    /// slot holds an `Int`, `Double` or `String` that `codec` writes as itself; `false`, binding
    /// nothing, otherwise (``bind(_:as:at:)`` then binds it boxed).
    func bind(slot: Int, of values: ModelValues, as codec: ValueCodec, at index: Int32) throws -> Bool {
        let code: Int32
        switch codec.identityType {
        case .int?:
            guard let value = values.slot(at: slot, holding: Int.self) else { return false }
            code = sqlite3_bind_int64(statement, index, Int64(value.load(as: Int.self)))
        case .double?:
            // A NaN goes the boxed way, which refuses it with the property's name.
            guard let value = values.slot(at: slot, holding: Double.self), !value.load(as: Double.self).isNaN else {
                return false
            }
            code = sqlite3_bind_double(statement, index, value.load(as: Double.self))
        case .string?:
            guard let value = values.slot(at: slot, holding: String.self) else { return false }
            code = bind(text: value.assumingMemoryBound(to: String.self).pointee, at: index)
        default:
            return false
        }
        guard code == SQLITE_OK else { throw Self.error(code, db, sql) }
        return true
    }

    /// Binds a value of `codec`'s type (not `nil`); returns SQLite's result code.
    private func bind(present value: Any, as codec: ValueCodec, at index: Int32) throws -> Int32 {
        switch (codec.identityType, codec.writing) {
        case (.int?, _): sqlite3_bind_int64(statement, index, Int64(unbox(value, as: Int.self)))
        case (.double?, _): try bind(real: unbox(value, as: Double.self), at: index)
        case (.string?, _): bind(text: unbox(value, as: String.self), at: index)
        case (nil, .integer(let write)): sqlite3_bind_int64(statement, index, try write(value))
        case (nil, .real(let write)): try bind(real: try write(value), at: index)
        case (nil, .text(let write)): bind(text: try write(value), at: index)
        case (nil, .blob(let write)): bind(try write(value), at: index)
        }
    }

    /// Binds a model's floating-point value, refusing NaN: SQLite stores a NaN as NULL, so it
    /// would read back as `nil` (or fail a non-optional column's NOT NULL).
    private func bind(real: Double, at index: Int32) throws -> Int32 {
        if real.isNaN { throw ValueCodecError.notANumber }
        return sqlite3_bind_double(statement, index, real)
    }

    /// Binds text with its length in bytes: SQLite then neither measures it nor stops at a NUL
    /// character inside it, and a short string is not copied to the heap to make a C string.
    private func bind(text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { utf8 in
            let (bytes, destructor) = place(UnsafeRawBufferPointer(utf8), for: index)
            return sqlite3_bind_text(statement, index, bytes.assumingMemoryBound(to: CChar.self), Int32(utf8.count), destructor)
        }
    }

    private func bind(_ data: Data, at index: Int32) -> Int32 {
        data.withUnsafeBytes { bytes in
            let (bytes, destructor) = place(bytes, for: index)
            return sqlite3_bind_blob(statement, index, bytes, Int32(data.count), destructor)
        }
    }

    /// Where the bytes bound to parameter `index` are read from, and whether SQLite copies
    /// them: the first value bound to a parameter is copied by SQLite (a statement bound once,
    /// a save of one model, needs no room of its own); later ones are copied into the room kept
    /// for it (``parameterBytes``), grown when they do not fit, and not copied again. Never a
    /// null address, even for no bytes: SQLite binds one as `NULL`, not as empty text or an
    /// empty blob.
    private func place(
        _ bytes: UnsafeRawBufferPointer, for index: Int32
    ) -> (UnsafeRawPointer, sqlite3_destructor_type?) {
        let slot = Int(index) - 1
        guard slot < UInt64.bitWidth, boundOnce & (1 << slot) != 0 else {
            if slot < UInt64.bitWidth { boundOnce |= 1 << slot }
            return (bytes.baseAddress ?? Self.noBytes, Self.transient)
        }
        if parameterBytes.count <= slot {
            // Room for every parameter at once; one out of range gets room too, and SQLite's error.
            let count = max(Int(sqlite3_bind_parameter_count(statement)), slot + 1)
            parameterBytes += repeatElement(UnsafeMutableRawBufferPointer(start: nil, count: 0), count: count - parameterBytes.count)
        }
        var room = parameterBytes[slot]
        if room.count < max(bytes.count, 1) {
            room.deallocate()
            room = .allocate(byteCount: max(bytes.count, 2 * room.count, 32), alignment: 16)
            parameterBytes[slot] = room
        }
        if let source = bytes.baseAddress { room.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
        // `nil` is SQLITE_STATIC: the bytes stay where they are while SQLite needs them.
        return (UnsafeRawPointer(room.baseAddress!), nil)
    }

    /// Tells SQLite to copy bound text and blobs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// A non-null address for an empty value SQLite copies (none of its bytes are read).
    private static var noBytes: UnsafeRawPointer { UnsafeRawPointer(("" as StaticString).utf8Start) }

    private static func error(_ code: Int32, _ db: Database, _ sql: String) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) },
            sql: sql)
    }
}
