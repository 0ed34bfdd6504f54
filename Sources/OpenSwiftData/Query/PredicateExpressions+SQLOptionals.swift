import Foundation
import GRDB

// `??`, optional chaining and `if let` (both arrive as `flatMap`), and `!`.

extension PredicateExpressions.NilCoalesce: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(lhs)
        let fallback = try scope.translate(rhs)
        if let folded = scope.folded(self, [optional, fallback]) { return folded }
        if optional.isNilConstant { return fallback }
        if !optional.mayBeNil {
            // A non-nil constant (with a fallback computed per row) or SQL that is never NULL.
            return TranslatedExpression(
                form: optional.form, type: Output.self, codec: optional.codec, mayBeNull: false,
                keyPathDescription: optional.keyPathDescription)
        }
        let l = try scope.sql(optional, like: fallback, in: Self.self)
        let r = try scope.sql(fallback, like: optional, in: Self.self)
        return .sql(
            "COALESCE(\(l), \(r))", type: Output.self, mayBeNull: fallback.mayBeNil,
            codec: optional.codec ?? fallback.codec)
    }
}

extension PredicateExpressions.OptionalFlatMap: PredicateSQLTranslatable {
    /// `CASE WHEN wrapped IS NULL THEN NULL ELSE transform END`, where the closure's variable
    /// stands for `wrapped`, known not to be NULL inside the `ELSE` branch.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(wrapped)
        if optional.isNilConstant {
            return .constant(Output.none as Any, type: Output.self)
        }
        var unwrapped = TranslatedExpression(
            form: optional.form, type: Wrapped.self, codec: optional.codec, mayBeNull: false,
            keyPathDescription: optional.keyPathDescription)
        if let constant = optional.constantValue,
           let value = (constant as? any OptionalProtocol)?.wrappedValue ?? (constant as? Wrapped) {
            unwrapped = .constant(value, type: Wrapped.self)
        }
        let result = try scope.binding(variable, to: unwrapped) {
            try scope.translate(transform)
        }
        if let folded = scope.folded(self, [optional, result]) { return folded }
        let resultSQL = try scope.sql(result, in: Self.self)
        if !optional.mayBeNil {
            return .sql(resultSQL, type: Output.self, mayBeNull: result.mayBeNil, codec: result.codec)
        }
        let test = try scope.sql(optional, in: Self.self)
        return .sql(
            "(CASE WHEN \(test) IS NULL THEN NULL ELSE \(resultSQL) END)", type: Output.self,
            mayBeNull: true, codec: result.codec)
    }
}

extension PredicateExpressions.ForcedUnwrap: PredicateSQLTranslatable {
    /// `osd_unwrap(x)`, which fails the query, as Swift's evaluation throws, when `x` is NULL.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(inner)
        if let folded = scope.folded(self, [optional]) { return folded }
        let sql = try scope.sql(optional, in: Self.self)
        let unwrapped: SQLFragment = optional.mayBeNil
            ? "\(raw: QueryFunctions.unwrap)(\(sql))"
            : sql
        var result = TranslatedExpression.sql(unwrapped, type: Output.self, codec: optional.codec)
        result.keyPathDescription = optional.keyPathDescription
        return result
    }
}
