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
/// | `$0.shelf?.name`, `$0.shelf!.name` (to-one) | `(SELECT "$t1"."name" FROM "Shelf" AS "$t1" WHERE "$t1"."_pk" = "Book"."shelf")` |
/// | `$0.shelf == nil`, `$0.shelf?.persistentModelID == id`, `$0.persistentModelID == id` | the related row's key `IS NULL`, `IS ?` (a constant `0` when `id` names no row of that table) |
/// | `ids.contains($0.persistentModelID)` | `key IN (?, …)` over the identifiers naming rows of the table |
/// | `$0.books.isEmpty`, `$0.books.count` (to-many) | `NOT EXISTS (SELECT 1 FROM …)`, `(SELECT COUNT(*) FROM …)` over the inverse key column or the join table |
/// | `$0.books.contains { … }`, `allSatisfy { … }`, `filter { … }` | `EXISTS (… AND test)`, `NOT EXISTS (… AND NOT test)`, a narrower subquery; the closure's variable is the subquery's row, under an alias of its own |
/// | `$0.courses.contains(model)` | `EXISTS (… AND key = ?)` |
///
/// A to-one relationship whose key names no row (left behind by the `.noAction` delete rule)
/// reads as `nil`, as it does in memory. Models compare by identity: the same row of the same
/// entity of the same store; an identifier captured from outside the predicate that names an
/// unsaved model matches no row. (`#Predicate` cannot capture a model: models are not
/// `Codable`, so `$0.shelf == shelf` does not compile; compare `persistentModelID`s.)
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
    /// A predicate's translation.
    struct Translation {
        /// The WHERE-clause expression.
        let condition: SQLFragment
        /// The entities whose tables the condition reads besides the fetched one, through
        /// relationships: unsaved changes to their models can change which rows match.
        let relatedEntities: Set<String>
    }

    /// The WHERE-clause expression equivalent to `predicate`, or an error naming what cannot be
    /// translated: throw `SwiftDataError.unsupportedPredicate.explaining("...")` whose text
    /// names the expression (its full Swift type name, e.g.
    /// `PredicateExpressions.SequenceMaximum<...>`) and the key path when relevant.
    static func sql<T>(for predicate: Predicate<T>, columns: some ColumnResolving) throws -> SQLFragment {
        try translation(of: predicate, columns: columns).condition
    }

    /// The WHERE-clause expression equivalent to `predicate` and the tables it reads.
    static func translation<T>(of predicate: Predicate<T>, columns: some ColumnResolving) throws -> Translation {
        let scope = PredicateTranslationScope(
            rootVariable: predicate.variable.key,
            columns: columns,
            rootTypeName: readableTypeName(T.self))
        let translated = try scope.translate(predicate.expression)
        let condition = try scope.condition(translated, in: type(of: predicate.expression))
        return Translation(condition: condition, relatedEntities: scope.relatedEntities)
    }
}
