import Foundation
import OpenSwiftData

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`, which a bulk insert streams
/// instead of binding every value: one line per row, columns separated by tabs, `\N` for
/// `NULL`. Each value is written as its column reads it back exactly: integers in decimal,
/// doubles in Swift's shortest form that parses to the same bits, decimals in full,
/// UUIDs as text, bytes as `\x` hexadecimal.
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
        guard !double.isNaN else { throw PostgresValues.notANumber(attribute: attribute, entity: entity) }
        let text = double == .infinity ? "Infinity" : double == -.infinity ? "-Infinity" : "\(double)"
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a string, refusing NUL (which PostgreSQL's `text` cannot hold) and escaping
    /// the characters COPY's text format gives a meaning.
    mutating func append(_ string: String, attribute: String, entity: String) throws {
        for byte in string.utf8 {
            switch byte {
            case 0:
                throw SwiftDataError.modelValidationFailure.explaining(
                    "\(entity).\(attribute) holds a string with a NUL character, which PostgreSQL's text cannot store; nothing was saved. Remove the NUL, or store the value as Data")
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            default: bytes.append(byte)
            }
        }
    }

    /// Appends a stored value of a column of `storage`.
    mutating func append(_ value: StoredValue, as storage: StorageType, attribute: String, entity: String) throws {
        switch (value, storage) {
        case (.null, _):
            appendNull()
        case (.integer(let int), .bool):
            bytes.append(int != 0 ? 0x74 : 0x66)
        case (.integer(let int), .int8), (.integer(let int), .int16), (.integer(let int), .uint8):
            append(Int64(Int16(truncatingIfNeeded: int)))
        case (.integer(let int), .int32), (.integer(let int), .uint16):
            append(Int64(Int32(truncatingIfNeeded: int)))
        case (.integer(let int), _):
            append(int)
        case (.real(let double), _):
            try append(double, attribute: attribute, entity: entity)
        case (.text(let string), .decimal):
            guard let decimal = OrderedDecimalText.decimal(from: string) else {
                throw SwiftDataError.modelValidationFailure.explaining("\(entity).\(attribute) holds a Decimal that cannot be written")
            }
            bytes.append(contentsOf: (decimal.isNaN ? "NaN" : decimal.description).utf8)
        case (.text(let string), _):
            try append(string, attribute: attribute, entity: entity)
        case (.blob(let data), .uuid) where data.count == 16:
            bytes.append(contentsOf: data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString.utf8)
        case (.blob(let data), _):
            // `\\x`: COPY reads `\\` as one backslash, and bytea then reads `\x` and hex digits.
            bytes.append(contentsOf: [0x5C, 0x5C, 0x78])
            for byte in data {
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
