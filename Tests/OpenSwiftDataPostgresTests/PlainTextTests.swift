import Foundation
import Testing
@testable import OpenSwiftDataPostgres

/// The scalars PostgreSQL's byte matches treat as whole Characters (PlainText): each checked
/// against Swift's own grapheme breaking and normalization, since a wrong one would make a
/// search answer differently from Swift.
@Suite struct PlainTextTests {
    @Test func everyPlainScalarIsACharacterOfItsOwnWithAFormNoOtherShares() {
        let neighbours: [Character] = ["a", "é", "中", "한", "\n", "\t", "Ω", "ж", " "]
        var forms: [String: UInt32] = [:]
        var problems: [String] = []
        for range in PlainText.scalars {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else {
                    problems.append("\(String(value, radix: 16)): no scalar")
                    continue
                }
                let properties = scalar.properties
                let string = String(scalar)
                var why: [String] = []
                if properties.canonicalCombiningClass != .notReordered { why.append("combines") }
                if properties.isGraphemeExtend { why.append("extends the Character before it") }
                if [.spacingMark, .nonspacingMark, .enclosingMark, .format, .surrogate, .unassigned, .privateUse].contains(properties.generalCategory) {
                    why.append("is \(properties.generalCategory)")
                }
                if !string.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual([scalar]) { why.append("changes under NFC") }
                let decomposed = string.decomposedStringWithCanonicalMapping
                if let other = forms[decomposed] {
                    why.append("decomposes as \(String(other, radix: 16)) does")
                } else {
                    forms[decomposed] = value
                }
                let character = Character(scalar)
                if String([character, character]).count != 2 || neighbours.contains(where: { String([character, $0]).count != 2 || String([$0, character]).count != 2 }) {
                    why.append("joins a neighbour into one Character")
                }
                if !why.isEmpty { problems.append("\(String(value, radix: 16)): \(why.joined(separator: ", "))") }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
        #expect(!PlainText.scalars.contains { $0.contains(0x0D) || $0.contains(0) })
    }

    /// What the narrowed `contains`'s prefix pruning (PostgresDialect.hasPrunablePrefix) rests
    /// on: no canonical decomposition has an ASCII scalar after its first, and only three
    /// scalars decompose to a lone ASCII one, which the searched-for string is checked for.
    @Test func onlyThreeScalarsDecomposeToALoneASCIIScalarAndNoneHoldsOneAfterItsFirst() {
        var lone: [UInt32] = []
        var later: [UInt32] = []
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let decomposed = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            if decomposed.count == 1, decomposed[0].isASCII { lone.append(value) }
            if decomposed.dropFirst().contains(where: \.isASCII) { later.append(value) }
        }
        #expect(lone == [0x37E, 0x1FEF, 0x212A])
        #expect(later.isEmpty)
    }

    @Test func thePatternNamesEachRange() {
        #expect(PlainText.pattern.hasPrefix("^[\\u0001-\\u000c\\u000e-\\u007f\\u00a0-\\u00ac"))
        #expect(PlainText.pattern.hasSuffix("\\uff01-\\uff60]*$"))
    }
}
