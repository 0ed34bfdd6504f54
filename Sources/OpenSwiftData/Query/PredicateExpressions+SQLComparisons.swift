import Foundation

// `==`, `!=`, `<`, `<=`, `>`, `>=` and range membership.

/// A comparison operator, as SQL spells it.
enum SQLComparisonOperator {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    init(_ op: PredicateExpressions.ComparisonOperator) {
        switch op {
        case .lessThan: self = .less
        case .lessThanOrEqual: self = .lessOrEqual
        case .greaterThan: self = .greater
        case .greaterThanOrEqual: self = .greaterOrEqual
        }
    }

    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}

extension PredicateTranslationScope {
    /// `left op right` for two operands of the Swift type `kind`, with Swift's meaning:
    ///
    /// - `nil` compares equal to `nil` and unequal to everything else (`IS`, `IS NOT`);
    /// - `UInt`/`UInt64`, stored as signed bit patterns, are ordered as unsigned by comparing
    ///   the row values `(x < 0, x)`: values from 2⁶³ up have negative patterns and come last;
    /// - JSON and `Decimal` columns only compare with `nil`;
    /// - models and identifiers compare by the row they are (``identityEquality(_:_:in:)``).
    ///
    /// The result is 0 or 1, never NULL.
    func comparison(
        _ left: TranslatedExpression, _ op: SQLComparisonOperator, _ right: TranslatedExpression,
        kind: SQLValueKind, in node: Any.Type
    ) throws -> SQLFragment {
        let byIdentity = [left, right].contains { $0.modelReference != nil || $0.collectionReference != nil }
        if byIdentity || ((kind.isModel || kind.isPersistentIdentifier) && op != .equal && op != .notEqual) {
            switch op {
            case .equal:
                return try identityEquality(left, right, in: node)
            case .notEqual:
                return "(NOT \(try identityEquality(left, right, in: node)))"
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                throw unsupported(node, "models and their identifiers have no order in SQL; compare their attributes instead")
            }
        }
        switch op {
        case .equal, .notEqual:
            if left.isNilConstant || right.isNilConstant {
                let other = left.isNilConstant ? right : left
                let otherSQL = try sql(other, in: node)
                return op == .equal ? "(\(otherSQL) IS NULL)" : "(\(otherSQL) IS NOT NULL)"
            }
            guard kind.supportsEquality else {
                throw unsupported(node, "\(describe(left, right, kind)) can only be compared with nil in SQL")
            }
            let l = try sql(left, like: right, in: node)
            let r = try sql(right, like: left, in: node)
            if left.mayBeNil || right.mayBeNil {
                return "(\(l) \(raw: op == .equal ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM") \(r))"
            }
            if let counted = characterCountComparison(l, op, r) { return counted }
            return "(\(l) \(raw: op.sql) \(r))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard kind.supportsOrdering, !left.mayBeNil, !right.mayBeNil else {
                throw unsupported(node, "\(describe(left, right, kind)) cannot be ordered in SQL")
            }
            let l = try sql(left, like: right, in: node)
            let r = try sql(right, like: left, in: node)
            if kind.storage == .unsignedBitPattern {
                return "((\(l) < 0, \(l)) \(raw: op.sql) (\(r) < 0, \(r)))"
            }
            if let counted = characterCountComparison(l, op, r) { return counted }
            return "(\(l) \(raw: op.sql) \(r))"
        }
    }

    /// Throws unless SQLite's order of the raw values of `V` is Swift's `<` on `V`.
    ///
    /// A `RawRepresentable` type is stored as its raw value, so SQL orders it by raw value.
    /// When the type is `CaseIterable`, every pair of cases is checked; otherwise the store
    /// trusts that `<` follows the raw values, as hand-written `Comparable` conformances of
    /// raw-valued enums usually do.
    func requireRawValueOrder<V: Comparable>(_ type: V.Type, in node: Any.Type) throws {
        if RawValueOrdering.agrees(V.self) == false {
            throw unsupported(
                node,
                "the < of \(readableTypeName(V.self)) does not follow its raw values, "
                    + "which is how the store orders it; compare the raw values instead")
        }
    }

    private func describe(_ left: TranslatedExpression, _ right: TranslatedExpression, _ kind: SQLValueKind) -> String {
        let name = left.keyPathDescription ?? right.keyPathDescription
        let what: String
        switch kind.storage {
        case .json: what = "stored as JSON"
        case .unsupported: what = "not storable in a column"
        default: what = kind.supportsOrdering ? "" : "not ordered in SQL"
        }
        let type = what.isEmpty ? kind.typeName : "\(kind.typeName), \(what)"
        if let name { return "\(name) (\(type))" }
        return "a value of type \(type)"
    }
}

extension PredicateExpressions.Equal: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let sql = try scope.comparison(left, .equal, right, kind: SQLValueKind(LHS.Output.self), in: Self.self)
        return .sql(scope.withNaNAnswer(sql, left, right, nanAnswer: false), type: Bool.self)
    }
}

extension PredicateExpressions.NotEqual: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let sql = try scope.comparison(left, .notEqual, right, kind: SQLValueKind(LHS.Output.self), in: Self.self)
        return .sql(scope.withNaNAnswer(sql, left, right, nanAnswer: true), type: Bool.self)
    }
}

