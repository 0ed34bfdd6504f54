import Foundation

/// Swift's string operations that queries compute in SQL as well as in memory: a store's SQL
/// function for one of them calls the function here, and the in-memory `evaluate` of the
/// `PredicateExpressions` types this package adds on platforms without them does too, so the
/// two cannot disagree.
enum StringSemantics {
    /// `String`'s order as the stores keep it: the Unicode scalars of the strings' NFC forms,
    /// compared in turn, so canonically equivalent strings are the same (Swift's `==`). For
    /// strings in NFC this is Swift's `<`. For some others Swift's `<` is no order a sort can
    /// follow: it says neither "E\u{301}" nor "\u{C9}-" is less, and that "\u{D55C}A" is less
    /// than "\u{1112}\u{1161}\u{11AB}" though that equals "\u{D55C}"; this order is one.
    static func storedOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if lhs.utf8.allSatisfy({ $0 < 0x80 }) && rhs.utf8.allSatisfy({ $0 < 0x80 }) {
            return lhs < rhs ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
        }
        let left = lhs.precomposedStringWithCanonicalMapping.unicodeScalars
        let right = rhs.precomposedStringWithCanonicalMapping.unicodeScalars
        if left.elementsEqual(right) { return .orderedSame }
        return left.lexicographicallyPrecedes(right) ? .orderedAscending : .orderedDescending
    }

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
