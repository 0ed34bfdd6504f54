import Foundation

/// What a column holds for an attribute: the logical type recorded in a store's schema
/// snapshot and covered by its fingerprint.
///
/// Two attributes with the same storage type hold interchangeable values, so a change of Swift
/// type that keeps the storage type (an `enum` with `String` raw values replacing a `String`)
/// needs no migration, while one that changes it (`String` to `Int`) does.
package enum StorageType: String, Codable, Hashable, Sendable {
    case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
    case double, float, decimal, string, date, url, uuid, data
    /// A `Codable` value kept as JSON text.
    case codable
}

extension StorageType {
    /// What a new non-optional attribute's rows start with when a custom stage will fill it:
    /// 0, false, "", empty data, the reference date, the zero UUID; `nil` for a `Codable` value,
    /// which has no empty form.
    package var emptyStoredValue: StoredValue? {
        switch self {
        case .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64: .integer(0)
        case .double, .float, .date: .real(0)
        case .string, .url: .text("")
        case .decimal: .text(OrderedDecimalText.zero)
        case .data: .blob(Data())
        case .uuid: .blob(Data(count: 16))
        case .codable: nil
        }
    }
}
