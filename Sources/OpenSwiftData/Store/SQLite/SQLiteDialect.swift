import GRDB

/// SQLite's spelling of the Query layer's SQL: `"quoted"` names of any length, `?`
/// placeholders, OpenSwiftData's own functions and collations (``SQLiteFunctions``), and
/// SQLite's JSON functions for values stored as JSON arrays. SQLite sorts `NULL` first
/// ascending, as Swift sorts `nil`.
struct SQLiteDialect: SQLDialect {
    func identifier(_ name: String) -> String {
        name.quotedDatabaseIdentifier
    }

    func placeholder(_ number: Int, storage: StorageType?) -> String {
        "?"
    }

    func call(_ function: SQLFunction, _ arguments: [String]) -> String? {
        switch function {
        case .containsBytes: return "(instr(\(arguments[0]), \(arguments[1])) > 0)"
        case .arrayContains:
            return "(EXISTS (SELECT 1 FROM json_each(\(arguments[0])) AS \"$e\" WHERE \"$e\".value = \(arguments[1])))"
        default: return "\(name(of: function))(\(arguments.joined(separator: ", ")))"
        }
    }

    /// The name of the function an SQLite connection computes `function` with.
    private func name(of function: SQLFunction) -> String {
        switch function {
        case .unwrap: SQLiteFunctions.unwrap
        case .invalidRange: SQLiteFunctions.invalidRange
        case .roundToFloat: SQLiteFunctions.roundToFloat
        case .realDivide: SQLiteFunctions.realDivide
        case .characterCount: SQLiteFunctions.characterCount
        case .containsCharacters: CharacterSubstringFunctions.contains
        case .startsWithCharacters: CharacterSubstringFunctions.startsWith
        case .localizedStandardContains: SQLiteFunctions.localizedStandardContainsFunction
        case .localizedCompare: SQLiteFunctions.localizedCompareFunction
        case .caseInsensitiveCompare: SQLiteFunctions.caseInsensitiveCompareFunction
        case .decimalAdd: DecimalFunctions.add
        case .decimalSubtract: DecimalFunctions.subtract
        case .decimalMultiply: DecimalFunctions.multiply
        case .decimalNegate: DecimalFunctions.negate
        case .arrayCount: "json_array_length"
        case .containsBytes: "instr"
        case .arrayContains: "json_each"
        }
    }

    func collation(_ collation: SQLCollation) -> String? {
        switch collation {
        case .stringOrder: SQLiteFunctions.stringOrderCollation
        case .lexical: SQLiteFunctions.lexicalCollation
        case .localizedStandard: SQLiteFunctions.localizedStandardCollation
        case .localized: SQLiteFunctions.localizedCollation
        }
    }

    func order(ascending: Bool) -> String {
        ascending ? "ASC" : "DESC"
    }
}

extension SQLFragment {
    /// The fragment's SQL as an SQLite store runs it: every function and collation it calls is
    /// one an SQLite connection has.
    var sqlite: String {
        rendered(in: SQLiteDialect())!
    }

    /// GRDB's form of the arguments, for running ``sqlite``.
    var statementArguments: StatementArguments {
        StatementArguments(arguments.map(\.databaseValue))
    }

    /// The arguments as GRDB's values.
    var databaseValues: [DatabaseValue] {
        arguments.map(\.databaseValue)
    }
}
