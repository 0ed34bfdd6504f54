import Foundation
import GRDB

/// Turns a Foundation `#Predicate` into an SQLite `WHERE` expression with bound arguments.
///
/// The expression tree of `predicate.expression` is a concrete generic type such as
/// `Conjunction<Comparison<KeyPath<Variable<Film>, Int>, Value<Int>>, …>`. Each
/// `PredicateExpressions` node type that has an SQL meaning conforms to
/// ``PredicateSQLTranslatable``; the walk casts each node to it and stops, with
/// `SwiftDataError.unsupportedPredicate` naming the node's full type, at the first one that
/// does not conform or whose operands SQL cannot handle with Swift's meaning. Apart from the
/// differences listed at the end, the SQL selects exactly the models `predicate.evaluate`
/// selects; where it cannot promise that, it throws instead of guessing.
///
/// What translates, and to what:
///
/// | Swift | SQL |
/// |---|---|
/// | `$0.attribute` | the column the ``ColumnResolving`` gives for the key path |
/// | captured values, literals, sub-expressions without `$0` | evaluated in Swift, bound as arguments |
/// | `==`, `!=` | `=`, `<>`; `IS`, `IS NOT` when a side is optional, so `nil == nil` |
/// | `<`, `<=`, `>`, `>=` | the same; `UInt`/`UInt64` compared as unsigned |
/// | `&&`, `\|\|`, `!`, `c ? a : b`, `if`/`else` | `AND`, `OR`, `NOT`, `CASE` |
/// | `??`, `x?.y`, `if let`, `x!` | `COALESCE`, `CASE WHEN x IS NULL`, `osd_unwrap(x)` |
/// | `+ - * / %`, unary `-` | the same for integers (truncating division); `osd_real_divide` for `/` on floating point |
/// | `s.contains(t)`, `s.starts(with: t)` | `instr(s, t) > 0`, `s GLOB 't*'` (escaped) or `substr` |
/// | `s.isEmpty`, `s.count` | `s = ''`, `osd_character_count(s)` (Swift's `Character` count) |
/// | `ids.contains($0.x)` (captured array or set) | `x IN (?, …)`; `0` when empty |
/// | `(a...b).contains($0.x)`, `(a..<b)`, `a...`, `...b`, `..<b` | `x >= a AND x <= b`, … |
/// | `localizedStandardContains`, `localizedCompare`, `caseInsensitiveCompare` | the `osd_` functions of ``QueryFunctions`` |
///
/// ## Where SQL and Swift differ
///
/// - Strings are compared in SQL by their UTF-8 bytes, which is Swift's order and equality for
///   strings in the same Unicode normalization form (what keyboards produce, and all NFC
///   text). Swift compares by canonical equivalence instead: `"é"` (U+00E9) and `"e\u{301}"`
///   are equal in Swift but not in SQL. `contains` and `starts(with:)` match whole
///   `Character`s in Swift (`"e\u{301}".contains("e")` and `"👨‍👩‍👧".contains("👨")` are false)
///   but bytes in SQL (true). Storing text in NFC removes most of the difference. Sorting is
///   exact: see ``SortTranslator``.
/// - Text containing a NUL character cannot be queried faithfully: GRDB binds (and so stores)
///   a `String` only up to its first NUL.
/// - `URL`s compare by their absolute strings; Swift's `==` also tells a relative URL from the
///   absolute URL it resolves to.
/// - Arithmetic that overflows traps in Swift; SQLite yields a REAL or an out-of-range integer
///   instead. Floating-point division by zero yields ±infinity as in Swift, but a NaN result
///   (`0.0 / 0.0`) fails the query, since SQLite cannot hold NaN.
/// - Where `evaluate` throws for a row (`x!` on nil, a range whose lower bound exceeds its
///   upper bound), the query fails too, but only if SQLite evaluates that part for that row:
///   it may order the conditions of an `AND` differently, or skip rows through an index.
enum PredicateTranslator {
    /// The WHERE-clause expression equivalent to `predicate`, or an error naming what cannot be
    /// translated: throw `SwiftDataError.unsupportedPredicate.explaining("...")` whose text
    /// names the expression (its full Swift type name, e.g.
    /// `PredicateExpressions.SequenceMaximum<...>`) and the key path when relevant.
    static func sql<T>(for predicate: Predicate<T>, columns: some ColumnResolving) throws -> SQLFragment {
        let scope = PredicateTranslationScope(
            rootVariable: predicate.variable.key,
            columns: columns,
            rootTypeName: readableTypeName(T.self))
        let translated = try scope.translate(predicate.expression)
        return try scope.condition(translated, in: type(of: predicate.expression))
    }
}
