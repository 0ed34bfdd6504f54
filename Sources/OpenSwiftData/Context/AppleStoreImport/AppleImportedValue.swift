import Foundation

/// A value of a store Apple's SwiftData wrote, as the app's property holds it: the column's
/// value, read by the Apple model's attribute type, handed to the property's codec as the
/// value OpenSwiftData stores for it (the two layouts store dates, UUIDs, URLs, strings and
/// numbers alike), or decoded into the property's `Codable` type from a property list.
enum AppleImportedValue {
    /// The OpenSwiftData storage each Apple attribute type can become, without losing a value.
    private static let compatible: [String: Set<StorageType>] = {
        let integers: Set<StorageType> = [.int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64]
        return [
            "Int16": integers.union([.double, .float, .decimal]),
            "Int32": integers.union([.double, .float, .decimal]),
            "Int64": integers.union([.double, .decimal]),
            "Bool": [.bool],
            "Double": [.double, .decimal],
            "Float": [.float, .double, .decimal],
            "Decimal": [.decimal, .double],
            "String": [.string],
            "Date": [.date],
            "Data": [.data, .codable],
            "UUID": [.uuid],
            "URL": [.url, .string],
            "Transformable": [.data, .codable],
        ]
    }()

    /// Why an attribute the Apple store keeps as `appleType` cannot become a property stored as
    /// `storage`; `nil` when it can.
    static func incompatibility(appleType: String, storage: StorageType, typeName: String) -> String? {
        guard let allowed = compatible[appleType] else {
            let kind = appleType == "Composite"
                ? "a composite attribute (a Codable struct SwiftData keeps in several columns), which this import does not read yet"
                : "of Core Data's type \(appleType), which this import does not read"
            return "the Apple store keeps it as \(kind)"
        }
        guard allowed.contains(storage) else {
            return "the Apple store keeps it as \(appleType) and the models declare \(typeName); the import converts only where no value can change: declare it as the Apple version did"
        }
        return nil
    }

    /// The property's value for a row's `stored` column value; `nil` for `NULL` (the caller
    /// fills the row's value).
    ///
    /// - Throws: a description of why the value cannot be the property's, for the caller to
    ///   place (entity, property, row).
    static func value(_ stored: StoredValue, of attribute: AppleStoreImportMapping.Attribute, type appleType: String, tables: AppleStoreTables) throws -> Any? {
        try value(stored, codec: attribute.codec, valueType: attribute.property.valueType, isExternal: attribute.isExternal, type: appleType, tables: tables)
    }

    /// The value of type `valueType`, which `codec` stores, for a row's `stored` column value;
    /// `nil` for `NULL`. `isExternal`: the Apple store keeps the value in the row or in a file
    /// beside it, as a tagged reference.
    static func value(
        _ stored: StoredValue, codec: ValueCodec, valueType: Any.Type, isExternal: Bool, type appleType: String, tables: AppleStoreTables
    ) throws -> Any? {
        switch (codec.storage, stored) {
        case (_, .null):
            return nil
        case (.codable, .blob(let data)):
            return try decodedPropertyList(data, as: valueType)
        case (.data, .blob(let data)) where isExternal:
            let external: Data?
            do {
                external = try tables.externalValue(data)
            } catch let error as SwiftDataError {
                throw Failure(error.explanation ?? "\(error)")
            }
            guard let bytes = external else {
                throw Failure("its value is neither kept in the row (a first byte of 1) nor in a file (a first byte of 2)")
            }
            return try codec.decode(.blob(bytes))
        case (.decimal, .real(let real)):
            // Core Data keeps decimals as doubles: the shortest text that reads back as the
            // double is the decimal the app stored.
            guard let decimal = Decimal(string: "\(real)", locale: Locale(identifier: "en_US_POSIX")) else { throw Failure("\(real) is not a decimal") }
            return try codec.decode(codec.encode(decimal))
        case (.decimal, .integer(let integer)):
            return try codec.decode(codec.encode(Decimal(integer)))
        case (.decimal, .text(let text)):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw Failure("\"\(text)\" is not a decimal") }
            return try codec.decode(codec.encode(decimal))
        case (.double, .integer(let integer)), (.float, .integer(let integer)):
            return try codec.decode(.real(Double(integer)))
        case (.int, .integer(let integer)), (.int64, .integer(let integer)):
            return try codec.decode(.integer(integer))
        case (.int8, .integer(let integer)), (.int16, .integer(let integer)), (.int32, .integer(let integer)),
             (.uint, .integer(let integer)), (.uint8, .integer(let integer)), (.uint16, .integer(let integer)),
             (.uint32, .integer(let integer)), (.uint64, .integer(let integer)):
            guard fits(integer, codec.storage) else { throw Failure("\(integer) does not fit in \(codec.typeName)") }
            return try codec.decode(.integer(integer))
        case (.bool, .integer(let integer)):
            guard integer == 0 || integer == 1 else { throw Failure("\(integer) is not a Boolean (0 or 1)") }
            return try codec.decode(.integer(integer))
        case (.uuid, .blob(let data)) where data.count != 16:
            throw Failure("a UUID of \(data.count) bytes (16 expected)")
        default:
            do {
                return try codec.decode(stored)
            } catch {
                throw Failure("\(PlanBuilder.describe(stored)) (\(appleType)) cannot be read as \(codec.typeName): \(error)")
            }
        }
    }

    /// Whether `integer` is within the range of the integer type `storage` names.
    private static func fits(_ integer: Int64, _ storage: StorageType) -> Bool {
        switch storage {
        case .int8: Int8(exactly: integer) != nil
        case .int16: Int16(exactly: integer) != nil
        case .int32: Int32(exactly: integer) != nil
        case .uint, .uint64: integer >= 0
        case .uint8: UInt8(exactly: integer) != nil
        case .uint16: UInt16(exactly: integer) != nil
        case .uint32: UInt32(exactly: integer) != nil
        default: true
        }
    }

    /// A `Codable` property's value from the property list SwiftData keeps it as (a binary
    /// property list, or a keyed archive of plain values, which is read as one).
    private static func decodedPropertyList(_ data: Data, as type: Any.Type) throws -> Any {
        let wrapped = (type as? any OptionalProtocol.Type)?.wrappedType ?? type
        guard let decodable = wrapped as? any Decodable.Type else { throw Failure("\(wrapped) is not Decodable") }
        let plist = KeyedArchive.plainPropertyList(from: data) ?? data
        func decode<T: Decodable>(_: T.Type) throws -> Any { try PropertyListDecoder().decode(T.self, from: plist) }
        do {
            return try decode(decodable)
        } catch {
            throw Failure("its \(data.count) bytes are not a property list of \(wrapped): \(error)")
        }
    }

    /// Why a value cannot be brought over.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
