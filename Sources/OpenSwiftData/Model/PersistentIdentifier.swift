import Foundation

/// The identity of a model: which store holds it, which entity it belongs to, and its row.
///
/// Identifiers are `Sendable`: pass them between actors and resolve them on the other side with
/// ``ModelContext/model(for:)`` or ``ModelContext/registeredModel(for:)``. A model that has
/// never been saved has a *temporary* identifier; its first successful save gives the same object
/// a permanent one, which stays valid across contexts, containers and launches.
///
/// Identifiers encode to JSON in the shape SwiftData uses:
/// `{"implementation":{"primaryKey":"p2","isTemporary":false,"entityName":"Film","storeIdentifier":"…","uriRepresentation":"x-coredata://…/Film/p2"}}`.
public struct PersistentIdentifier: Hashable, Identifiable, Comparable, Codable, Sendable {
    /// The opaque value that makes an identifier unique.
    public struct ID: Hashable, Sendable {
        let storeIdentifier: String?
        let entityName: String
        let key: Key
    }

    enum Key: Hashable, Comparable, Sendable {
        /// A row of a store: the row's integer primary key.
        case row(Int64)
        /// A model not yet saved.
        case temporary(UUID)
        /// An identifier made by ``identifier(for:entityName:primaryKey:)`` for another store.
        case custom(String)

        static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.sortKey < rhs.sortKey
        }

        private var sortKey: (Int, Int64, String) {
            switch self {
            case .row(let row): (0, row, "")
            case .temporary(let uuid): (1, 0, uuid.uuidString)
            case .custom(let key): (2, 0, key)
            }
        }
    }

    public let id: ID

    /// The name of the model's entity: its class's unqualified name.
    public var entityName: String { id.entityName }

    /// The identifier of the store holding the model, or `nil` for an unsaved model.
    public var storeIdentifier: String? { id.storeIdentifier }

    init(storeIdentifier: String?, entityName: String, key: Key) {
        id = ID(storeIdentifier: storeIdentifier, entityName: entityName, key: key)
    }

    /// A temporary identifier for an unsaved model of `entityName`: a new one, or the one
    /// whose key is `key`.
    static func temporary(entityName: String, key: UUID = UUID()) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: nil, entityName: entityName, key: .temporary(key))
    }

    /// Whether the model has never been saved.
    var isTemporary: Bool {
        if case .temporary = id.key { return true }
        return false
    }

    /// The key of a temporary identifier.
    var temporaryKey: UUID? {
        if case .temporary(let key) = id.key { return key }
        return nil
    }

    /// The row's primary key when the identifier names a row of one of our stores.
    var rowID: Int64? {
        if case .row(let rowID) = id.key { return rowID }
        return nil
    }

    /// An identifier for a model kept by a custom data store, made from the store's own key.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The identifier of the store that keeps the model.
    ///   - entityName: The name of the model's entity.
    ///   - primaryKey: The store's own key for the model; its `description` becomes the
    ///     identifier's key.
    /// - Returns: An identifier that names no row of an OpenSwiftData store.
    /// - Throws: Nothing here; the function throws in SwiftData's signature.
    public static func identifier<T>(
        for storeIdentifier: String, entityName: String, primaryKey: T
    ) throws -> PersistentIdentifier
    where T: Codable & Comparable & CustomStringConvertible & Hashable {
        PersistentIdentifier(
            storeIdentifier: storeIdentifier, entityName: entityName, key: .custom(primaryKey.description))
    }

    /// Orders identifiers by store identifier, then entity name, then key: row keys in ascending
    /// order, before temporary identifiers, before the keys of other stores.
    ///
    /// - Parameters:
    ///   - lhs: An identifier.
    ///   - rhs: Another identifier.
    /// - Returns: Whether `lhs` comes before `rhs`.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        let left = (lhs.storeIdentifier ?? "", lhs.entityName)
        let right = (rhs.storeIdentifier ?? "", rhs.entityName)
        if left != right { return left < right }
        return lhs.id.key < rhs.id.key
    }

    // MARK: Codable, in SwiftData's shape

    private enum CodingKeys: String, CodingKey { case implementation }
    private enum ImplementationKeys: String, CodingKey {
        case primaryKey, isTemporary, entityName, storeIdentifier, uriRepresentation
    }

    /// Decodes an identifier from the JSON shape SwiftData uses (see the type's description).
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the `implementation` object, its `entityName` or its
    ///   `primaryKey` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let implementation = try container.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        let entityName = try implementation.decode(String.self, forKey: .entityName)
        let storeIdentifier = try implementation.decodeIfPresent(String.self, forKey: .storeIdentifier)
        let primaryKey = try implementation.decode(String.self, forKey: .primaryKey)
        let isTemporary = try implementation.decodeIfPresent(Bool.self, forKey: .isTemporary) ?? false
        let key: Key
        if isTemporary, primaryKey.hasPrefix("t"), let uuid = UUID(uuidString: String(primaryKey.dropFirst())) {
            key = .temporary(uuid)
        } else if primaryKey.hasPrefix("p"), let row = Int64(primaryKey.dropFirst()) {
            key = .row(row)
        } else {
            key = .custom(primaryKey)
        }
        self.init(storeIdentifier: storeIdentifier, entityName: entityName, key: key)
    }

    /// Encodes the identifier in the JSON shape SwiftData uses (see the type's description).
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var implementation = container.nestedContainer(keyedBy: ImplementationKeys.self, forKey: .implementation)
        let primaryKey: String
        switch id.key {
        case .row(let row): primaryKey = "p\(row)"
        case .temporary(let uuid): primaryKey = "t\(uuid.uuidString)"
        case .custom(let key): primaryKey = key
        }
        try implementation.encode(primaryKey, forKey: .primaryKey)
        try implementation.encode(isTemporary, forKey: .isTemporary)
        try implementation.encode(entityName, forKey: .entityName)
        try implementation.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        let store = storeIdentifier ?? "temporary"
        try implementation.encode("x-coredata://\(store)/\(entityName)/\(primaryKey)", forKey: .uriRepresentation)
    }
}

extension PersistentIdentifier: CustomStringConvertible {
    public var description: String {
        switch id.key {
        case .row(let row): "\(entityName)/p\(row)"
        case .temporary(let uuid): "\(entityName)/t\(uuid.uuidString) (unsaved)"
        case .custom(let key): "\(entityName)/\(key)"
        }
    }
}
