import Foundation

/// Swift's string operations that queries compute in SQL as well as in memory: a store's SQL
/// function for one of them calls the function here, and the in-memory `evaluate` of the
/// `PredicateExpressions` types this package adds on platforms without them does too, so the
/// two cannot disagree.
enum StringSemantics {
    /// Case- and diacritic-insensitive, locale-aware search, as Foundation defines
    /// `localizedStandardContains(_:)`.
    static func localizedStandardContains(_ string: String, _ other: String) -> Bool {
        string.localizedStandardContains(other)
    }

    /// Comparison in the current locale, as `localizedCompare(_:)`.
    static func localizedCompare(_ string: String, _ other: String) -> ComparisonResult {
        string.localizedCompare(other)
    }

    /// Case-insensitive, non-localized comparison, as `caseInsensitiveCompare(_:)`.
    static func caseInsensitiveCompare(_ string: String, _ other: String) -> ComparisonResult {
        string.caseInsensitiveCompare(other)
    }

    /// Finder-like ordering, as `localizedStandardCompare(_:)`.
    static func localizedStandardCompare(_ string: String, _ other: String) -> ComparisonResult {
        string.localizedStandardCompare(other)
    }
}
