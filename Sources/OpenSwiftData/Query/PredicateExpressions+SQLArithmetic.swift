import Foundation

// `+`, `-`, `*`, `/`, `%` and unary `-`.
//
// SQLite's integer `/` truncates toward zero and its `%` takes the sign of the dividend, as
// Swift's do. `Float` arithmetic is carried out on doubles and rounded back to `Float` after
// each operation (`osd_float`), which gives Swift's `Float` result exactly: a double holds
// every sum, difference and product of two floats exactly enough for a single rounding, and
// division too. Integer overflow traps in Swift; SQLite computes a REAL or an out-of-range
// integer instead, so a predicate that would crash in memory returns rows here. `Decimal`
// arithmetic runs `Decimal`'s own operators in SQL functions (``DecimalFunctions``).

extension PredicateTranslationScope {
    /// The operands' SQL, once it is known SQL computes on them as Swift does.
    fileprivate func arithmeticOperands(
        _ left: TranslatedExpression, _ right: TranslatedExpression, kind: SQLValueKind, in node: Any.Type
    ) throws -> (SQLFragment, SQLFragment) {
        guard kind.supportsArithmetic else {
            throw unsupported(
                node,
                "arithmetic on \(kind.typeName) has no exact SQL equivalent "
                    + "(supported: signed integers, UInt8/16/32, Double, Float, Decimal)")
        }
        return (try sql(left, like: right, in: node), try sql(right, like: left, in: node))
    }

    /// A binary operation on `lhs` and `rhs`: folded to a constant when both are, otherwise
    /// `operation` of their SQL, rounded to `Float` when the operands are floats.
    fileprivate func arithmetic<Node: PredicateExpression>(
        _ node: Node, _ lhs: some PredicateExpression, _ rhs: some PredicateExpression,
        _ operation: (SQLFragment, SQLFragment) -> SQLFragment
    ) throws -> TranslatedExpression {
        let left = try translate(lhs)
        let right = try translate(rhs)
        if let folded = folded(node, [left, right]) { return folded }
        let kind = SQLValueKind(Node.Output.self)
        let (l, r) = try arithmeticOperands(left, right, kind: kind, in: Node.self)
        let fragment = operation(l, r)
        let floating = kind.storage == .real || kind.storage == .float
        let rounded = kind.storage == .float ? .call(.roundToFloat, fragment) : fragment
        var result = TranslatedExpression.sql(floating ? .call(.nanAsNull, rounded) : rounded, type: Node.Output.self)
        result.mayBeNaN = floating
        return result
    }
}

extension PredicateExpressions.Arithmetic: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        if SQLValueKind(Output.self).storage == .decimal {
            let function: SQLFunction = switch op {
            case .add: .decimalAdd
            case .subtract: .decimalSubtract
            case .multiply: .decimalMultiply
            }
            return try scope.arithmetic(self, lhs, rhs) { .call(function, $0, $1) }
        }
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        }
        // Floats are added, subtracted and multiplied as doubles, then rounded: a store keeping
        // them in single precision (PostgreSQL's `real`) refuses a result beyond its range,
        // where Swift's is an infinity or zero.
        if SQLValueKind(Output.self).storage == .float {
            return try scope.arithmetic(self, lhs, rhs) { "(CAST(\($0) AS DOUBLE PRECISION) \(raw: symbol) \($1))" }
        }
        return try scope.arithmetic(self, lhs, rhs) { "(\($0) \(raw: symbol) \($1))" }
    }
}

// Integer division and remainder are never rounded: their operands are integers.

extension PredicateExpressions.IntDivision: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.arithmetic(self, lhs, rhs) { "(\($0) / \($1))" }
    }
}

extension PredicateExpressions.IntRemainder: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.arithmetic(self, lhs, rhs) { "(\($0) % \($1))" }
    }
}

extension PredicateExpressions.FloatDivision: PredicateSQLTranslatable {
    /// `osd_real_divide(a, b)`: SQLite's `/` gives NULL when dividing by zero, where Swift gives
    /// ±infinity.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.arithmetic(self, lhs, rhs) { .call(.realDivide, $0, $1) }
    }
}

extension PredicateExpressions.UnaryMinus: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let operand = try scope.translate(wrapped)
        if let folded = scope.folded(self, [operand]) { return folded }
        let kind = SQLValueKind(Output.self)
        let (value, _) = try scope.arithmeticOperands(operand, operand, kind: kind, in: Self.self)
        let negated: SQLFragment = kind.storage == .decimal ? .call(.decimalNegate, value) : "(- \(value))"
        var result = TranslatedExpression.sql(negated, type: Output.self)
        result.mayBeNaN = operand.mayBeNaN
        return result
    }
}
