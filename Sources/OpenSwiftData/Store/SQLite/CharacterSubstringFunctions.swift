import Foundation
import GRDB
import GRDBSQLite

/// `osd_contains(s, t)` and `osd_starts_with(s, t)`: `s.contains(t)` and `s.starts(with: t)` as
/// `Predicate.evaluate` computes them, over Swift's `Character`s — so "👍" is not found in
/// "👍🏽", "e" not in a decomposed "é", and a precomposed "é" is found in a decomposed one.
///
/// Both are called through SQLite's C interface, reading the arguments' bytes where SQLite
/// keeps them: a search over a whole table calls them once per row. When both strings are
/// ASCII and the text searched has no carriage return (the one ASCII pair, "\r\n", that is a
/// single `Character`), bytes and `Character`s agree, and the bytes are compared as they are;
/// anything else is compared as Swift strings.
enum CharacterSubstringFunctions {
    static let contains = "osd_contains"
    static let startsWith = "osd_starts_with"

    static func install(in db: Database) {
        register(contains, in: db) { text, part in
            guard isByteComparable(text, part) else {
                return containsCharacters(String(decoding: text, as: UTF8.self), String(decoding: part, as: UTF8.self))
            }
            return containsBytes(text, part)
        }
        register(startsWith, in: db) { text, prefix in
            guard isByteComparable(text, prefix) else {
                return startsWithCharacters(String(decoding: text, as: UTF8.self), String(decoding: prefix, as: UTF8.self))
            }
            if prefix.isEmpty { return true }
            return prefix.count <= text.count && memcmp(text.baseAddress!, prefix.baseAddress!, prefix.count) == 0
        }
    }

    /// `text.contains(part)` on `Character`s, through the same generic `Collection` search that
    /// `PredicateExpressions.CollectionContainsCollection` runs.
    static func containsCharacters<C: Collection>(_ text: C, _ part: C) -> Bool where C.Element: Equatable {
        text.contains(part)
    }

    /// `text.starts(with: prefix)` on `Character`s, as `PredicateExpressions.SequenceStartsWith`
    /// runs it.
    static func startsWithCharacters<C: Collection>(_ text: C, _ prefix: C) -> Bool where C.Element: Equatable {
        text.starts(with: prefix)
    }

    /// Whether comparing bytes gives the `Character` answer: both ASCII, no "\r" in the text.
    private static func isByteComparable(_ text: UnsafeRawBufferPointer, _ part: UnsafeRawBufferPointer) -> Bool {
        for byte in part where byte >= 0x80 { return false }
        for byte in text where byte >= 0x80 || byte == 0x0D { return false }
        return true
    }

    private static func containsBytes(_ text: UnsafeRawBufferPointer, _ part: UnsafeRawBufferPointer) -> Bool {
        if part.isEmpty { return true }
        guard part.count <= text.count, let start = text.baseAddress, let needle = part.baseAddress else { return false }
        let first = Int32(part[0])
        var offset = 0
        let lastStart = text.count - part.count
        while offset <= lastStart {
            guard let found = memchr(start + offset, first, lastStart - offset + 1) else { return false }
            let position = start.distance(to: UnsafeRawPointer(found))
            if memcmp(found, needle, part.count) == 0 { return true }
            offset = position + 1
        }
        return false
    }

    /// A two-argument function of texts, NULL when either is NULL, returning 0 or 1.
    private static func register(
        _ name: String, in db: Database, _ body: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        sqlite3_create_function_v2(
            db.sqliteConnection, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, _, arguments in
                guard let arguments, let text = arguments[0], let other = arguments[1],
                      sqlite3_value_type(text) != SQLITE_NULL, sqlite3_value_type(other) != SQLITE_NULL
                else {
                    sqlite3_result_null(context)
                    return
                }
                let body = Unmanaged<Body>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue().body
                let found = body(CharacterSubstringFunctions.bytes(of: text), CharacterSubstringFunctions.bytes(of: other))
                sqlite3_result_int(context, found ? 1 : 0)
            },
            nil, nil,
            { box in box.map { Unmanaged<Body>.fromOpaque($0).release() } })
    }

    /// The UTF-8 bytes of a value, as SQLite holds them.
    private static func bytes(of value: OpaquePointer) -> UnsafeRawBufferPointer {
        // The text first: asking for it may convert the value, which changes its byte count.
        let text = sqlite3_value_text(value)
        return UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_value_bytes(value)))
    }

    private final class Body {
        let body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
        init(_ body: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool) { self.body = body }
    }
}
