import Foundation
import OpenSwiftData
import PostgresNIO

/// Values between the form every value codec produces (``StoredValue``, SQLite's storage
/// classes) and PostgreSQL's columns (``StorageType/postgresType``): the codecs of the SQLite
/// store (enums, optionals, `Codable`, external storage) serve PostgreSQL unchanged.
///
/// A value never changes on the way: integers keep their bit patterns in the column's width,
/// a `Date` its seconds since 2001, a `Decimal` its digits (sent and read as text, so that no
/// binary conversion rounds it), a `Codable` value its JSON (as `jsonb`, which orders keys its
/// own way; the decoded value is the same).
enum PostgresValues {
    /// The SQL placeholder for parameter `index` (from 1) of a column of `storage`: `jsonb` and
    /// `numeric` values are sent as text and cast.
    static func placeholder(_ index: Int, for storage: StorageType) -> String {
        switch storage {
        case .decimal: "$\(index)::numeric"
        case .codable: "$\(index)::jsonb"
        default: "$\(index)"
        }
    }

    /// How a column of `storage` is selected: `numeric` and `jsonb` as their text.
    static func selected(_ column: String, for storage: StorageType) -> String {
        switch storage {
        case .decimal, .codable: "\(column)::text"
        default: column
        }
    }

    /// Appends `stored`, a value of a column of `storage`, to `binds`.
    ///
    /// - Throws: ``SwiftDataError/modelValidationFailure`` naming `entity` and `attribute` for a
    ///   string holding NUL, which PostgreSQL's `text` cannot hold.
    static func bind(_ stored: StoredValue, as storage: StorageType, into binds: inout PostgresBindings, attribute: String, entity: String) throws {
        switch (stored, storage) {
        case (.null, _):
            binds.appendNull()
        case (.integer(let value), .bool):
            binds.append(value != 0)
        case (.integer(let value), .int8), (.integer(let value), .int16), (.integer(let value), .uint8):
            binds.append(Int16(truncatingIfNeeded: value))
        case (.integer(let value), .int32), (.integer(let value), .uint16):
            binds.append(Int32(truncatingIfNeeded: value))
        case (.integer(let value), _):
            binds.append(value)
        case (.real(let value), _) where value.isNaN:
            throw notANumber(attribute: attribute, entity: entity)
        case (.real(let value), .float):
            binds.append(Float(value))
        case (.real(let value), _):
            binds.append(value)
        case (.text(let text), .decimal):
            guard let decimal = OrderedDecimalText.decimal(from: text) else {
                throw SwiftDataError.modelValidationFailure.explaining("\(entity).\(attribute) holds a Decimal that cannot be written")
            }
            binds.append(decimal.isNaN ? "NaN" : decimal.description)
        case (.text(let text), _):
            guard !text.utf8.contains(0) else { throw containsNUL(attribute: attribute, entity: entity) }
            binds.append(text)
        case (.blob(let data), .uuid) where data.count == 16:
            binds.append(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.blob(let data), _):
            try binds.append(data)
        }
    }

    /// `stored`, a value of a column of `storage`, in PostgreSQL's text input form, which reads
    /// back the same value: integers in decimal (a Bool as `t` or `f`), doubles in Swift's
    /// shortest form that parses to the same bits, decimals in full, UUIDs as text, bytes as
    /// `\x` hexadecimal; `nil` for `NULL`. What a `COPY` streams and a column default is.
    ///
    /// - Throws: the refusals of ``bind(_:as:into:attribute:entity:)``: NaN, a NUL in a string.
    static func inputText(_ stored: StoredValue, as storage: StorageType, attribute: String, entity: String) throws -> String? {
        switch (stored, storage) {
        case (.null, _):
            return nil
        case (.integer(let int), .bool):
            return int != 0 ? "t" : "f"
        case (.integer(let int), .int8), (.integer(let int), .int16), (.integer(let int), .uint8):
            return String(Int16(truncatingIfNeeded: int))
        case (.integer(let int), .int32), (.integer(let int), .uint16):
            return String(Int32(truncatingIfNeeded: int))
        case (.integer(let int), _):
            return String(int)
        case (.real(let double), _):
            return try inputText(double, attribute: attribute, entity: entity)
        case (.text(let text), .decimal):
            guard let decimal = OrderedDecimalText.decimal(from: text) else {
                throw SwiftDataError.modelValidationFailure.explaining("\(entity).\(attribute) holds a Decimal that cannot be written")
            }
            return decimal.isNaN ? "NaN" : decimal.description
        case (.text(let text), _):
            guard !text.utf8.contains(0) else { throw containsNUL(attribute: attribute, entity: entity) }
            return text
        case (.blob(let data), .uuid) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString
        case (.blob(let data), _):
            return "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// A value as an SQL constant of its column's type (`'…'::type`); `nil` for `NULL`.
    static func constant(_ stored: StoredValue, as storage: StorageType, attribute: String, entity: String) throws -> String? {
        try inputText(stored, as: storage, attribute: attribute, entity: entity).map { PostgresNames.literal($0) + "::" + storage.postgresType }
    }

    /// A double in PostgreSQL's text input form; NaN refused, naming the attribute.
    static func inputText(_ double: Double, attribute: String, entity: String) throws -> String {
        guard !double.isNaN else { throw notANumber(attribute: attribute, entity: entity) }
        return double == .infinity ? "Infinity" : double == -.infinity ? "-Infinity" : "\(double)"
    }

    /// The refusal of a string holding NUL, which PostgreSQL's `text` cannot hold.
    static func containsNUL(attribute: String, entity: String) -> SwiftDataError {
        SwiftDataError.modelValidationFailure.explaining(
            "\(entity).\(attribute) holds a string with a NUL character, which PostgreSQL's text cannot store; nothing was saved. Remove the NUL, or store the value as Data")
    }

    /// The refusal of a NaN: PostgreSQL could store it, but the SQLite store cannot, and a
    /// model must save the same way on both.
    static func notANumber(attribute: String, entity: String) -> SwiftDataError {
        SwiftDataError.modelValidationFailure.explaining(
            "\(entity).\(attribute) is NaN, which OpenSwiftData stores nowhere (SQLite cannot keep it); nothing was saved. Store nil in an optional attribute, or a number, instead")
    }

    /// The stored value a column of `storage` holds in `cell`.
    static func stored(_ cell: PostgresCell, as storage: StorageType) throws -> StoredValue {
        guard cell.bytes != nil else { return .null }
        switch storage {
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .int8, .int16, .uint8: return .integer(Int64(try cell.decode(Int16.self)))
        case .int32, .uint16: return .integer(Int64(try cell.decode(Int32.self)))
        case .int, .int64, .uint, .uint32, .uint64: return .integer(try cell.decode(Int64.self))
        case .double, .date: return .real(try cell.decode(Double.self))
        case .float: return .real(Double(try cell.decode(Float.self)))
        case .decimal:
            let text = try cell.decode(String.self)
            guard let decimal = text == "NaN" ? Decimal.nan : Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw SwiftDataError.loadIssueModelContainer.explaining("a numeric column holds \(text), which is not a Decimal")
            }
            return .text(OrderedDecimalText.text(for: decimal))
        case .string, .url, .codable: return .text(try cell.decode(String.self))
        case .uuid:
            let uuid = try cell.decode(UUID.self).uuid
            return .blob(withUnsafeBytes(of: uuid) { Data($0) })
        case .data: return .blob(try cell.decode(Data.self))
        }
    }
}
