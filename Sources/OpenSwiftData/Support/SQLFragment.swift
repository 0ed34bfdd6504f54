/// A piece of SQL as parts every store renders in its own dialect: text all of them read alike,
/// names, bound values, and the functions, collations and orderings that differ per database.
///
/// Values are bound, never spliced, and names are never hidden in text: a store renders each
/// name, placeholder, function and ordering itself (``SQLDialect``), so no SQL is re-read to
/// change dialects. Fragments compose by concatenation, and string interpolation does it:
///
/// ```swift
/// let title: SQLFragment = "\(identifier: "Film").\(identifier: "title")"
/// let fragment = SQLFragment.call(.containsCharacters, title, .argument(.text("Toy")))
/// // SQLite: osd_contains("Film"."title", ?) with the argument "Toy"
/// ```
package struct SQLFragment: Hashable, Sendable {
    package enum Part: Hashable, Sendable {
        /// SQL every store reads alike: keywords, operators, literals.
        case text(String)
        /// A table, column or alias name, which the store quotes (and shortens where its names
        /// are limited).
        case identifier(String)
        /// A bound value, with how the column it is compared with stores values when a column's
        /// codec encoded it (a store with typed columns binds it as that type).
        case argument(StoredValue, storage: StorageType?)
        /// An operation each store computes its own way, over its arguments.
        indirect case call(SQLFunction, [SQLFragment])
        /// A call of a function giving a `Bool`, standing where the condition's truth follows
        /// its own as `polarity` says: what lets a store that lacks the function narrow the
        /// condition instead (``SQLFragment/narrowed(in:toward:)``).
        indirect case test(SQLFunction, [SQLFragment], SQLPolarity)
        /// An expression ordered by a string ordering each store implements its own way (a
        /// collation, or an expression the store orders bytewise).
        indirect case collated(SQLFragment, SQLCollation)
        /// `ASC` or `DESC`, with `nil` ordered first as Swift orders it.
        case order(ascending: Bool)
    }

    package private(set) var parts: [Part]

    init(parts: [Part]) {
        self.parts = parts
    }

    /// Text every store reads alike, with no names, values or functions in it.
    init(_ text: String) {
        parts = text.isEmpty ? [] : [.text(text)]
    }

    /// A single placeholder bound to `value`.
    package static func argument(_ value: StoredValue, storage: StorageType? = nil) -> SQLFragment {
        SQLFragment(parts: [.argument(value, storage: storage)])
    }

    /// `function` over `arguments`, as each store computes it.
    package static func call(_ function: SQLFunction, _ arguments: SQLFragment...) -> SQLFragment {
        SQLFragment(parts: [.call(function, arguments)])
    }

    /// `function` over `arguments`, a test whose truth the enclosing condition's follows as
    /// `polarity` says.
    package static func test(_ function: SQLFunction, _ arguments: SQLFragment..., polarity: SQLPolarity) -> SQLFragment {
        SQLFragment(parts: [.test(function, arguments, polarity)])
    }

    /// A name, quoted as the store quotes names.
    package static func identifier(_ name: String) -> SQLFragment {
        SQLFragment(parts: [.identifier(name)])
    }

    /// `table.column`.
    package static func column(_ column: String, of table: String) -> SQLFragment {
        SQLFragment(parts: [.identifier(table), .text("."), .identifier(column)])
    }

    /// The fragments separated by `separator`, arguments kept in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment(parts: [])
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.parts.append(.text(separator)) }
            result.parts += fragment.parts
        }
        return result
    }

    /// `a, b, …`: the values as placeholders, for an `IN` list.
    package static func list(_ values: [StoredValue]) -> SQLFragment {
        joined(values.map { argument($0) }, separator: ", ")
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

    /// The bound values with their columns' storage, in the order their placeholders are
    /// numbered (a call's arguments in order, wherever its store places them).
    package var boundValues: [(value: StoredValue, storage: StorageType?)] {
        parts.flatMap { part -> [(value: StoredValue, storage: StorageType?)] in
            switch part {
            case .argument(let value, let storage): [(value, storage)]
            case .call(_, let arguments), .test(_, let arguments, _): arguments.flatMap(\.boundValues)
            case .collated(let expression, _): expression.boundValues
            default: []
            }
        }
    }

    /// The bound values, in the order their placeholders are numbered.
    package var arguments: [StoredValue] {
        boundValues.map(\.value)
    }

    /// Whether the fragment binds no value.
    package var hasNoArguments: Bool {
        boundValues.isEmpty
    }

    /// Appends `other`'s parts.
    package mutating func append(_ other: SQLFragment) {
        parts += other.parts
    }

    /// Whether the fragment, standing for a condition, computes something a store may lack
    /// outside a test it narrows by itself: a function, a collation, or a test whose truth
    /// the condition does not follow.
    var mayNeedWholeNarrowing: Bool {
        parts.contains { part in
            switch part {
            case .call, .collated, .test(_, _, .none): true
            default: false
            }
        }
    }
}

extension SQLFragment: ExpressibleByStringInterpolation {
    package init(stringLiteral value: String) {
        self.init(value)
    }

    package init(stringInterpolation: Interpolation) {
        self = stringInterpolation.fragment
    }

    /// Literal text is SQL every store reads alike; an interpolated ``SQLFragment`` brings its
    /// parts along; names, functions, collations and orderings are interpolated as such.
    package struct Interpolation: StringInterpolationProtocol {
        var fragment = SQLFragment(parts: [])

        package init(literalCapacity: Int, interpolationCount: Int) {
            fragment.parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            fragment.parts.append(.text(literal))
        }

        package mutating func appendInterpolation(_ other: SQLFragment) {
            fragment.parts += other.parts
        }

        /// Text spliced as SQL as it is: only for keywords and operators this module defines,
        /// never for names or values.
        package mutating func appendInterpolation(raw text: String) {
            appendLiteral(text)
        }

        package mutating func appendInterpolation(identifier name: String) {
            fragment.parts.append(.identifier(name))
        }

        package mutating func appendInterpolation(_ expression: SQLFragment, collatedBy collation: SQLCollation) {
            fragment.parts.append(.collated(expression, collation))
        }

        package mutating func appendInterpolation(ascending: Bool) {
            fragment.parts.append(.order(ascending: ascending))
        }
    }
}

extension SQLFragment: CustomStringConvertible {
    /// The SQL with its names quoted, `?` placeholders and the functions' own names,
    /// followed by its arguments: for error messages and debugging.
    package var description: String {
        let sql = rendered(in: ReadableSQL()) ?? ""
        let arguments = self.arguments
        return arguments.isEmpty ? sql : "\(sql) with arguments \(arguments)"
    }
}
