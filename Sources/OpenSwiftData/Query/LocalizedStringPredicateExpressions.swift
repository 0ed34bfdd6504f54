import Foundation

// `localizedStandardContains(_:)`, `localizedCompare(_:)` and `caseInsensitiveCompare(_:)` in
// `#Predicate`.
//
// The `#Predicate` macro turns `$0.title.localizedStandardContains("toy")` into
// `PredicateExpressions.build_localizedStandardContains(...)`. Apple's Foundation defines these
// builders and their expression types; the open-source Foundation (Linux, Windows) does not, so
// without the declarations below such predicates would not compile there. They have Apple's
// names, generic signatures and meaning, and conform to `StandardPredicateExpression` (so a
// `Predicate` accepts them). The SQL translations at the end of the file serve both Apple's
// types and these.

#if !canImport(Darwin)
/// What the three string expressions below share: two string operands, evaluated with one
/// function of both, encoded as Foundation encodes its binary expressions (the operands in an
/// unkeyed container). An implementation detail of those types, public only because their public
/// conformances are implemented here.
public protocol _StringPairPredicateExpression: PredicateExpression
where Root.Output: StringProtocol, Other.Output: StringProtocol {
    associatedtype Root: PredicateExpression
    associatedtype Other: PredicateExpression
    var root: Root { get }
    var other: Other { get }
    /// The expression over two string operands.
    ///
    /// - Parameters:
    ///   - root: The string the expression's function is applied to.
    ///   - other: The function's argument.
    init(root: Root, other: Other)

    /// The expression's result for two strings.
    ///
    /// - Parameters:
    ///   - string: The value of `root`.
    ///   - other: The value of `other`.
    /// - Returns: The expression's result.
    static func apply(_ string: String, _ other: String) -> Output
}

extension _StringPairPredicateExpression {
    /// Evaluates both operands and applies the expression's function to them.
    ///
    /// - Parameter bindings: The values of the predicate's variables.
    /// - Returns: The function's result.
    /// - Throws: What evaluating an operand throws.
    public func evaluate(_ bindings: PredicateBindings) throws -> Output {
        Self.apply(String(try root.evaluate(bindings)), String(try other.evaluate(bindings)))
    }

    public var description: String {
        "\(String(describing: Self.self).prefix { $0 != "<" })(root: \(root), other: \(other))"
    }
}

extension _StringPairPredicateExpression where Root: Codable, Other: Codable {
    /// Decodes the operands from an unkeyed container, as Foundation decodes its binary
    /// expressions.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: The decoder's errors.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(root: try container.decode(Root.self), other: try container.decode(Other.self))
    }

    /// Encodes the operands in an unkeyed container, as Foundation encodes its binary expressions.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(root)
        try container.encode(other)
    }
}

extension PredicateExpressions {
    /// `root.localizedStandardContains(other)`: a case- and diacritic-insensitive search that
    /// follows the current locale.
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
        _StringPairPredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool
        public let root: Root
        public let other: Other

