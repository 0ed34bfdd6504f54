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
        let name: String
        switch function {
        case .condition: return arguments[0]
        // SQLite's arithmetic gives NULL for a NaN already.
        case .nanAsNull: return arguments[0]
        case .containsBytes: return "(instr(\(arguments[0]), \(arguments[1])) > 0)"
        case .arrayContains:
            return "(EXISTS (SELECT 1 FROM json_each(\(arguments[0])) AS \"$e\" WHERE \"$e\".value = \(arguments[1])))"
        case .arrayCount: name = "json_array_length"
        case .characterCountAtLeast: return "(\(SQLiteFunctions.characterCount)(\(arguments[0])) >= \(arguments[1]))"
        case .characterCountAtMost: return "(\(SQLiteFunctions.characterCount)(\(arguments[0])) <= \(arguments[1]))"
        case .unwrap: name = SQLiteFunctions.unwrap
        case .invalidRange: name = SQLiteFunctions.invalidRange
        case .roundToFloat: name = SQLiteFunctions.roundToFloat
        case .realDivide: name = SQLiteFunctions.realDivide
        case .characterCount: name = SQLiteFunctions.characterCount
        case .containsCharacters: name = CharacterSubstringFunctions.contains
        case .startsWithCharacters: name = CharacterSubstringFunctions.startsWith
        case .localizedStandardContains: name = SQLiteFunctions.localizedStandardContainsFunction
        case .localizedCompare: name = SQLiteFunctions.localizedCompareFunction
        case .caseInsensitiveCompare: name = SQLiteFunctions.caseInsensitiveCompareFunction
        case .decimalAdd: name = DecimalFunctions.add
        case .decimalSubtract: name = DecimalFunctions.subtract
        case .decimalMultiply: name = DecimalFunctions.multiply
        case .decimalNegate: name = DecimalFunctions.negate
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }

    func collated(_ expression: String, by collation: SQLCollation) -> String? {
        let name = switch collation {
        case .stringOrder: SQLiteFunctions.stringOrderCollation
        case .lexical: SQLiteFunctions.lexicalCollation
        case .localizedStandard: SQLiteFunctions.localizedStandardCollation
        case .localized: SQLiteFunctions.localizedCollation
        }
        return "\(expression) COLLATE \(name)"
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
