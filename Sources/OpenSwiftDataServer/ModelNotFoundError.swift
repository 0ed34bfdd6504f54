import OpenSwiftData

/// No model has the identifier a request named: the servers' integrations answer 404 Not Found.
public struct ModelNotFoundError: Error, CustomStringConvertible, Sendable {
    /// The model's entity (class) name.
    public let entity: String
    /// How the request named it (an identifier, a key's value).
    public let identifier: String

    public init(_ type: any PersistentModel.Type, identifier: String) {
        entity = String(describing: type)
        self.identifier = identifier
    }

    public var description: String {
        "no \(entity) has the identifier \(identifier): it was deleted, or never saved"
    }
}

extension ModelContext {
    /// The model with `id`: the one this context holds, or one read from the store.
    ///
    /// - Throws: ``ModelNotFoundError`` when no row has the identifier (unlike `model(for:)`,
    ///   which returns a model for any identifier).
    public func existingModel<T: PersistentModel>(for id: PersistentIdentifier) throws -> T {
        guard let model = existingModel(for: id, as: T.self) else {
            throw ModelNotFoundError(T.self, identifier: "\(id)")
        }
        return model
    }
}
