import Foundation

// `&&`, `||`, `!` and conditional expressions (`c ? a : b`, `if … else …`).
//
// Every non-optional `Bool` the translators produce is 0 or 1, never NULL, so SQL's
// three-valued logic reduces to Swift's two-valued one here.

extension PredicateExpressions.Conjunction: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translateCondition(lhs)
        // Swift does not evaluate the right side when the left is false.
        if let value = left.constantValue as? Bool, !value {
            return .constant(false, type: Bool.self)
        }
        let right = try scope.translateCondition(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        if left.constantValue as? Bool == true { return right }
        let l = try scope.condition(left, in: Self.self)
        let r = try scope.condition(right, in: Self.self)
        return .sql("(\(l) AND \(r))", type: Bool.self)
    }
}

extension PredicateExpressions.Disjunction: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let left = try scope.translateCondition(lhs)
        // Swift does not evaluate the right side when the left is true.
        if let value = left.constantValue as? Bool, value {
            return .constant(true, type: Bool.self)
        }
        let right = try scope.translateCondition(rhs)
        if let folded = scope.folded(self, [left, right]) { return folded }
        if left.constantValue as? Bool == false { return right }
        let l = try scope.condition(left, in: Self.self)
        let r = try scope.condition(right, in: Self.self)
        return .sql("(\(l) OR \(r))", type: Bool.self)
    }
}

extension PredicateExpressions.Negation: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let inner = try scope.translateCondition(wrapped, negated: true)
        if let folded = scope.folded(self, [inner]) { return folded }
        return .sql("(NOT \(try scope.condition(inner, in: Self.self)))", type: Bool.self)
    }
}

extension PredicateExpressions.Conditional: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let condition = try scope.translate(test)
        // Swift evaluates only the branch taken.
        if let value = condition.constantValue as? Bool {
            if value { return try scope.translate(trueBranch) }
            return try scope.translate(falseBranch)
        }
        let whenTrue = try scope.translate(trueBranch)
        let whenFalse = try scope.translate(falseBranch)
        let kind = SQLValueKind(Output.self)
        if kind.storage == .unsupported {
            throw scope.unsupported(
                Self.self, "its branches produce \(kind.typeName), which SQL cannot hold")
        }
        let testSQL = try scope.condition(condition, in: Self.self)
        let trueSQL = try scope.sql(whenTrue, like: whenFalse, in: Self.self)
        let falseSQL = try scope.sql(whenFalse, like: whenTrue, in: Self.self)
        // Both branches hold the same Swift type; a branch that reads a column lends its codec
        // for encoding constants compared with the result.
        return .sql(
            "(CASE WHEN \(testSQL) THEN \(trueSQL) ELSE \(falseSQL) END)", type: Output.self,
            mayBeNull: whenTrue.mayBeNil || whenFalse.mayBeNil, codec: whenTrue.codec ?? whenFalse.codec)
    }
}
