import Foundation
import GRDB

/// How values of one Swift type are written to and read from an SQLite column.
///
/// Built once per attribute from the attribute's value type, then used for every row, so the
/// per-value work is a cast and a conversion, never reflection:
///
/// | Swift type | stored as |
/// |---|---|
/// | `Bool`, every `Int` width, `UInt8/16/32` | `INTEGER` |
/// | `UInt`, `UInt64` | `INTEGER` holding the bit pattern (round-trips; sorts as signed) |
/// | `Double`, `Float` | `REAL` |
/// | `Date` | `REAL`, seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) |
/// | `String` | `TEXT` |
/// | `Decimal` | `TEXT`, its exact decimal digits |
/// | `URL` | `TEXT`, its absolute string |
/// | `UUID` | `BLOB` of 16 bytes |
/// | `Data` | `BLOB` |
/// | `RawRepresentable` with one of the above as raw value | its raw value |
/// | any other `Codable` (structs, enums, arrays, dictionaries) | `TEXT` holding JSON |
///
/// An optional type stores `nil` as `NULL` and anything else as its wrapped type does.
final class ValueCodec: @unchecked Sendable {
    /// What the column holds, as recorded in the schema snapshot and its fingerprint.
    let storage: StorageType
    /// Whether the Swift type is an `Optional`; `NULL` then reads back as `nil`.
    let isOptional: Bool
    /// The Swift type's name, for error messages.
    let typeName: String
    private let encodeValue: (Any) throws -> DatabaseValue
    private let decodeValue: (DatabaseValue) throws -> Any
    private let nilValue: Any?

