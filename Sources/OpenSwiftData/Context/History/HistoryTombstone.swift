import Foundation

/// What a deleted model left in the history: the values of its attributes marked
/// `@Attribute(.preserveValueOnDeletion)`, by key path. The others are gone.
public struct HistoryTombstone<Model>: Sequence, @unchecked Sendable where Model: PersistentModel {
    /// The kept values, in the order the model declares its attributes.
    let values: [(keyPath: AnyKeyPath, value: Any)]

    /// The kept value of the attribute at `keyPath`; `nil` when it was not kept (or was `nil`).
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        guard let value = values.first(where: { $0.keyPath == keyPath })?.value else { return nil }
        if let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrappedValue else { return nil }
            return Self.sendable(wrapped)
        }
        return Self.sendable(value)
    }

    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[(keyPath: AnyKeyPath, value: Any)]>
        public mutating func next() -> Any? { base.next()?.value }
    }

    /// The kept values.
    public func makeIterator() -> Iterator { Iterator(base: values.makeIterator()) }

    /// A stored value as the `Sendable` it is: the types an attribute stores are value types
    /// of the standard library and Foundation, or raw-valued enums of them; another (a
    /// `Codable` struct) comes boxed in a ``TombstoneValue``.
    private static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let value as String: value
        case let value as Int: value
        case let value as Int64: value
        case let value as Int32: value
        case let value as Int16: value
        case let value as Int8: value
        case let value as UInt: value
        case let value as UInt64: value
        case let value as UInt32: value
        case let value as UInt16: value
        case let value as UInt8: value
        case let value as Double: value
        case let value as Float: value
        case let value as Bool: value
        case let value as Date: value
        case let value as Data: value
        case let value as UUID: value
        case let value as URL: value
        case let value as Decimal: value
        default: TombstoneValue(value: value)
        }
    }
}

/// A preserved value of a type a tombstone cannot prove `Sendable` (a `Codable` struct, an
/// enum): the value is in ``value``.
public struct TombstoneValue: @unchecked Sendable {
    public let value: Any
}