extension PredicateExpressions.Comparison: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let kind = SQLValueKind(LHS.Output.self)
        if kind.isRawRepresentable {
            try scope.requireRawValueOrder(LHS.Output.self, in: Self.self)
        }
        let sql = try scope.comparison(left, SQLComparisonOperator(op), right, kind: kind, in: Self.self)
        return .sql(scope.withNaNAnswer(sql, left, right, nanAnswer: false), type: Bool.self)
    }
}

extension PredicateTranslationScope {
    /// `comparison`, with Swift's answer where an operand is NaN: SQLite makes NaN `NULL`, and
    /// `NULL` compares as `NULL`, where Swift's `==` and `<` are false and `!=` is true. Only
    /// for operands that are not optional in Swift, whose `NULL` can mean nothing else.
    func withNaNAnswer(_ comparison: SQLFragment, _ left: TranslatedExpression, _ right: TranslatedExpression, nanAnswer: Bool) -> SQLFragment {
        guard left.mayBeNaN || right.mayBeNaN, !left.mayBeNull, !right.mayBeNull else { return comparison }
        return "COALESCE(\(comparison), \(raw: nanAnswer ? "TRUE" : "FALSE"))"
    }
}

// MARK: - Ranges

/// A range written in the predicate (`a...b`, `a..<b`), whose bounds may be computed per row.
protocol PredicateRangeBounds {
    func translatedBounds(in scope: PredicateTranslationScope) throws -> RangeBoundsTranslation
}

/// The bounds of a range, as translated expressions.
struct RangeBoundsTranslation {
    var lower: TranslatedExpression?
    var upper: TranslatedExpression?
    var includesUpper: Bool
}

extension PredicateExpressions.ClosedRange: PredicateRangeBounds {
    func translatedBounds(in scope: PredicateTranslationScope) throws -> RangeBoundsTranslation {
        RangeBoundsTranslation(lower: try scope.translate(lower), upper: try scope.translate(upper), includesUpper: true)
    }
}

extension PredicateExpressions.Range: PredicateRangeBounds {
    func translatedBounds(in scope: PredicateTranslationScope) throws -> RangeBoundsTranslation {
        RangeBoundsTranslation(lower: try scope.translate(lower), upper: try scope.translate(upper), includesUpper: false)
    }
}

/// A Swift range value (captured, or built from constants), seen through its bounds.
protocol RangeValueBounds {
    var lowerBoundValue: Any? { get }
    var upperBoundValue: Any? { get }
    var includesUpperBound: Bool { get }
    static var boundType: Any.Type { get }
}

extension ClosedRange: RangeValueBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
    static var boundType: Any.Type { Bound.self }
}

extension Range: RangeValueBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
    static var boundType: Any.Type { Bound.self }
}

extension PartialRangeFrom: RangeValueBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { nil }
    var includesUpperBound: Bool { false }
    static var boundType: Any.Type { Bound.self }
}

extension PartialRangeThrough: RangeValueBounds {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
    static var boundType: Any.Type { Bound.self }
}

extension PartialRangeUpTo: RangeValueBounds {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
    static var boundType: Any.Type { Bound.self }
}

extension PredicateExpressions.RangeExpressionContains: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let value = try scope.translate(element)
        let bounds: RangeBoundsTranslation
        if let written = range as? any PredicateRangeBounds {
            bounds = try written.translatedBounds(in: scope)
            let children = [value] + [bounds.lower, bounds.upper].compactMap { $0 }
            if let folded = scope.folded(self, children) { return folded }
        } else {
            let translatedRange = try scope.translate(range)
            if let folded = scope.folded(self, [translatedRange, value]) { return folded }
            guard let rangeValue = translatedRange.constantValue as? any RangeValueBounds else {
                throw scope.unsupported(
                    Self.self,
                    "only ranges written in the predicate or captured from outside it can be tested with contains")
            }
            let boundType = type(of: rangeValue).boundType
            bounds = RangeBoundsTranslation(
                lower: rangeValue.lowerBoundValue.map { .constant($0, type: boundType) },
                upper: rangeValue.upperBoundValue.map { .constant($0, type: boundType) },
                includesUpper: rangeValue.includesUpperBound)
        }
        let kind = SQLValueKind(Element.Output.self)
        if kind.isRawRepresentable {
            try scope.requireRawValueOrder(Element.Output.self, in: Self.self)
        }
        var conditions: [SQLFragment] = []
        if let lower = bounds.lower {
            conditions.append(try scope.comparison(value, .greaterOrEqual, lower, kind: kind, in: Self.self))
        }
        if let upper = bounds.upper {
            let op: SQLComparisonOperator = bounds.includesUpper ? .lessOrEqual : .less
            conditions.append(try scope.comparison(value, op, upper, kind: kind, in: Self.self))
        }
        if conditions.isEmpty { return .constant(true, type: Bool.self) }
        let membership: SQLFragment = "(\(SQLFragment.joined(conditions, separator: " AND ")))"
        // Swift refuses to build a range whose lower bound exceeds its upper bound (evaluate
        // throws); when the bounds are computed per row, so does the query.
        if let lower = bounds.lower, let upper = bounds.upper, !(lower.isConstant && upper.isConstant) {
            let inverted = try scope.comparison(lower, .greater, upper, kind: kind, in: Self.self)
            let l = try scope.sql(lower, like: value, in: Self.self)
            let u = try scope.sql(upper, like: value, in: Self.self)
            return .sql(
                "(CASE WHEN \(inverted) THEN \(SQLFragment.call(.invalidRange, l, u)) ELSE \(membership) END)",
                type: Bool.self)
        }
        return .sql(membership, type: Bool.self)
    }
}
