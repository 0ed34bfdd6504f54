import OpenSwiftData

/// PostgreSQL's spelling of the Query layer's SQL: names quoted and, past 63 bytes, shortened
/// as the tables were created (``PostgresNames``); `$n` placeholders cast to the column's type
/// (a `Bool` bound as `boolean`, a `UUID` as `uuid`); `NULL` ordered first ascending and last
/// descending, as Swift orders `nil` (PostgreSQL's own default is the reverse).
///
/// Of OpenSwiftData's functions it computes those SQL answers exactly (arrays' membership and
/// length, bytes' containment); a query calling another, or a collation, is answered in memory
/// by the context (``PostgresStore/canRun(_:)``).
struct PostgresDialect: SQLDialect {
    func identifier(_ name: String) -> String {
        PostgresNames.quoted(name)
    }

    func placeholder(_ number: Int, storage: StorageType?) -> String {
        storage.map { PostgresValues.placeholder(number, for: $0) } ?? "$\(number)"
    }

    func call(_ function: SQLFunction, _ arguments: [String]) -> String? {
        switch function {
        // A stored array is `jsonb`: containment and length are exact there (elements compared
        // as JSON values, strings byte by byte, as SQLite's `json_each` compares them).
        case .arrayContains: "(\(arguments[0]) @> jsonb_build_array(\(arguments[1])))"
        case .arrayCount: "jsonb_array_length(\(arguments[0]))"
        case .containsBytes: "(position(\(arguments[1]) in \(arguments[0])) > 0)"
        default: nil
        }
    }

    func collated(_ expression: String, by collation: SQLCollation) -> String? {
        switch collation {
        // Swift orders strings by the Unicode scalars of their NFC form (canonically equivalent
        // strings are equal); UTF-8 bytes in "C" order are scalar order.
        case .stringOrder: "normalize(\(expression), NFC) COLLATE \"C\""
        // Foundation's `.lexical` is String's order where Foundation is open source; Apple's
        // compares otherwise, and is answered in memory there.
        case .lexical:
            #if canImport(Darwin)
            nil
            #else
            "normalize(\(expression), NFC) COLLATE \"C\""
            #endif
        case .localizedStandard, .localized: nil
        }
    }

    func order(ascending: Bool) -> String {
        ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
    }
}

extension TableLayout {
    /// The table's name as PostgreSQL statements name it: quoted, and shortened past 63 bytes.
    /// Every statement naming the table uses this, so each finds the table that was created.
    var postgresName: String {
        PostgresNames.quoted(storedName)
    }

    /// The key column, qualified with ``postgresName``.
    var postgresKeyColumn: String {
        "\(postgresName).\(PostgresNames.quoted(Self.primaryKeyColumn))"
    }
}
