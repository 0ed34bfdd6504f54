import Foundation

/// How a `Decimal` is stored: text whose byte order (SQLite's `BINARY` collation) is the order of
/// Swift's `<` on the values, and which is the same text for equal values, so that SQL compares,
/// sorts, tests membership and uses indices on decimals as Swift does, exactly.
///
/// The form, from the value's digits without trailing zeros `d1 d2 … dn` and its adjusted
/// exponent `E` (the value is `d1.d2…dn × 10^E`):
///
/// | value    | text                                   | 12.5 / -12.5 |
/// |----------|----------------------------------------|--------------|
/// | NaN      | `M`                                    |              |
/// | negative | `N`, `499 − E` (3 digits), each `9 − d`, `~` | `N498874~` |
/// | zero     | `O`                                    |              |
/// | positive | `P`, `E + 500` (3 digits), the digits  | `P501125`    |
///
/// `M < N < O < P` orders the classes as Swift does (NaN is below every number for `Decimal`'s
/// `<`, and equal to itself). Among positives a larger exponent sorts later, and with one
/// exponent the digits compare as a fraction would, a shorter prefix first. Among negatives both
/// are reversed: the exponent and the digits are complemented, and `~` (above every digit) ends
/// the digits so that a shorter prefix, the smaller magnitude, sorts later. `E` is between −128
/// and 165 for every `Decimal`, so three digits always hold the biased exponents.
///
/// Stores of format 1 hold the value's `description` (`-12.5`); ``decimal(from:)`` reads both,
/// and opening such a store for writing rewrites its decimals once (`DecimalTextUpgrade`).
package enum OrderedDecimalText {
    static let notANumber = "M"
    static let zero = "O"
    private static let negative = UInt8(ascii: "N")
    private static let positive = UInt8(ascii: "P")
    private static let negativeEnd = UInt8(ascii: "~")
    private static let digitZero = UInt8(ascii: "0")

    /// The stored text of `value`.
    package static func text(for value: Decimal) -> String {
        if value.isNaN { return notANumber }
        if value.isZero { return zero }
        let (digits, exponent) = trimmedDigits(of: value)
        let adjusted = exponent + digits.count - 1
        var text: [UInt8] = []
        text.reserveCapacity(digits.count + 5)
        if value.sign == .minus {
            text.append(negative)
            appendThreeDigits(499 - adjusted, to: &text)
            for digit in digits { text.append(digitZero + 9 - (digit - digitZero)) }
            text.append(negativeEnd)
        } else {
            text.append(positive)
            appendThreeDigits(adjusted + 500, to: &text)
            text += digits
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digits (ASCII) of a finite, non-zero `value`'s significand without its trailing
    /// zeros, and the exponent that goes with them.
    static func trimmedDigits(of value: Decimal) -> (digits: [UInt8], exponent: Int) {
        var digits = Array(value.significand.description.utf8)
        var exponent = value.exponent
        while digits.count > 1, digits.last == digitZero {
            digits.removeLast()
            exponent += 1
        }
        return (digits, exponent)
    }

    /// The value stored as `text`, in this form or the plain one of format 1; `nil` when it is
    /// neither.
    package static func decimal(from text: String) -> Decimal? {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first else { return nil }
            switch first {
            case UInt8(ascii: "M") where bytes.count == 1: return Decimal.nan
            case UInt8(ascii: "O") where bytes.count == 1: return Decimal.zero
            case negative, positive: return ordered(bytes)
            default: return plain(bytes)
            }
        }
    }

    /// Whether `text` is in this form rather than format 1's.
    static func isOrdered(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return first >= UInt8(ascii: "M") && first <= positive
    }

    private static func ordered(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        let isNegative = bytes[0] == negative
        let digitsEnd = isNegative ? bytes.count - 1 : bytes.count
        guard bytes.count >= 5, digitsEnd > 4, !isNegative || bytes[bytes.count - 1] == negativeEnd else { return nil }
        var biased = 0
        for byte in bytes[1...3] {
            guard (digitZero...digitZero + 9).contains(byte) else { return nil }
            biased = biased * 10 + Int(byte - digitZero)
        }
        let adjusted = isNegative ? 499 - biased : biased - 500
        let count = digitsEnd - 4
        guard count <= 39 else { return nil }
        var digits = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let byte = bytes[4 + index]
            guard (digitZero...digitZero + 9).contains(byte) else { return nil }
            digits[index] = isNegative ? digitZero + 9 - (byte - digitZero) : byte
        }
        guard digits.first != digitZero, digits.last != digitZero else { return nil }
        let exponent = adjusted - count + 1
        guard let significand = integer(digits), (Int(Int8.min)...Int(Int8.max)).contains(exponent) else { return nil }
        return Decimal(sign: isNegative ? .minus : .plus, exponent: exponent, significand: significand)
    }

    /// The whole number written with `digits` (ASCII), exactly; `nil` past `Decimal`'s 128-bit
    /// significand, which no stored text reaches.
    private static func integer(_ digits: [UInt8]) -> Decimal? {
        if digits.count <= 19 {
            var value: UInt64 = 0
            for digit in digits { value = value * 10 + UInt64(digit - digitZero) }
            return Decimal(value)
        }
        let text = String(decoding: digits, as: UTF8.self)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN,
              value.exponent == 0, value.description == text
        else { return nil }
        return value
    }

    /// Format 1's text: the value's `description`.
    private static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "NaN" { return Decimal.nan }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    private static func appendThreeDigits(_ value: Int, to text: inout [UInt8]) {
        text.append(digitZero + UInt8(value / 100))
        text.append(digitZero + UInt8(value / 10 % 10))
        text.append(digitZero + UInt8(value % 10))
    }
}
