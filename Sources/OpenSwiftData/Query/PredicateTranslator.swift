import Foundation

/// Turns a Foundation `#Predicate` into an SQLite `WHERE` expression with bound arguments.
///
/// The expression tree of `predicate.expression` is a concrete generic type such as
/// `Conjunction<Comparison<KeyPath<Variable<Film>, Int>, Value<Int>>, …>`. Each
/// `PredicateExpressions` node type that has an SQL meaning conforms to
/// ``PredicateSQLTranslatable``; the walk casts each node to it and stops, with
/// `SwiftDataError.unsupportedPredicate` naming the node's full type, at the first one that
/// does not conform or whose operands SQL cannot handle with Swift's meaning.
///
/// The invariant: the SQL selects exactly the rows `predicate.evaluate` selects, or the
/// translation throws; the documented exceptions are the DocC article Predicates' "Where SQL
/// and Swift differ", which lists what translates and to what.
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
        let translated = try scope.translateCondition(predicate.expression)
        let condition = try scope.condition(translated, in: type(of: predicate.expression))
        return Translation(condition: condition, relatedEntities: scope.relatedEntities)
    }
}
