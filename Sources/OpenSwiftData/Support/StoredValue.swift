import Foundation
import GRDB

/// A value as an SQLite column holds it: what a value codec turns a property's value into and
/// reads it back from, and what the store and the query translator hand to GRDB.
package enum StoredValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let int): self = .integer(int)
        case .double(let double): self = .real(double)
        case .string(let string): self = .text(string)
        case .blob(let data): self = .blob(data)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let int): int.databaseValue
        case .real(let double): double.databaseValue
        case .text(let string): string.databaseValue
        case .blob(let data): data.databaseValue
        }
    }
}
