import Foundation

// Parts of a predicate that read only values captured from outside it (`nums.max()!`,
// `nums[1]`, `nums[0..<2]`, `limits["gold"]`, `0..<n`): evaluated in Swift first, as the DocC
// article Predicates says, and bound as constants. Over a model's values they have no SQL
// meaning here, and are refused.

/// An expression with an SQL translation only over captured values: folded in Swift, refused
/// over the model's values.
protocol CapturedValueExpression: PredicateSQLTranslatable, PredicateExpression {
    /// The operands, which must read only captured values.
    var operands: [any PredicateExpression] { get }
    /// What the expression is, for the refusal.
    static var operation: String { get }
}

extension CapturedValueExpression {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let translated = try operands.map { try scope.translate($0) }
        if let folded = scope.folded(self, translated) { return folded }
        throw scope.unsupported(
            Self.self,
            "\(Self.operation) translates only over values captured from outside the predicate (evaluated in Swift first), not over the model's values")
    }
}

extension PredicateExpressions.SequenceMaximum: CapturedValueExpression {
    var operands: [any PredicateExpression] { [elements] }
    static var operation: String { "max()" }
}

extension PredicateExpressions.SequenceMinimum: CapturedValueExpression {
    var operands: [any PredicateExpression] { [elements] }
    static var operation: String { "min()" }
}

extension PredicateExpressions.CollectionIndexSubscript: CapturedValueExpression {
    var operands: [any PredicateExpression] { [wrapped, index] }
    static var operation: String { "a subscript" }
}

extension PredicateExpressions.CollectionRangeSubscript: CapturedValueExpression {
    var operands: [any PredicateExpression] { [wrapped, range] }
    static var operation: String { "a range subscript" }
}

extension PredicateExpressions.DictionaryKeySubscript: CapturedValueExpression {
    var operands: [any PredicateExpression] { [wrapped, key] }
    static var operation: String { "a dictionary subscript" }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: CapturedValueExpression {
    var operands: [any PredicateExpression] { [wrapped, key, `default`] }
    static var operation: String { "a dictionary subscript" }
}

extension PredicateExpressions.Range: CapturedValueExpression {
    var operands: [any PredicateExpression] { [lower, upper] }
    static var operation: String { "a range" }
}

extension PredicateExpressions.ClosedRange: CapturedValueExpression {
    var operands: [any PredicateExpression] { [lower, upper] }
    static var operation: String { "a closed range" }
}
