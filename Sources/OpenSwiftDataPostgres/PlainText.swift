import OpenSwiftData

/// Strings whose every Unicode scalar is a `Character` of its own, in every string made of such
/// scalars, and in NFC with no other scalar canonically equivalent to it: ASCII but carriage
/// return and NUL, Latin, Greek, Cyrillic, common punctuation and currency, kana, CJK ideographs,
/// Hangul syllables, full-width forms. In two such strings, a byte match is a match of whole
/// `Character`s and two runs are equal as `Character`s exactly when their bytes are, so SQL's
/// `strpos` and `starts_with` answer Swift's `contains` and `starts(with:)` there.
///
/// The invariant, checked scalar by scalar by the tests against Swift's own grapheme breaking
/// and normalization: no scalar listed combines, joins, decomposes to another listed scalar's
/// form, or changes under NFC.
enum PlainText {
    static let scalars: [ClosedRange<UInt32>] = [
        0x01...0x0C, 0x0E...0x7F,
        0xA0...0xAC, 0xAE...0x2FF,
        0x370...0x373, 0x375...0x377, 0x37A...0x37D, 0x37F...0x37F, 0x384...0x386, 0x388...0x38A, 0x38C...0x38C,
        0x38E...0x3A1, 0x3A3...0x3FF,
        0x400...0x482, 0x48A...0x52F,
        0x1E00...0x1EFF,
        0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0,
        0x3001...0x3003, 0x3041...0x3096, 0x30A1...0x30FA,
        0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60,
    ]

    /// A PostgreSQL regular expression matching a whole plain string.
    static let pattern: String = {
        func escaped(_ value: UInt32) -> String {
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "^[" + scalars.map { "\(escaped($0.lowerBound))-\(escaped($0.upperBound))" }.joined() + "]*$"
    }()

    /// Whether `string` (rendered SQL) is plain: an ASCII string needs only its length checked.
    static func test(_ string: SQLFragment) -> SQLFragment {
        "(CASE WHEN octet_length(\(string)) = char_length(\(string)) THEN strpos(\(string), chr(13)) = 0 ELSE \(string) ~ '\(raw: pattern)' END)"
    }
}
