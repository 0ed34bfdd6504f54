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
package struct SQLFragment: Hashable, Sendable {
    package var sql: String
    package var arguments: [DatabaseValue]
    /// For each argument, how the column it is compared with stores values, when a column's
    /// codec encoded it: a database with typed columns binds it as that type (a `Bool` as a
    /// boolean, not the integer SQLite keeps). `nil` for an argument of no column's type.
    package var argumentStorage: [StorageType?]

    init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
        argumentStorage = Array(repeating: nil, count: arguments.count)
    }

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.init(sql: sql, arguments: arguments)
    }

    /// A single `?` placeholder bound to `value`.
    static func argument(_ value: DatabaseValue, storage: StorageType? = nil) -> SQLFragment {
        var fragment = SQLFragment("?", [value])
        fragment.argumentStorage = [storage]
        return fragment
    }

    /// The fragments separated by `separator`, arguments kept in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += fragment.sql
            result.arguments += fragment.arguments
            result.argumentStorage += fragment.argumentStorage
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
        guard let condition else { return "FALSE" }
        return "NOT coalesce((\(condition)), FALSE)"
    }

    /// The arguments as stored values, for a database other than SQLite.
    package var storedArguments: [StoredValue] {
        arguments.map(StoredValue.init)
    }

    /// GRDB's form of `arguments`, for running the fragment.
    var statementArguments: StatementArguments {
        StatementArguments(arguments)
    }
}

extension SQLFragment: ExpressibleByStringInterpolation {
    package init(stringLiteral value: String) {
        self.init(value)
    }

    package init(stringInterpolation: Interpolation) {
        self = stringInterpolation.fragment
    }

    /// Literal text is SQL; an interpolated ``SQLFragment`` brings its arguments along.
    package struct Interpolation: StringInterpolationProtocol {
        var fragment = SQLFragment("")

        package init(literalCapacity: Int, interpolationCount: Int) {
            fragment.sql.reserveCapacity(literalCapacity)
        }

        package mutating func appendLiteral(_ literal: String) {
            fragment.sql += literal
        }

        package mutating func appendInterpolation(_ other: SQLFragment) {
            fragment.sql += other.sql
            fragment.arguments += other.arguments
            fragment.argumentStorage += other.argumentStorage
        }
    }
}

extension SQLFragment: CustomStringConvertible {
    /// The SQL followed by its arguments, for error messages and debugging.
    package var description: String {
        arguments.isEmpty ? sql : "\(sql) with arguments \(arguments)"
    }
}
