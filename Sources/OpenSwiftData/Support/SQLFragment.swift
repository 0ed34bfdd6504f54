import GRDB

/// A piece of SQL with its bound arguments, never spliced values.
///
/// Every `?` in `sql` has one element of `arguments`, in the order the placeholders appear, so
/// fragments compose by concatenation: the arguments of the pieces are appended in the order
/// their text is. String interpolation does the bookkeeping:
///
/// ```swift
/// let title: SQLFragment = #""title""#
/// let needle = SQLFragment("?", ["Toy".databaseValue])
/// let fragment: SQLFragment = "instr(\(title), \(needle)) > 0"
/// // fragment.sql == #"instr("title", ?) > 0"#, fragment.arguments == ["Toy"]
/// ```
struct SQLFragment: Hashable, Sendable {
    var sql: String
    var arguments: [DatabaseValue]

    init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.init(sql: sql, arguments: arguments)
    }

    /// A single `?` placeholder bound to `value`.
    static func argument(_ value: DatabaseValue) -> SQLFragment {
        SQLFragment("?", [value])
    }

    /// The fragments separated by `separator`, arguments kept in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += fragment.sql
            result.arguments += fragment.arguments
        }
        return result
    }

    /// A condition every one of `conditions` holds for; `nil` (no condition) when none is given.
    static func allOf(_ conditions: [SQLFragment?]) -> SQLFragment? {
        let given = conditions.compactMap { $0 }
        guard given.count > 1 else { return given.first }
        return joined(given.map { "(\($0))" }, separator: " AND ")
    }

    /// A condition holding for the rows `condition` does not select (`nil`: every row, so none
    /// is left). `WHERE` does not select a row whose condition is `NULL`, so that row stays.
    static func excluding(_ condition: SQLFragment?) -> SQLFragment {
        guard let condition else { return "0" }
        return "NOT coalesce((\(condition)), 0)"
    }

    /// GRDB's form of `arguments`, for running the fragment.
    var statementArguments: StatementArguments {
        StatementArguments(arguments)
    }
}

extension SQLFragment: ExpressibleByStringInterpolation {
    init(stringLiteral value: String) {
        self.init(value)
    }

    init(stringInterpolation: Interpolation) {
        self = stringInterpolation.fragment
    }

    /// Literal text is SQL; an interpolated ``SQLFragment`` brings its arguments along.
    struct Interpolation: StringInterpolationProtocol {
        var fragment = SQLFragment("")

        init(literalCapacity: Int, interpolationCount: Int) {
            fragment.sql.reserveCapacity(literalCapacity)
        }

        mutating func appendLiteral(_ literal: String) {
            fragment.sql += literal
        }

        mutating func appendInterpolation(_ other: SQLFragment) {
            fragment.sql += other.sql
            fragment.arguments += other.arguments
        }
    }
}

extension SQLFragment: CustomStringConvertible {
    /// The SQL followed by its arguments, for error messages and debugging.
    var description: String {
        arguments.isEmpty ? sql : "\(sql) with arguments \(arguments)"
    }
}
