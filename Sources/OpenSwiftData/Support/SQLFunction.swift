/// An operation a query needs that each store computes its own way: an SQLite store calls a
/// function OpenSwiftData registers on its connections (Swift's own semantics) or one of
/// SQLite's; another store maps it to its own SQL, or lacks it (``SQLDialect/function(_:)``
/// says `nil`) and the context answers the query in memory.
package enum SQLFunction: String, Hashable, Sendable, CaseIterable {
    /// `(x)`: `x`, failing the query when it is `NULL`, as force-unwrapping `nil` traps.
    case unwrap
    /// `(lower, upper)`: fails the query, as forming a range whose lower bound is above its
    /// upper bound traps.
    case invalidRange
    /// `(x)`: the double `x`, or `NULL` where it is NaN (as SQLite computes NaN), so that a
    /// comparison gives Swift's answer for NaN by itself.
    case nanAsNull
    /// `(x)`: `x` rounded to a `Float`.
    case roundToFloat
    /// `(a, b)`: `a / b` as Swift divides doubles (an infinity or NaN for a zero divisor).
    case realDivide
    /// `(c)`: the condition `c` itself, as every store runs it, or where a store lacks a
    /// function `c` calls, a test that store narrows to `TRUE` (or `FALSE`) as a whole
    /// (``SQLFragment/narrowed(in:toward:)``).
    case condition
    /// `(s)`: the number of `Character`s of a string.
    case characterCount
    /// `(s, n)`: whether `s` has at least `n` `Character`s.
    case characterCountAtLeast
    /// `(s, n)`: whether `s` has at most `n` `Character`s.
    case characterCountAtMost
    /// `(s, t)`: whether `s` contains `t`, compared as `Character`s.
    case containsCharacters
    /// `(s, t)`: whether `s` starts with `t`, compared as `Character`s.
    case startsWithCharacters
    /// `(s, t)`: `localizedStandardContains`.
    case localizedStandardContains
    /// `(s, t)`: `localizedCompare`, as -1, 0 or 1.
    case localizedCompare
    /// `(s, t)`: `caseInsensitiveCompare`, as -1, 0 or 1.
    case caseInsensitiveCompare
    /// `(a, b)`: the sum of two stored decimals.
    case decimalAdd
    /// `(a, b)`: the difference of two stored decimals.
    case decimalSubtract
    /// `(a, b)`: the product of two stored decimals.
    case decimalMultiply
    /// `(a)`: a stored decimal negated.
    case decimalNegate
    /// `(list)`: the number of elements of a value stored as a JSON array.
    case arrayCount
    /// `(data, part)`: whether `data` contains the bytes `part`.
    case containsBytes
    /// `(list, value)`: whether a value stored as a JSON array has `value` as an element.
    case arrayContains
}

/// A string ordering each store implements its own way.
package enum SQLCollation: String, Hashable, Sendable, CaseIterable {
    /// `String`'s `Comparable` order.
    case stringOrder
    /// `String.StandardComparator.lexical`.
    case lexical
    /// `String.StandardComparator.localizedStandard`.
    case localizedStandard
    /// `String.StandardComparator.localized`.
    case localized
}

/// How a condition's truth follows a test inside it: with it (under `AND`, `OR` and an even
/// number of `NOT`s), against it (an odd number of `NOT`s), or in no such way (a test compared,
/// chosen between, or given to a function).
package enum SQLPolarity: Hashable, Sendable {
    case positive
    case negative
    case none

    /// The polarity under one more `NOT`.
    package var negated: SQLPolarity {
        switch self {
        case .positive: .negative
        case .negative: .positive
        case .none: .none
        }
    }
}

/// Which way a narrowed condition may err (``SQLFragment/narrowed(in:toward:)``).
package enum SQLBound: Hashable, Sendable {
    /// True for every row the exact condition holds for, and maybe others.
    case superset
    /// True only for rows the exact condition holds for, maybe not all of them.
    case subset

    var opposite: SQLBound { self == .superset ? .subset : .superset }
}
