import Foundation
import SwiftData

/// One property the sync carries: an attribute or a to-one relationship (a register of
/// ``SyncedModelState``), or a to-many relationship (a set of links).
struct SyncedProperty {
    enum Kind: Equatable {
        case attribute
        /// A to-one relationship to models of the entity; its register holds the global
        /// identifier of the model it links to, or `null`.
        case toOne(destination: String)
        /// A to-many relationship to models of the entity; its links are by global identifier.
        case toMany(destination: String)
    }

    let name: String
    let keyPath: AnyKeyPath
    let kind: Kind
}

/// Key paths the sync can write through: the ones `@Model` properties have (get and set on a
/// class). The conformance opens the key path's value type, which `AnyKeyPath` hides.
protocol SyncWritableKeyPath {
    /// Sets the property of `model` to `value`; `false` when either is of the wrong type.
    func assign(_ value: Any, on model: AnyObject) -> Bool
    /// A value of the property's type, decoded from JSON.
    func decodeValue(from json: Data, decoder: JSONDecoder) throws -> Any
    /// `nil` of the property's type, when the type is optional.
    var noValue: Any? { get }
}

extension ReferenceWritableKeyPath: SyncWritableKeyPath {
    func assign(_ value: Any, on model: AnyObject) -> Bool {
        guard let root = model as? Root, let value = value as? Value else { return false }
        root[keyPath: self] = value
        return true
    }

    func decodeValue(from json: Data, decoder: JSONDecoder) throws -> Any {
        guard let type = Value.self as? any Decodable.Type else {
            throw SyncError.unsyncableValue(type: String(describing: Value.self))
        }
        return try Self.decode(type, from: json, decoder: decoder)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from json: Data, decoder: JSONDecoder) throws -> Any {
        try decoder.decode(type, from: json)
    }

    var noValue: Any? {
        (Value.self as? any NoValueProviding.Type)?.noValue
    }
}

/// Attributes' key paths, through which a model made by the sync gets its first values.
///
/// Writing through a key path reads the property first, and a new model's attribute without
/// a declared default has nothing to read yet: its first value goes in with `setValue`, as
/// the model's initializer would put it (no one observes a model being made).
protocol SyncInitialValueKeyPath {
    func setInitialValue(_ value: Any, on model: AnyObject) -> Bool
}

extension ReferenceWritableKeyPath: SyncInitialValueKeyPath where Root: PersistentModel, Value: Encodable {
    func setInitialValue(_ value: Any, on model: AnyObject) -> Bool {
        guard let root = model as? Root, let value = value as? Value else { return false }
        root.setValue(forKey: self, to: value)
        return true
    }
}

/// To-many relationships' key paths, for a new model's first members (its declared `= []` is
/// not its value: a model made with `init(backingData:)` has none).
protocol SyncInitialMembersKeyPath {
    func setInitialMembers(_ members: [any PersistentModel], on model: AnyObject) -> Bool
}

extension ReferenceWritableKeyPath: SyncInitialMembersKeyPath where Root: PersistentModel, Value: RelationshipCollection {
    func setInitialMembers(_ members: [any PersistentModel], on model: AnyObject) -> Bool {
        guard let root = model as? Root, let value = members as? Value else { return false }
        root.setValue(forKey: self, to: value)
        return true
    }
}

/// To-one relationships' key paths, for a new model's first link.
protocol SyncInitialLinkKeyPath {
    func setInitialLink(_ related: any PersistentModel, on model: AnyObject) -> Bool
}

extension ReferenceWritableKeyPath: SyncInitialLinkKeyPath where Root: PersistentModel {
    func setInitialLink(_ related: any PersistentModel, on model: AnyObject) -> Bool {
        guard let root = model as? Root else { return false }
        func link<M: PersistentModel>(_ related: M) -> Bool {
            if let keyPath = self as? ReferenceWritableKeyPath<Root, M?> {
                root.setValue(forKey: keyPath, to: related)
                return true
            }
            if let keyPath = self as? ReferenceWritableKeyPath<Root, M> {
                root.setValue(forKey: keyPath, to: related)
                return true
            }
            return false
        }
        return link(related)
    }
}

/// Optional types, whose `nil` the sync writes when a link or a value is gone.
protocol NoValueProviding {
    static var noValue: Any { get }
}

extension Optional: NoValueProviding {
    static var noValue: Any { Optional<Wrapped>.none as Any }
}
