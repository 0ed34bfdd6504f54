import Foundation

/// How values of one Swift type are written to and read from an SQLite column; which type
/// becomes what is in the DocC article HowValuesAreStored.
///
/// Built once per attribute type and used for every row: no reflection per value. Reading
/// returns exactly the codec's type (or `Optional` of it), which the store casts with `as!`.
/// What a type is stored as is part of every store written with it: changing it changes
/// ``storage`` and the schema's fingerprint, and needs a migration.
package final class ValueCodec: @unchecked Sendable {
    /// What the column holds, as recorded in the schema snapshot and its fingerprint.
    package let storage: StorageType
    /// Whether the Swift type is an `Optional`; `NULL` then reads back as `nil`.
    let isOptional: Bool
    /// The Swift type's name, for error messages.
    let typeName: String
    /// How a non-`NULL` column value becomes the Swift value.
    let reading: Reading
    /// How a non-`nil` Swift value becomes the column value.
    let writing: Writing
    /// What `NULL` reads as: `Optional.none` of the type; `nil` when the type is not optional.
    let nilValue: Any?
    /// For `Int`, `Double` and `String` (or an optional of one), the type itself: these are
    /// stored as they are, and the store reads and writes them with the C call for the type
    /// instead of through `reading` and `writing`. Any such type must be stored exactly as
    /// `reading` and `writing` would store it.
    let identityType: IdentityType?
    /// Whether the type is one of the table's own (`Bool` to `Data`) or an optional of one:
    /// plain values, which two models reading one row can share instead of each decoding it.
    let isPrimitive: Bool

    /// A Swift type SQLite stores without conversion.
    enum IdentityType {
        case int, double, string
    }

    /// The conversion from a column's value, by the SQLite storage class the codec writes.
    ///
    /// The store reads a fetched column with the C call for its storage class and hands the
    /// result straight to the closure, so no intermediate value is built per column.
    enum Reading {
        case integer((Int64) throws -> Any)
        case real((Double) throws -> Any)
        case text((String) throws -> Any)
        /// Called with the blob's bytes, which are valid only during the call.
        case blob((UnsafeRawBufferPointer) throws -> Any)

        /// The same storage class, with `transform` applied to each value read.
        func then(_ transform: @escaping (Any) throws -> Any) -> Reading {
            switch self {
            case .integer(let read): .integer { try transform(read($0)) }
            case .real(let read): .real { try transform(read($0)) }
            case .text(let read): .text { try transform(read($0)) }
            case .blob(let read): .blob { try transform(read($0)) }
            }
        }
    }

    /// The conversion to a column's value, by SQLite storage class.
    enum Writing {
        case integer((Any) throws -> Int64)
        case real((Any) throws -> Double)
        case text((Any) throws -> String)
        case blob((Any) throws -> Data)

        /// The same storage class, with `transform` applied to each value before it is written.
        func after(_ transform: @escaping (Any) throws -> Any) -> Writing {
            switch self {
            case .integer(let write): .integer { try write(transform($0)) }
            case .real(let write): .real { try write(transform($0)) }
            case .text(let write): .text { try write(transform($0)) }
            case .blob(let write): .blob { try write(transform($0)) }
            }
        }
    }

    /// The non-`nil` value wrapped in `value` when it is an `Optional` of the codec's type;
    /// `nil` for `Optional.none`; `value` itself otherwise.
    func unwrapped(_ value: Any) -> Any? {
        // A non-optional codec's values are never `nil`; the cast below would only cost time.
        guard isOptional, let optional = value as? any OptionalProtocol else { return value }
        return optional.wrappedValue
    }

    /// Converts a value of the codec's type, or (for an optional codec) an `Optional` of it, to
    /// what the column stores.
    package func encode(_ value: Any) throws -> StoredValue {
        guard let value = unwrapped(value) else { return .null }
        switch writing {
        case .integer(let write): return .integer(try write(value))
        case .real(let write): return .real(try write(value))
        case .text(let write): return .text(try write(value))
        case .blob(let write): return .blob(try write(value))
        }
    }

    /// What a new non-optional attribute's rows start with when a migration's custom stage will
    /// fill it: its storage's empty value, when the codec reads it back (an enum may have no
    /// case for ""); `nil` otherwise.
    package var emptyStoredValue: StoredValue? {
        guard let empty = storage.emptyStoredValue, (try? decode(empty)) != nil else { return nil }
        return empty
    }

    /// Converts a stored column value back to the codec's type; the result can be cast with
    /// `as!` to the property's declared type.
    package func decode(_ stored: StoredValue) throws -> Any {
        switch (reading, stored) {
        case (_, .null):
            if let nilValue { return nilValue }
            throw ValueCodecError.unexpectedNull(typeName: typeName)
        case (.integer(let read), .integer(let int)): return try read(int)
        case (.real(let read), .real(let double)): return try read(double)
        case (.real(let read), .integer(let int)): return try read(Double(int))
        case (.text(let read), .text(let string)): return try read(string)
        case (.blob(let read), .blob(let data)): return try data.withUnsafeBytes { try read($0) }
        default: throw ValueCodecError.unreadable(typeName: typeName, stored: "\(stored.databaseValue)")
        }
    }

    /// The codec for values of `type`, or `nil` when the type cannot be stored in a column.
    ///
    /// - Parameter codable: whether the attribute is `@Attribute(.codable)`: a `Codable` type is
    ///   then stored as JSON, even one the store holds otherwise.
    package static func forType(_ type: Any.Type, codable: Bool = false) -> ValueCodec? {
        if let optional = type as? any OptionalProtocol.Type {
            guard let wrapped = forType(optional.wrappedType, codable: codable), !wrapped.isOptional else { return nil }
            return ValueCodec(
                storage: wrapped.storage, typeName: "\(type)", reading: wrapped.reading, writing: wrapped.writing,
                nilValue: optional.noneValue, identityType: wrapped.identityType, isPrimitive: wrapped.isPrimitive)
        }
        if codable {
            return (type as? any Codable.Type).map { jsonCodec($0) }
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
        storage: StorageType, typeName: String, reading: Reading, writing: Writing, nilValue: Any? = nil,
        identityType: IdentityType? = nil, isPrimitive: Bool = false
    ) {
        self.storage = storage
        isOptional = nilValue != nil
        self.typeName = typeName
        self.reading = reading
        self.writing = writing
        self.nilValue = nilValue
        self.identityType = identityType
        self.isPrimitive = isPrimitive
    }

    private static func primitive(_ type: Any.Type) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Bool.self): return integer(Bool.self, .bool) { $0 ? 1 : 0 } from: { $0 != 0 }
        case ObjectIdentifier(Int.self): return integer(Int.self, .int, identity: .int) { Int64($0) } from: { Int($0) }
        case ObjectIdentifier(Int8.self): return integer(Int8.self, .int8) { Int64($0) } from: { Int8(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int16.self): return integer(Int16.self, .int16) { Int64($0) } from: { Int16(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int32.self): return integer(Int32.self, .int32) { Int64($0) } from: { Int32(truncatingIfNeeded: $0) }
        case ObjectIdentifier(Int64.self): return integer(Int64.self, .int64) { $0 } from: { $0 }
        case ObjectIdentifier(UInt.self): return integer(UInt.self, .uint) { Int64(bitPattern: UInt64($0)) } from: { UInt(UInt64(bitPattern: $0)) }
        case ObjectIdentifier(UInt8.self): return integer(UInt8.self, .uint8) { Int64($0) } from: { UInt8(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt16.self): return integer(UInt16.self, .uint16) { Int64($0) } from: { UInt16(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt32.self): return integer(UInt32.self, .uint32) { Int64($0) } from: { UInt32(truncatingIfNeeded: $0) }
        case ObjectIdentifier(UInt64.self): return integer(UInt64.self, .uint64) { Int64(bitPattern: $0) } from: { UInt64(bitPattern: $0) }
        case ObjectIdentifier(Double.self): return real(Double.self, .double, identity: .double) { $0 } from: { $0 }
        case ObjectIdentifier(Float.self): return real(Float.self, .float) { Double($0) } from: { Float($0) }
        case ObjectIdentifier(Date.self):
            return real(Date.self, .date) { $0.timeIntervalSinceReferenceDate } from: { Date(timeIntervalSinceReferenceDate: $0) }
        case ObjectIdentifier(String.self): return text(String.self, .string, identity: .string) { $0 } from: { $0 }
        case ObjectIdentifier(Decimal.self):
            return text(Decimal.self, .decimal) { OrderedDecimalText.text(for: $0) } from: { text in
                guard let value = OrderedDecimalText.decimal(from: text) else {
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
            } from: { bytes in
                guard let uuid = UUID(storedBytes: bytes) else {
                    throw ValueCodecError.unreadable(typeName: "UUID", stored: "\(bytes.count) bytes")
                }
                return uuid
            }
        case ObjectIdentifier(Data.self): return blob(Data.self, .data) { $0 } from: { Data($0) }
        default: return nil
        }
    }

    /// A codec storing values of `T` as integers the closures compute: for values that stand
    /// for a number in the store (a history token is a transaction's number).
    static func integer<T>(_ type: T.Type, write: @escaping (T) -> Int64, read: @escaping (Int64) -> Any) -> ValueCodec {
        integer(type, .int64, write, from: read)
    }

    private static func integer<T>(
        _: T.Type, _ storage: StorageType, identity: IdentityType? = nil, _ to: @escaping (T) -> Int64, from: @escaping (Int64) -> Any
    ) -> ValueCodec {
        ValueCodec(
            storage: storage, typeName: "\(T.self)", reading: .integer(from), writing: .integer { to(unbox($0, as: T.self)) },
            identityType: identity, isPrimitive: true)
    }

    private static func real<T>(
        _: T.Type, _ storage: StorageType, identity: IdentityType? = nil, _ to: @escaping (T) -> Double, from: @escaping (Double) -> Any
    ) -> ValueCodec {
        ValueCodec(
            storage: storage, typeName: "\(T.self)", reading: .real(from), writing: .real { to(unbox($0, as: T.self)) },
            identityType: identity, isPrimitive: true)
    }

    private static func text<T>(
        _: T.Type, _ storage: StorageType, identity: IdentityType? = nil, _ to: @escaping (T) -> String, from: @escaping (String) throws -> Any
    ) -> ValueCodec {
        ValueCodec(
            storage: storage, typeName: "\(T.self)", reading: .text(from), writing: .text { to(unbox($0, as: T.self)) },
            identityType: identity, isPrimitive: true)
    }

    private static func blob<T>(
        _: T.Type, _ storage: StorageType, _ to: @escaping (T) -> Data, from: @escaping (UnsafeRawBufferPointer) throws -> Any
    ) -> ValueCodec {
        ValueCodec(storage: storage, typeName: "\(T.self)", reading: .blob(from), writing: .blob { to(unbox($0, as: T.self)) },
            isPrimitive: true)
    }

    private static func rawValueCodec<R: RawRepresentable>(_ type: R.Type) -> ValueCodec? {
        guard let raw = primitive(R.RawValue.self) else { return nil }
        let reading = raw.reading.then { rawValue in
            guard let value = R(rawValue: unbox(rawValue, as: R.RawValue.self)) else {
                throw ValueCodecError.unreadable(typeName: "\(R.self)", stored: "\(rawValue)")
            }
            return value
        }
        return ValueCodec(
            storage: raw.storage, typeName: "\(R.self)", reading: reading, writing: raw.writing.after { unbox($0, as: R.self).rawValue })
    }

    private static func jsonCodec<T: Codable>(_ type: T.Type) -> ValueCodec {
        ValueCodec(storage: .codable, typeName: "\(T.self)", reading: .text { json in
            try JSONDecoder().decode(T.self, from: Data(json.utf8))
        }, writing: .text { value in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(unbox(value, as: T.self)), as: UTF8.self)
        })
    }
}

/// A stored value that cannot become the Swift type the model declares.
enum ValueCodecError: Error, CustomStringConvertible {
    case unexpectedNull(typeName: String)
    case unreadable(typeName: String, stored: String)
    /// A floating-point NaN, which SQLite cannot store.
    case notANumber

    var description: String {
        switch self {
        case .unexpectedNull(let typeName):
            "the store holds NULL where the model declares a non-optional \(typeName)"
        case .unreadable(let typeName, let stored):
            "the stored value \(stored) cannot be read as \(typeName)"
        case .notANumber:
            "its value is NaN, which SQLite cannot store (it would read back as nil); nothing was saved. Store nil in an optional attribute, or a number, instead"
        }
    }
}
