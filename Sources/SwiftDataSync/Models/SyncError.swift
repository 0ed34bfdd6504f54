import Foundation

/// What went wrong while syncing, and where.
public enum SyncError: Error, CustomStringConvertible, Equatable {
    /// A model class the engine was given is not in the container's schema.
    case unknownModel(entity: String)
    /// An entity's property has a value the sync cannot carry (not `Codable`).
    case unsyncableProperty(entity: String, property: String, type: String)
    /// A value of a type that is not `Codable`; thrown while reading one property, and
    /// reported as ``unsyncableProperty(entity:property:type:)``.
    case unsyncableValue(type: String)
    /// A change names an entity the receiving side has no model class for.
    case unknownEntity(String, model: String)
    /// A change names a model under an entity other than the one it is known by.
    case entityMismatch(model: String, sent: String, known: String)
    /// A value received for a property could not be decoded as the property's type.
    case undecodableValue(entity: String, property: String, model: String, value: String, reason: String)
    /// The server answered a request with an error.
    case server(status: Int, message: String)
    /// The server did not answer `request` (`push`, `pull`) within the engine's bound
    /// (``SyncEngine/requestTimeout``); the sync is tried again.
    case timedOut(request: String, after: Duration)
    /// The server will not sync with this app as it is (``SyncRefusal``): `message` says why
    /// and what to do, in words for the app's user (update the app, for one).
    case refused(status: Int, message: String)

    public var description: String {
        switch self {
        case .unknownModel(let entity):
            "the model class \(entity) is not in the container's schema; give the sync the classes the container was made with"
        case .unsyncableProperty(let entity, let property, let type):
            "\(entity).\(property) is of type \(type), which is not Codable, so the sync cannot carry it; make the type Codable or mark the property @Transient"
        case .unsyncableValue(let type):
            "a value of type \(type) is not Codable, so the sync cannot carry it"
        case .unknownEntity(let entity, let model):
            "a change names the entity \(entity) (model \(model)), which no model class given to the sync has; give it every synced class"
        case .entityMismatch(let model, let sent, let known):
            "a change names model \(model) as a \(sent), but it is a \(known); a model keeps its entity for good, so the change was not merged"
        case .undecodableValue(let entity, let property, let model, let value, let reason):
            "the value \(value) received for \(entity).\(property) of model \(model) is not a value of the property's type (\(reason)); the devices and the server disagree on the model's declaration"
        case .server(let status, let message):
            "the sync server answered \(status): \(message)"
        case .timedOut(let request, let bound):
            "the sync server did not answer a \(request) within \(bound.components.seconds) s; the sync is tried again (check the network and the server)"
        case .refused(_, let message):
            message
        }
    }
}
