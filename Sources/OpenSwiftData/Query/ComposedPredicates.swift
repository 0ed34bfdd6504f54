import Foundation

extension PredicateExpressions {
    /// `predicate.evaluate(input)` inside another predicate: what Apple's `#Predicate` writes
    /// for `other.evaluate($0)` (iOS 17.4), which the open-source `#Predicate` macro rejects.
    /// Made by ``CompoundPredicate``; translated to SQL as the inner predicate on the row.
    ///
    /// It holds a predicate, which is `Codable` only with a configuration, so it cannot be
    /// encoded: encoding or decoding it throws.
    public struct PredicateEvaluation<Input: PredicateExpression>: StandardPredicateExpression {
        public typealias Output = Bool
        public let predicate: Predicate<Input.Output>
        public let input: Input

        /// - Parameters:
        ///   - predicate: the predicate evaluated.
        ///   - input: what it is evaluated on: the outer predicate's variable.
        public init(predicate: Predicate<Input.Output>, input: Input) {
            self.predicate = predicate
            self.input = input
        }

        /// Evaluates the inner predicate on the value its input evaluates to.
        ///
        /// - Parameter bindings: The values of the outer predicate's variables.
        /// - Returns: The inner predicate's result.
        /// - Throws: What evaluating the input or the inner predicate throws.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try predicate.evaluate(input.evaluate(bindings))
        }

        /// Always throws: a predicate composed of other predicates cannot be decoded.
        ///
        /// - Parameter decoder: The decoder, which is not read.
        /// - Throws: `DecodingError.dataCorrupted`, always.
        public init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a predicate composed of other predicates cannot be decoded"))
        }

        /// Always throws: a predicate composed of other predicates cannot be encoded.
        ///
        /// - Parameter encoder: The encoder, which is not written to.
        /// - Throws: `EncodingError.invalidValue`, always.
        public func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(self, .init(
                codingPath: encoder.codingPath, debugDescription: "a predicate composed of other predicates cannot be encoded"))
        }
    }
}

extension PredicateExpressions.PredicateEvaluation: @unchecked Sendable {}

extension PredicateExpressions.PredicateEvaluation: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        guard let variable = input as? any PredicateVariableReference, variable.key == scope.rootVariable else {
            throw scope.unsupported(Self.self, "a composed predicate is translated only when it is evaluated on the fetched model itself")
        }
        return try scope.standingForTheRow(predicate.variable) {
            try scope.translate(predicate.expression)
        }
    }
}

/// Predicates made of other predicates: the way to combine them on Linux, where
/// `#Predicate { first.evaluate($0) && … }` (iOS 17.4) does not compile. They run in SQL as the
/// predicates joined by `AND` or `OR`, or `NOT` of one, and evaluate in memory as their parts do.
///
/// ```swift
/// let recent = #Predicate<Film> { $0.releaseYear >= 2000 }
/// let animated = #Predicate<Film> { $0.isAnimated }
/// let films = try context.fetch(FetchDescriptor(predicate: CompoundPredicate.and([recent, animated])))
/// ```
///
/// Code that also builds with Apple's SwiftData can declare the same three functions there with
/// `#Predicate { first.evaluate($0) && second.evaluate($0) }`.
public enum CompoundPredicate {
    /// Holds when every one of `predicates` holds (`true` for none).
    ///
    /// - Parameter predicates: the predicates to join with `AND`, in order.
    /// - Returns: a predicate that a fetch runs as their SQL joined by `AND`.
    public static func and<Model>(_ predicates: [Predicate<Model>]) -> Predicate<Model> {
        guard !predicates.isEmpty else { return Predicate<Model>.true }
        return balanced(predicates[...]) { left, right in
            Predicate<Model> { input in
                PredicateExpressions.Conjunction(
                    lhs: PredicateExpressions.PredicateEvaluation(predicate: left, input: input),
                    rhs: PredicateExpressions.PredicateEvaluation(predicate: right, input: input))
            }
        }
    }

    /// Holds when at least one of `predicates` holds (`false` for none).
    ///
    /// - Parameter predicates: the predicates to join with `OR`, in order.
    /// - Returns: a predicate that a fetch runs as their SQL joined by `OR`.
    public static func or<Model>(_ predicates: [Predicate<Model>]) -> Predicate<Model> {
        guard !predicates.isEmpty else { return Predicate<Model>.false }
        return balanced(predicates[...]) { left, right in
            Predicate<Model> { input in
                PredicateExpressions.Disjunction(
                    lhs: PredicateExpressions.PredicateEvaluation(predicate: left, input: input),
                    rhs: PredicateExpressions.PredicateEvaluation(predicate: right, input: input))
            }
        }
    }

    /// `parts` joined two by two into a balanced tree, in order: `AND` and `OR` are associative,
    /// and Swift still evaluates the parts left to right, stopping where it did, while the SQL
    /// nests only about log₂(n) deep (a chain of 90 overflowed SQLite's parser stack).
    private static func balanced<Model>(
        _ parts: ArraySlice<Predicate<Model>>, _ join: (Predicate<Model>, Predicate<Model>) -> Predicate<Model>
    ) -> Predicate<Model> {
        if parts.count == 1 { return parts[parts.startIndex] }
        let middle = parts.startIndex + parts.count / 2
        return join(balanced(parts[..<middle], join), balanced(parts[middle...], join))
    }

    /// Holds where `predicate` does not.
    ///
    /// - Parameter predicate: the predicate to negate.
    /// - Returns: a predicate that a fetch runs as `NOT` of its SQL.
    public static func not<Model>(_ predicate: Predicate<Model>) -> Predicate<Model> {
        Predicate<Model> { input in
            PredicateExpressions.Negation(PredicateExpressions.PredicateEvaluation(predicate: predicate, input: input))
        }
    }
}
