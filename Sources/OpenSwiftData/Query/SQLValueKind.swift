import Foundation
import Synchronization

/// How SQLite compares, orders and computes with the values of one Swift type, given how
/// ``ValueCodec`` stores them; the table is in the DocC article Predicates ("How values
/// compare").
///
/// The translators consult it before emitting an operator: an operator is used only where
/// SQLite's meaning of it, on the stored form, is Swift's.
struct SQLValueKind {
    enum Storage: Equatable {
        case boolean
        /// Signed integers and the unsigned ones that fit in 63 bits.
        case integer
        /// `UInt` and `UInt64`, stored as the signed integer with the same bit pattern.
        case unsignedBitPattern
        case real
        /// `Float`, stored widened to a double.
        case float
        case text
        case blob
        /// `Decimal`, stored as ``OrderedDecimalText``: its text orders as the values do.
        case decimal
        case json
        /// Nothing SQLite can hold (a model, a closure, a nested optional…).
        case unsupported
    }

    let storage: Storage
    /// The type without its `Optional`.
    let wrappedType: Any.Type
    /// Whether the Swift type is an `Optional`, so the SQL value may be `NULL`.
    let isOptional: Bool
    /// Whether values are stored as the raw value of a `RawRepresentable` type.
    let isRawRepresentable: Bool

    init(_ type: Any.Type) {
        var wrapped = type
        var optional = false
        if let optionalType = type as? any OptionalProtocol.Type {
            wrapped = optionalType.wrappedType
            optional = true
        }
        self.wrappedType = wrapped
        self.isOptional = optional
        self.isRawRepresentable = wrapped is any RawRepresentable.Type
        if wrapped is any StoredAsInteger.Type {
            storage = .integer
            return
        }
        guard let codec = ValueCodec.forType(type) else {
            self.storage = .unsupported
            return
        }
        switch codec.storage {
        case .bool: storage = .boolean
        case .int, .int8, .int16, .int32, .int64, .uint8, .uint16, .uint32: storage = .integer
        case .uint, .uint64: storage = .unsignedBitPattern
        case .double, .date: storage = .real
        case .float: storage = .float
        case .string, .url: storage = .text
        case .uuid, .data: storage = .blob
        case .decimal: storage = .decimal
        case .codable: storage = .json
        }
    }

    /// The type's name as people write it, for error messages.
    var typeName: String { readableTypeName(wrappedType) + (isOptional ? "?" : "") }

    /// Whether `==` in SQL (on the stored form) means `==` in Swift.
    var supportsEquality: Bool {
        switch storage {
        case .json, .unsupported: false
        default: true
        }
    }

    /// Whether `<` in SQL (on the stored form) means `<` in Swift, for a `Comparable` type.
    var supportsOrdering: Bool {
        switch storage {
        case .integer, .unsignedBitPattern, .real, .float, .text, .blob, .decimal: true
        case .boolean, .json, .unsupported: false
        }
    }

    /// Whether `+ - * /` in SQL compute what Swift computes (barring overflow, which traps in
    /// Swift for integers and gives NaN for decimals). Decimals compute through
    /// ``QueryFunctions``, with `Decimal`'s own operators.
    var supportsArithmetic: Bool {
        !isRawRepresentable && (storage == .integer || storage == .real || storage == .float || storage == .decimal)
    }

    var isString: Bool { ObjectIdentifier(wrappedType) == ObjectIdentifier(String.self) }
    /// Whether the values are model identifiers, compared by the row they name.
    var isPersistentIdentifier: Bool { ObjectIdentifier(wrappedType) == ObjectIdentifier(PersistentIdentifier.self) }
    /// Whether the values are models (a to-one relationship's value).
    var isModel: Bool { wrappedType is any PersistentModel.Type }
    var isData: Bool { ObjectIdentifier(wrappedType) == ObjectIdentifier(Data.self) }
}

/// `String(reflecting:)` without the module names of the standard library and Foundation, so
/// `PredicateExpressions.SequenceMaximum<PredicateExpressions.KeyPath<…>>` reads as written.
/// The user's own types keep their module: `PredicateExpressions.Variable<MyApp.Film>`.
func readableTypeName(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = readableTypeNames.withLock({ $0[key] }) { return name }
    let name = makeReadableTypeName(type)
    readableTypeNames.withLock { $0[key] = name }
    return name
}

/// The names ``readableTypeName(_:)`` made, by type: every fetch's translation names its model.
private let readableTypeNames = Mutex<[ObjectIdentifier: String]>([:])

private func makeReadableTypeName(_ type: Any.Type) -> String {
    var full = String(reflecting: type)
    // Types declared in extensions print as `(extension in OpenSwiftData):PredicateExpressions.…`.
    while let start = full.range(of: "(extension in "),
          let end = full.range(of: "):", range: start.upperBound..<full.endIndex) {
        full.removeSubrange(start.lowerBound..<end.upperBound)
    }
    let modules = ["FoundationEssentials.", "FoundationInternationalization.", "Foundation.", "Swift."]
    var result = ""
    var index = full.startIndex
    scanning: while index < full.endIndex {
        // Only a whole qualifier: at the start or after punctuation, never inside `MySwift.`.
        let continuesName = result.last.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ?? false
        if !continuesName {
            for module in modules where full[index...].hasPrefix(module) {
                index = full.index(index, offsetBy: module.count)
                continue scanning
            }
        }
        result.append(full[index])
        index = full.index(after: index)
    }
    return result
}

/// A type whose values the store holds as integers that order as the values do, through a
/// codec its column supplies (a history token: a transaction's number).
protocol StoredAsInteger {}
