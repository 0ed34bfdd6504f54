import Foundation
import OpenSwiftData

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`, which a bulk insert streams
/// instead of binding every value: one line per row, columns separated by tabs, `\N` for
/// `NULL`. Each value is written in its text input form (``PostgresValues/inputText(_:as:attribute:entity:)``),
/// which its column reads back exactly; integers are written digit by digit, without a string.
struct PostgresCopyText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The rows made so far, leaving none.
    mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Ends a column (a tab) or a row (a newline).
    mutating func endColumn(lastOfRow: Bool) {
        bytes.append(lastOfRow ? 0x0A : 0x09)
    }

    mutating func appendNull() {
        bytes.append(contentsOf: [0x5C, 0x4E])
    }

    /// Appends an integer in decimal, without making a string of it.
    mutating func append(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(0x2D) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Appends a double; NaN is refused, naming the attribute, as the SQLite store refuses it.
    mutating func append(_ double: Double, attribute: String, entity: String) throws {
        bytes.append(contentsOf: try PostgresValues.inputText(double, attribute: attribute, entity: entity).utf8)
    }

    /// Appends a string, refusing NUL (which PostgreSQL's `text` cannot hold) and escaping
    /// the characters COPY's text format gives a meaning.
    mutating func append(_ string: String, attribute: String, entity: String) throws {
        for byte in string.utf8 {
            switch byte {
            case 0: throw PostgresValues.containsNUL(attribute: attribute, entity: entity)
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            default: bytes.append(byte)
            }
        }
    }

    /// Appends a stored value of a column of `storage`, in its text input form
    /// (``PostgresValues/inputText(_:as:attribute:entity:)``), escaped.
    mutating func append(_ value: StoredValue, as storage: StorageType, attribute: String, entity: String) throws {
        guard let text = try PostgresValues.inputText(value, as: storage, attribute: attribute, entity: entity) else {
            appendNull()
            return
        }
        try append(text, attribute: attribute, entity: entity)
    }
}
