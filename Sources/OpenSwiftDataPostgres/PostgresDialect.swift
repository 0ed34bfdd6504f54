import OpenSwiftData

/// PostgreSQL's spelling of the Query layer's SQL: names quoted and, past 63 bytes, shortened
/// as the tables were created (``PostgresNames``); `$n` placeholders cast to the column's type
/// (a `Bool` bound as `boolean`, a `UUID` as `uuid`); `NULL` ordered first ascending and last
/// descending, as Swift orders `nil` (PostgreSQL's own default is the reverse).
///
/// Of OpenSwiftData's functions it computes those SQL answers exactly (arrays' membership and
/// length, bytes' containment); a query calling another, or a collation, is answered by the
/// context with Swift (``PostgresStore/canRun(_:)``), on the rows the dialect narrows the string
/// tests to (``superset(of:_:)``) where it can.
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
        // jsonb_build_array is only stable, so PostgreSQL would build the array again for each
        // row; as a subquery of its own (an InitPlan) it is built once.
        case .arrayContains: "(\(arguments[0]) @> (SELECT jsonb_build_array(\(arguments[1]))))"
        case .arrayCount: "jsonb_array_length(\(arguments[0]))"
        case .containsBytes: "(position(\(arguments[1]) in \(arguments[0])) > 0)"
        // PostgreSQL computes NaN (and compares it above every number, equal to itself);
        // Swift's comparisons with NaN are false but `!=`, which the translator gives for NULL.
        case .nanAsNull: "NULLIF((\(arguments[0]))::float8, 'NaN'::float8)"
        case .realDivide: Self.swiftDivision(arguments[0], arguments[1])
        case .roundToFloat: Self.roundedToFloat(arguments[0])
        default: nil
        }
    }

    /// `a / b` for doubles as Swift divides: PostgreSQL's `/` refuses a zero divisor, where
    /// Swift gives NaN (for a zero or NaN dividend) or an infinity signed by both operands (a
    /// zero's sign shows in its text, "-0").
    static func swiftDivision(_ a: String, _ b: String) -> String {
        "(CASE WHEN (\(a)) IS NULL OR (\(b)) IS NULL THEN NULL WHEN (\(b)) <> 0 THEN (\(a))::float8 / (\(b)) WHEN (\(a)) = 0 OR (\(a)) = 'NaN'::float8 THEN 'NaN'::float8 WHEN ((\(a)) > 0) = ((\(b))::float8::text <> '-0') THEN 'Infinity'::float8 ELSE '-Infinity'::float8 END)"
    }

    /// `x` rounded to a `Float` as Swift rounds (to nearest, ties to even): PostgreSQL's cast
    /// to `real` rounds so, but refuses what rounds to an infinity or to zero, so magnitudes
    /// from halfway above `Float`'s largest (2¹²⁸ − 2¹⁰³) and up to half its least (2⁻¹⁵⁰) are
    /// given their signed infinity and zero here.
    static func roundedToFloat(_ x: String) -> String {
        let y = "(\(x))::float8"
        return "(CASE WHEN \(y) IS NULL OR \(y) = 'NaN'::float8 THEN \(y) WHEN abs(\(y)) >= 3.4028235677973366e+38::float8 THEN sign(\(y)) * 'Infinity'::float8 WHEN abs(\(y)) <= 7.006492321624085e-46::float8 THEN sign(\(y)) * 0::float8 ELSE \(y)::real::float8 END)"
    }

    func collated(_ expression: String, by collation: SQLCollation) -> String? {
        switch collation {
        // Swift orders strings by the Unicode scalars of their NFC form (canonically equivalent
        // strings are equal); UTF-8 bytes in "C" order are scalar order.
        case .stringOrder: Self.nfcScalarOrder(expression)
        // Foundation's `.lexical` is String's order where Foundation is open source; Apple's
        // compares otherwise, and is answered in memory there.
        case .lexical:
            #if canImport(Darwin)
            nil
            #else
            Self.nfcScalarOrder(expression)
            #endif
        case .localizedStandard, .localized: nil
        }
    }

    /// A string ordered by its NFC form's scalars. A string in NFC (any ASCII one, found by
    /// its length alone) is its own key: skipping `normalize` for those cuts the key's cost to
    /// a third.
    static func nfcScalarOrder(_ expression: String) -> String {
        "(CASE WHEN octet_length(\(expression)) = char_length(\(expression)) OR \(expression) IS NFC NORMALIZED THEN \(expression) ELSE normalize(\(expression), NFC) END) COLLATE \"C\""
    }

    func order(ascending: Bool) -> String {
        ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
    }

    // Narrowing the string tests Swift decides (its Characters, its case and diacritic folding,
    // its Character count).
    //
    // Where both strings are plain (``PlainText``), bytes decide Character matches exactly: the
    // certain part of `contains` and `starts(with:)`. Beyond, a run of Characters equal to
    // another by canonical equivalence has the same NFD form, and NFD forms concatenate at
    // Character boundaries, so a Character match is a match of NFD bytes: their superset.
    // localizedStandardContains folds case and diacritics (and ß to "ss"), which bytes decide
    // only where both strings are ASCII without a carriage return; beyond, its superset keeps
    // the row.
    //
    // A string has at most as many Characters as scalars (`char_length`), at least one when it
    // is not empty, and exactly as many when it is plain.
    //
    // What depends on the searched-for string alone is a subquery of its own (an InitPlan),
    // computed once: a cursor's statement is planned with its parameters unknown, and would
    // otherwise lower-case, normalize and check the parameter again for every row.

    func superset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment? {
        guard arguments.count == 2 else { return nil }
        let (s, t) = (arguments[0], arguments[1])
        // (Only a string beyond ASCII reaches the plainness check here: its pattern alone decides.)
        let plain: SQLFragment = "(SELECT \(PlainText.test(t))) AND \(s) ~ '\(raw: PlainText.pattern)'"
        // The byte test first: PostgreSQL evaluates AND and OR left to right, and most rows
        // are decided by it before the plainness checks run.
        switch function {
        // An ASCII string matches by bytes whatever else it holds (a carriage return only
        // makes Swift's answer narrower), once the searched-for string is in NFD (a Kelvin
        // sign is canonically "K"): only strings beyond ASCII need the plainness check.
        // A row without the prefix (hasPrunablePrefix) is decided by that one byte search.
        case .containsCharacters:
            return "((NOT \(Self.hasPrunablePrefix(t)) OR strpos(\(s), (SELECT left(\(t), -1))) > 0) AND (strpos(\(s), \(t)) > 0 OR ((SELECT \(t) IS NOT NFD NORMALIZED) AND strpos(\(s), (SELECT normalize(\(t), NFD))) > 0) OR (\(Self.isBeyondASCII(s)) AND NOT (\(plain)) AND strpos(normalize(\(s), NFD), (SELECT normalize(\(t), NFD))) > 0)))"
        case .startsWithCharacters:
            return "((NOT \(Self.hasPrunablePrefix(t)) OR starts_with(\(s), (SELECT left(\(t), -1)))) AND (starts_with(\(s), \(t)) OR ((SELECT \(t) IS NOT NFD NORMALIZED) AND starts_with(\(s), (SELECT normalize(\(t), NFD)))) OR (\(Self.isBeyondASCII(s)) AND NOT (\(plain)) AND starts_with(normalize(\(s), NFD), (SELECT normalize(\(t), NFD))))))"
        case .localizedStandardContains:
            // The folding last: a row beyond ASCII is a candidate without it.
            return "(\(Self.isBeyondASCII(s)) OR NOT \(Self.isSearchableASCII(t)) OR \(Self.asciiFoldedContains(s, t)))"
        case .characterCountAtLeast:
            return "(char_length(\(s)) >= \(t))"
        case .characterCountAtMost:
            return "(char_length(\(s)) <= \(t) OR (\(t) >= 1 AND NOT \(PlainText.test(s))))"
        default:
            return nil
        }
    }

    func subset(of function: SQLFunction, _ arguments: [SQLFragment]) -> SQLFragment? {
        guard arguments.count == 2 else { return nil }
        let (s, t) = (arguments[0], arguments[1])
        let plain: SQLFragment = "(SELECT \(PlainText.test(t))) AND \(PlainText.test(s))"
        switch function {
        case .containsCharacters: return "(strpos(\(s), \(t)) > 0 AND \(plain))"
        case .startsWithCharacters: return "(starts_with(\(s), \(t)) AND \(plain))"
        case .localizedStandardContains:
            return "(\(Self.asciiFoldedContains(s, t)) AND \(Self.isPlainASCII(s)) AND \(Self.isSearchableASCII(t)))"
        case .characterCountAtLeast:
            return "(\(t) <= 0 OR (\(t) = 1 AND \(s) <> '') OR (char_length(\(s)) >= \(t) AND \(PlainText.test(s))))"
        case .characterCountAtMost:
            return "(char_length(\(s)) <= \(t))"
        default: return nil
        }
    }

    /// Whether a searched-for string is ASCII, two characters or more, without "K", ";" or "`"
    /// (computed once). Then a string whose NFD form holds it holds all but its last character
    /// as bytes: every ASCII scalar of an NFD form but the last is a character's whole form
    /// (no canonical decomposition holds two starters but Hangul's, which are not ASCII), and
    /// only the Kelvin sign, U+037E and U+1FEF decompose to a lone ASCII scalar (those three).
    /// A row without that prefix skips the costlier checks.
    static func hasPrunablePrefix(_ string: SQLFragment) -> SQLFragment {
        "(SELECT octet_length(\(string)) = char_length(\(string)) AND char_length(\(string)) >= 2 AND strpos(\(string), 'K') = 0 AND strpos(\(string), ';') = 0 AND strpos(\(string), '`') = 0)"
    }

    /// Whether a string holds a scalar beyond ASCII (more bytes than characters).
    private static func isBeyondASCII(_ string: SQLFragment) -> SQLFragment {
        "octet_length(\(string)) <> char_length(\(string))"
    }

    /// Whether a string is ASCII without a carriage return: one Character a byte.
    private static func isPlainASCII(_ string: SQLFragment) -> SQLFragment {
        "(octet_length(\(string)) = char_length(\(string)) AND strpos(\(string), chr(13)) = 0)"
    }

    /// Whether a searched-for string is plain ASCII and not empty, computed once.
    private static func isSearchableASCII(_ string: SQLFragment) -> SQLFragment {
        "(SELECT \(isPlainASCII(string)) AND \(string) <> '')"
    }

    /// Whether ASCII `s` contains ASCII `t`, letters compared without case (`lower` under the
    /// "C" collation folds ASCII letters only, whatever the database's locale).
    private static func asciiFoldedContains(_ s: SQLFragment, _ t: SQLFragment) -> SQLFragment {
        "strpos(lower(\(s) COLLATE \"C\"), (SELECT lower(\(t) COLLATE \"C\"))) > 0"
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