    /// Converts a value of the codec's type, or (for an optional codec) an `Optional` of it, to
    /// what the column stores.
    func encode(_ value: Any) throws -> DatabaseValue {
        // A non-optional codec's values are never `nil`; the cast below would only cost time.
        guard isOptional else { return try encodeValue(value) }
        if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrappedValue else { return .null }
            return try encodeValue(wrapped)
        }
        return try encodeValue(value)
    }

    /// Converts a stored column value back to the codec's type; the result can be cast with
    /// `as!` to the property's declared type.
    func decode(_ databaseValue: DatabaseValue) throws -> Any {
        if databaseValue.isNull {
            if let nilValue { return nilValue }
            throw ValueCodecError.unexpectedNull(typeName: typeName)
        }
        return try decodeValue(databaseValue)
    }

    /// The codec for values of `type`, or `nil` when the type cannot be stored in a column.
    static func forType(_ type: Any.Type) -> ValueCodec? {
        if let optional = type as? any OptionalProtocol.Type {
            guard let wrapped = forType(optional.wrappedType), !wrapped.isOptional else { return nil }
            return ValueCodec(
                storage: wrapped.storage, isOptional: true, typeName: "\(type)",
                encodeValue: wrapped.encodeValue, decodeValue: wrapped.decodeValue,
                nilValue: optional.noneValue)
        }
        if let primitive = primitive(type) { return primitive }
        if let rawRepresentable = type as? any RawRepresentable.Type,
           let codec = rawValueCodec(rawRepresentable) {
            return codec
        }
        if let codable = type as? any Codable.Type {
            return jsonCodec(codable)
        }
        return nil
    }

    private init(
        storage: StorageType, isOptional: Bool = false, typeName: String,
        encodeValue: @escaping (Any) throws -> DatabaseValue,
        decodeValue: @escaping (DatabaseValue) throws -> Any,
        nilValue: Any? = nil
    ) {
        self.storage = storage
        self.isOptional = isOptional
        self.typeName = typeName
        self.encodeValue = encodeValue
        self.decodeValue = decodeValue
        self.nilValue = nilValue
    }

    private static func primitive(_ type: Any.Type) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Bool.self): return integer(Bool.self, .bool) { $0 ? 1 : 0 } from: { $0 != 0 }
        case ObjectIdentifier(Int.self): return integer(Int.self, .int) { Int64($0) } from: { Int($0) }
        case ObjectIdentifier(Int8.self): return integer(Int8.self, .int8) { Int64($0) } from: { Int8(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int16.self): return integer(Int16.self, .int16) { Int64($0) } from: { Int16(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int32.self): return integer(Int32.self, .int32) { Int64($0) } from: { Int32(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int64.self): return integer(Int64.self, .int64) { $0 } from: { $0 }
        case ObjectIdentifier(UInt.self): return integer(UInt.self, .uint) { Int64(bitPattern: UInt64($0)) } from: { UInt(UInt64(bitPattern: $0)) }
        case ObjectIdentifier(UInt8.self): return integer(UInt8.self, .uint8) { Int64($0) } from: { UInt8(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt16.self): return integer(UInt16.self, .uint16) { Int64($0) } from: { UInt16(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt32.self): return integer(UInt32.self, .uint32) { Int64($0) } from: { UInt32(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt64.self): return integer(UInt64.self, .uint64) { Int64(bitPattern: $0) } from: { UInt64(bitPattern: $0) }
        case ObjectIdentifier(Double.self): return real(Double.self, .double) { $0 } from: { $0 }
        case ObjectIdentifier(Float.self): return real(Float.self, .float) { Double($0) } from: { Float($0) }
        case ObjectIdentifier(Date.self):
            return real(Date.self, .date) { $0.timeIntervalSinceReferenceDate } from: { Date(timeIntervalSinceReferenceDate: $0) }
        case ObjectIdentifier(String.self): return text(String.self, .string) { $0 } from: { $0 }
        case ObjectIdentifier(Decimal.self):
            return text(Decimal.self, .decimal) { $0.description } from: { text in
                guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw ValueCodecError.unreadable(typeName: "Decimal", stored: text)
                }
                return value
            }
        case ObjectIdentifier(URL.self):
            return text(URL.self, .url) { $0.absoluteString } from: { text in
                guard let url = URL(string: text) else {
                    throw ValueCodecError.unreadable(typeName: "URL", stored: text)
                }
                return url
            }
        case ObjectIdentifier(UUID.self):
            return blob(UUID.self, .uuid) { uuid in
                withUnsafeBytes(of: uuid.uuid) { Data($0) }
            } from: { data in
                guard data.count == 16 else {
                    throw ValueCodecError.unreadable(typeName: "UUID", stored: "\(data.count) bytes")
                }
                var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
                return UUID(uuid: uuid)
            }
        case ObjectIdentifier(Data.self): return blob(Data.self, .data) { $0 } from: { $0 }
        default: return nil
        }
    }

    private static func integer<T>(
        _: T.Type, _ storage: StorageType, _ to: @escaping (T) -> Int64, from: @escaping (Int64) -> T
    ) -> ValueCodec {
        ValueCodec(storage: storage, typeName: "\(T.self)") { value in
            to(value as! T).databaseValue
        } decodeValue: { databaseValue in
            guard case .int64(let int) = databaseValue.storage else {
                throw ValueCodecError.unreadable(typeName: "\(T.self)", stored: "\(databaseValue)")
            }
            return from(int)
        }
    }

    private static func real<T>(
        _: T.Type, _ storage: StorageType, _ to: @escaping (T) -> Double, from: @escaping (Double) -> T
    ) -> ValueCodec {
        ValueCodec(storage: storage, typeName: "\(T.self)") { value in
            to(value as! T).databaseValue
        } decodeValue: { databaseValue in
            switch databaseValue.storage {
            case .double(let double): return from(double)
            case .int64(let int): return from(Double(int))
            default: throw ValueCodecError.unreadable(typeName: "\(T.self)", stored: "\(databaseValue)")
            }
        }
    }

    private static func text<T>(
        _: T.Type, _ storage: StorageType, _ to: @escaping (T) -> String, from: @escaping (String) throws -> T
    ) -> ValueCodec {
        ValueCodec(storage: storage, typeName: "\(T.self)") { value in
            to(value as! T).databaseValue
        } decodeValue: { databaseValue in
            guard case .string(let string) = databaseValue.storage else {
                throw ValueCodecError.unreadable(typeName: "\(T.self)", stored: "\(databaseValue)")
            }
            return try from(string)
        }
    }

    private static func blob<T>(
        _: T.Type, _ storage: StorageType, _ to: @escaping (T) -> Data, from: @escaping (Data) throws -> T
    ) -> ValueCodec {
        ValueCodec(storage: storage, typeName: "\(T.self)") { value in
            to(value as! T).databaseValue
        } decodeValue: { databaseValue in
            guard case .blob(let data) = databaseValue.storage else {
                throw ValueCodecError.unreadable(typeName: "\(T.self)", stored: "\(databaseValue)")
            }
            return try from(data)
        }
    }

    private static func rawValueCodec<R: RawRepresentable>(_ type: R.Type) -> ValueCodec? {
        guard let raw = primitive(R.RawValue.self) else { return nil }
        return ValueCodec(storage: raw.storage, typeName: "\(R.self)") { value in
            try raw.encodeValue((value as! R).rawValue)
        } decodeValue: { databaseValue in
            let rawValue = try raw.decodeValue(databaseValue) as! R.RawValue
            guard let value = R(rawValue: rawValue) else {
                throw ValueCodecError.unreadable(typeName: "\(R.self)", stored: "\(rawValue)")
            }
            return value
        }
    }

    private static func jsonCodec<T: Codable>(_ type: T.Type) -> ValueCodec {
        ValueCodec(storage: .codable, typeName: "\(T.self)") { value in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let data = try encoder.encode(value as! T)
            return String(decoding: data, as: UTF8.self).databaseValue
        } decodeValue: { databaseValue in
            guard case .string(let json) = databaseValue.storage else {
                throw ValueCodecError.unreadable(typeName: "\(T.self)", stored: "\(databaseValue)")
            }
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        }
    }
}

/// A stored value that cannot become the Swift type the model declares.
enum ValueCodecError: Error, CustomStringConvertible {
    case unexpectedNull(typeName: String)
    case unreadable(typeName: String, stored: String)

    var description: String {
        switch self {
        case .unexpectedNull(let typeName):
            "the store holds NULL where the model declares a non-optional \(typeName)"
        case .unreadable(let typeName, let stored):
            "the stored value \(stored) cannot be read as \(typeName)"
        }
    }
}
