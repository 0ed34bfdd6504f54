import Foundation
import GRDB

// `+`, `-`, `*`, `/`, `%` and unary `-`.
//
// SQLite's integer `/` truncates toward zero and its `%` takes the sign of the dividend, as
// Swift's do. `Float` arithmetic is carried out on doubles and rounded back to `Float` after
// each operation (`osd_float`), which gives Swift's `Float` result exactly: a double holds
// every sum, difference and product of two floats exactly enough for a single rounding, and
// division too. Overflow traps in Swift; SQLite computes a REAL or an out-of-range integer
// instead, so a predicate that would crash in memory returns rows here.

extension PredicateTranslationScope {
    /// The operands' SQL, once it is known SQL computes on them as Swift does.
    fileprivate func arithmeticOperands(
        _ left: TranslatedExpression, _ right: TranslatedExpression, kind: SQLValueKind, in node: Any.Type
    ) throws -> (SQLFragment, SQLFragment) {
        guard kind.supportsArithmetic else {
            throw unsupported(
                node,
                "arithmetic on \(kind.typeName) has no exact SQL equivalent "
                    + "(supported: signed integers, UInt8/16/32, Double, Float)")
        }
        return (try sql(left, like: right, in: node), try sql(right, like: left, in: node))
    }

    /// `fragment`, rounded to `Float` when the operands are floats.
    fileprivate func rounded(_ fragment: SQLFragment, kind: SQLValueKind) -> SQLFragment {
        kind.storage == .float ? "\(raw: QueryFunctions.roundToFloat)(\(fragment))" : fragment
    }
}

extension PredicateExpressions.Arithmetic: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let kind = SQLValueKind(Output.self)
        let (l, r) = try scope.arithmeticOperands(left, right, kind: kind, in: Self.self)
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        }
        return .sql(scope.rounded("(\(l) \(raw: symbol) \(r))", kind: kind), type: Output.self)
    }
}

extension PredicateExpressions.IntDivision: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let (l, r) = try scope.arithmeticOperands(left, right, kind: SQLValueKind(Output.self), in: Self.self)
        return .sql("(\(l) / \(r))", type: Output.self)
    }
}

extension PredicateExpressions.IntRemainder: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let (l, r) = try scope.arithmeticOperands(left, right, kind: SQLValueKind(Output.self), in: Self.self)
        return .sql("(\(l) % \(r))", type: Output.self)
    }
}

extension PredicateExpressions.FloatDivision: PredicateSQLTranslatable {
    /// `osd_real_divide(a, b)`: SQLite's `/` gives NULL when dividing by zero, where Swift gives
    /// ±infinity.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translate(lhs)
        let right = try scope.translate(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        let kind = SQLValueKind(Output.self)
        let (l, r) = try scope.arithmeticOperands(left, right, kind: kind, in: Self.self)
        return .sql(
            scope.rounded("\(raw: QueryFunctions.realDivide)(\(l), \(r))", kind: kind), type: Output.self)
    }
}

extension PredicateExpressions.UnaryMinus: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let operand = try scope.translate(wrapped)
        if let folded = scope.folded(self, [operand]) { return folded }
        let kind = SQLValueKind(Output.self)
        let (value, _) = try scope.arithmeticOperands(operand, operand, kind: kind, in: Self.self)
        return .sql("(- \(value))", type: Output.self)
    }
}
