import Foundation

// Parts of a predicate that read only values captured from outside it (`nums.max()!`,
// `nums[1]`, `nums[0..<2]`, `limits["gold"]`, `0..<n`): evaluated in Swift first, as the DocC
// article Predicates says, and bound as constants. Over a model's values they have no SQL
// meaning here, and are refused.

extension PredicateTranslationScope {
    /// `node` evaluated in Swift, when every one of `children` reads only captured values.
    func capturedValue<E: PredicateExpression>(
        _ node: E, _ children: [any PredicateExpression], _ operation: String
    ) throws -> TranslatedExpression {
        let translated = try children.map { try translate($0) }
        if let folded = folded(node, translated) { return folded }
        throw unsupported(
            E.self,
            "\(operation) translates only over values captured from outside the predicate (evaluated in Swift first), not over the model's values")
    }
}

extension PredicateExpressions.SequenceMaximum: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [elements], "max()")
    }
}

extension PredicateExpressions.SequenceMinimum: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [elements], "min()")
    }
}

extension PredicateExpressions.CollectionIndexSubscript: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [wrapped, index], "a subscript")
    }
}

extension PredicateExpressions.CollectionRangeSubscript: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [wrapped, range], "a range subscript")
    }
}

extension PredicateExpressions.DictionaryKeySubscript: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [wrapped, key], "a dictionary subscript")
    }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [wrapped, key, `default`], "a dictionary subscript")
    }
}

extension PredicateExpressions.Range: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [lower, upper], "a range")
    }
}

extension PredicateExpressions.ClosedRange: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        try scope.capturedValue(self, [lower, upper], "a closed range")
    }
}
