extension PredicateTranslationScope {
    /// `s.count op n` as tests of `s` against the bound `n` (``SQLFunction/characterCountAtLeast``,
    /// ``SQLFunction/characterCountAtMost``), so that a store without Swift's `Character` count
    /// narrows the comparison (``SQLFragment/narrowed(in:toward:)``); `nil` unless one side is
    /// a string's count and the other runs without it. `>` and `<` are the negations of `<=`
    /// and `>=`: no `n ± 1`, which would overflow at `Int`'s bounds.
    func characterCountComparison(_ left: SQLFragment, _ op: SQLComparisonOperator, _ right: SQLFragment) -> SQLFragment? {
        if let string = left.characterCountOperand, right.characterCountOperand == nil {
            return characterCountTest(string, op, right)
        }
        if let string = right.characterCountOperand, left.characterCountOperand == nil {
            let flipped: SQLComparisonOperator = switch op {
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            case .greaterOrEqual: .lessOrEqual
            case .equal, .notEqual: op
            }
            return characterCountTest(string, flipped, left)
        }
        return nil
    }

    private func characterCountTest(_ string: SQLFragment, _ op: SQLComparisonOperator, _ bound: SQLFragment) -> SQLFragment {
        let atLeast = SQLFragment.test(.characterCountAtLeast, string, bound, polarity: polarity)
        let atMost = SQLFragment.test(.characterCountAtMost, string, bound, polarity: polarity)
        let notAtLeast = SQLFragment.test(.characterCountAtLeast, string, bound, polarity: polarity.negated)
        let notAtMost = SQLFragment.test(.characterCountAtMost, string, bound, polarity: polarity.negated)
        return switch op {
        case .greaterOrEqual: atLeast
        case .lessOrEqual: atMost
        case .greater: "(NOT \(notAtMost))"
        case .less: "(NOT \(notAtLeast))"
        case .equal: "(\(atLeast) AND \(atMost))"
        case .notEqual: "(NOT \(notAtLeast) OR NOT \(notAtMost))"
        }
    }
}

extension SQLFragment {
    /// The string `s` when the fragment is exactly `s.count`.
    fileprivate var characterCountOperand: SQLFragment? {
        guard parts.count == 1, case .call(.characterCount, let arguments) = parts[0] else { return nil }
        return arguments[0]
    }
}