        /// `root.localizedStandardContains(other)`.
        ///
        /// - Parameters:
        ///   - root: The string searched.
        ///   - other: The string searched for.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// `string.localizedStandardContains(other)`, the Swift code the SQL function
        /// `osd_localized_standard_contains` calls too.
        ///
        /// - Parameters:
        ///   - string: The string searched.
        ///   - other: The string searched for.
        /// - Returns: Whether `other` is found in `string`.
        public static func apply(_ string: String, _ other: String) -> Bool {
            StringSemantics.localizedStandardContains(string, other)
        }
    }

    /// `root.localizedCompare(other)`: a comparison in the current locale.
    public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>:
        _StringPairPredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = ComparisonResult
        public let root: Root
        public let other: Other

        /// `root.localizedCompare(other)`.
        ///
        /// - Parameters:
        ///   - root: The string compared.
        ///   - other: The string it is compared with.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// `string.localizedCompare(other)`, the Swift code the SQL function
        /// `osd_localized_compare` calls too.
        ///
        /// - Parameters:
        ///   - string: The string compared.
        ///   - other: The string it is compared with.
        /// - Returns: How `string` orders against `other`.
        public static func apply(_ string: String, _ other: String) -> ComparisonResult {
            StringSemantics.localizedCompare(string, other)
        }
    }

    /// `root.caseInsensitiveCompare(other)`: a comparison that ignores case, in no particular
    /// locale.
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>:
        _StringPairPredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = ComparisonResult
        public let root: Root
        public let other: Other

        /// `root.caseInsensitiveCompare(other)`.
        ///
        /// - Parameters:
        ///   - root: The string compared.
        ///   - other: The string it is compared with.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// `string.caseInsensitiveCompare(other)`, the Swift code the SQL function
        /// `osd_case_insensitive_compare` calls too.
        ///
        /// - Parameters:
        ///   - string: The string compared.
        ///   - other: The string it is compared with.
        /// - Returns: How `string` orders against `other`, ignoring case.
        public static func apply(_ string: String, _ other: String) -> ComparisonResult {
            StringSemantics.caseInsensitiveCompare(string, other)
        }
    }

    /// What `#Predicate` writes for `root.localizedStandardContains(other)`.
    ///
    /// - Parameters:
    ///   - root: The expression of the string searched.
    ///   - other: The expression of the string searched for.
    /// - Returns: The expression.
    public static func build_localizedStandardContains<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }

    /// What `#Predicate` writes for `root.localizedCompare(other)`.
    ///
    /// - Parameters:
    ///   - root: The expression of the string compared.
    ///   - other: The expression of the string it is compared with.
    /// - Returns: The expression.
    public static func build_localizedCompare<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringLocalizedCompare<Root, Other> {
        StringLocalizedCompare(root: root, other: other)
    }

    /// What `#Predicate` writes for `root.caseInsensitiveCompare(other)`.
    ///
    /// - Parameters:
    ///   - root: The expression of the string compared.
    ///   - other: The expression of the string it is compared with.
    /// - Returns: The expression.
    public static func build_caseInsensitiveCompare<Root, Other>(
        _ root: Root, _ other: Other
    ) -> StringCaseInsensitiveCompare<Root, Other> {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: CustomStringConvertible {}
extension PredicateExpressions.StringLocalizedCompare: CustomStringConvertible {}
extension PredicateExpressions.StringCaseInsensitiveCompare: CustomStringConvertible {}
#endif

// MARK: - SQL

extension PredicateTranslationScope {
    /// `function(root, other)` for two string operands.
    fileprivate func stringFunction(
        _ function: SQLFunction, _ root: any PredicateExpression, _ other: any PredicateExpression,
        rootType: Any.Type, otherType: Any.Type, in node: Any.Type
    ) throws -> (SQLFragment, [TranslatedExpression]) {
        let string = try translate(root)
        let argument = try translate(other)
        guard SQLValueKind(rootType).isString, SQLValueKind(otherType).isString,
              !SQLValueKind(rootType).isOptional, !SQLValueKind(otherType).isOptional
        else {
            throw unsupported(node, "only String operands translate to SQL")
        }
        let (s, t) = (try self.sql(string, in: node), try self.sql(argument, in: node))
        // Only localizedStandardContains gives a Bool, a test a store can narrow.
        let sql = function == .localizedStandardContains ? SQLFragment.test(function, s, t, polarity: polarity) : SQLFragment.call(function, s, t)
        return (sql, [string, argument])
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let (sql, operands) = try scope.stringFunction(
            .localizedStandardContains, root, other,
            rootType: Root.Output.self, otherType: Other.Output.self, in: Self.self)
        if let folded = scope.folded(self, operands) { return folded }
        return .sql(sql, type: Bool.self)
    }
}

extension PredicateExpressions.StringLocalizedCompare: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let (sql, operands) = try scope.stringFunction(
            .localizedCompare, root, other,
            rootType: Root.Output.self, otherType: Other.Output.self, in: Self.self)
        if let folded = scope.folded(self, operands) { return folded }
        return .sql(sql, type: ComparisonResult.self)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let (sql, operands) = try scope.stringFunction(
            .caseInsensitiveCompare, root, other,
            rootType: Root.Output.self, otherType: Other.Output.self, in: Self.self)
        if let folded = scope.folded(self, operands) { return folded }
        return .sql(sql, type: ComparisonResult.self)
    }
}
