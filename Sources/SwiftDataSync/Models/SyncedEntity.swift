import Foundation
import SwiftData

/// How the sync sees one model class: the properties it carries, read and written through the
/// class's own key paths (the same setters app code calls, so observers see remote changes).
///
/// A relationship with an inverse is carried from one side only, so two devices can never
/// disagree about it in two registers: the to-one side of a one-to-many, and for one-to-one and
/// many-to-many the side whose entity and property name sort first. The other side follows, as
/// SwiftData keeps inverses.
struct SyncedEntity {
    let name: String
    let modelType: any PersistentModel.Type
    /// Attributes and to-one relationships, in declaration order.
    let registers: [SyncedProperty]
    /// To-many relationships carried from this side.
    let memberships: [SyncedProperty]
    /// To-many relationships carried from their other side: a model the sync makes starts
    /// them empty, and SwiftData fills them as the other side links.
    let inverseMemberships: [SyncedProperty]
    /// Relationships whose delete rule is `.cascade` or `.deny`: a deletion is applied where it
    /// was made, and other nodes receive every model it took, so a deletion from elsewhere
    /// unlinks these before deleting (a stale link must not take a model another node moved).
    let unlinkedBeforeRemoteDeletion: [SyncedProperty]
    /// The value each attribute starts with in a model the sync makes, before the values it
    /// was sent: its declared default, or `nil` when optional. A device of an older version
    /// of the models sends none for the attributes its version lacks.
    let initialValues: [(property: SyncedProperty, value: Any)]
    /// The attributes without one (neither optional nor defaulted): a model is made only from
    /// a state that has a value for each; until then its state waits in the ledger.
    let requiredAttributes: [String]

    var properties: [SyncedProperty] { registers + memberships }

    /// The entities of `types`, by name.
    static func entities(of types: [any PersistentModel.Type]) throws -> [String: SyncedEntity] {
        let schema = Schema(types)
        var entities: [String: SyncedEntity] = [:]
        for type in types {
            let entity = try SyncedEntity(type, schema: schema)
            entities[entity.name] = entity
        }
        return entities
    }

    private init(_ type: any PersistentModel.Type, schema: Schema) throws {
        let name = Self.entityName(of: type)
        guard let entity = schema.entitiesByName[name] else { throw SyncError.unknownModel(entity: name) }
        var registers: [SyncedProperty] = []
        var memberships: [SyncedProperty] = []
        var inverseMemberships: [SyncedProperty] = []
        var unlinked: [SyncedProperty] = []
        var initialValues: [(SyncedProperty, Any)] = []
        var required: [String] = []
        for (propertyName, keyPath) in Self.declaredKeyPaths(of: type) {
            if let attribute = entity.attributesByName[propertyName] {
                guard !attribute.isTransient else { continue }
                guard keyPath is any SyncWritableKeyPath else {
                    throw SyncError.unsyncableProperty(entity: name, property: propertyName, type: String(describing: attribute.valueType))
                }
                let property = SyncedProperty(name: propertyName, keyPath: keyPath, kind: .attribute)
                registers.append(property)
                if let initial = attribute.defaultValue ?? (keyPath as? any SyncWritableKeyPath)?.noValue {
                    initialValues.append((property, initial))
                } else {
                    required.append(propertyName)
                }
            } else if let relationship = entity.relationshipsByName[propertyName] {
                let property = SyncedProperty(
                    name: propertyName, keyPath: keyPath,
                    kind: relationship.isToOneRelationship ? .toOne(destination: relationship.destination) : .toMany(destination: relationship.destination))
                if relationship.deleteRule == .cascade || relationship.deleteRule == .deny { unlinked.append(property) }
                if !Self.carriesFromThisSide(relationship, of: name, schema: schema) {
                    if !relationship.isToOneRelationship { inverseMemberships.append(property) }
                } else if relationship.isToOneRelationship {
                    registers.append(property)
                } else {
                    memberships.append(property)
                }
            }
        }
        self.name = name
        self.modelType = type
        self.registers = registers
        self.memberships = memberships
        self.inverseMemberships = inverseMemberships
        self.unlinkedBeforeRemoteDeletion = unlinked
        self.initialValues = initialValues
        self.requiredAttributes = required
    }

    private static func entityName(of type: any PersistentModel.Type) -> String {
        func name<T: PersistentModel>(_ type: T.Type) -> String { Schema.entityName(for: type) }
        return name(type)
    }

    /// Each persisted property's name and key path, from the class's `schemaMetadata`.
    ///
    /// `Schema.PropertyMetadata` keeps both but shows neither in SwiftData's public API, so they
    /// are read by reflection: the key path is the entry's one `AnyKeyPath`, the name its
    /// `String` labelled `name` (or its first `String`).
    private static func declaredKeyPaths(of type: any PersistentModel.Type) -> [(String, AnyKeyPath)] {
        type.schemaMetadata.compactMap { entry in
            let children = Array(Mirror(reflecting: entry).children)
            guard let keyPath = children.lazy.compactMap({ $0.value as? AnyKeyPath }).first,
                  let name = (children.first { $0.label == "name" }?.value as? String)
                    ?? children.lazy.compactMap({ $0.value as? String }).first
            else { return nil }
            return (name, keyPath)
        }
    }

    private static func carriesFromThisSide(_ relationship: Schema.Relationship, of entity: String, schema: Schema) -> Bool {
        guard let inverseName = relationship.inverseName,
              let inverse = schema.entitiesByName[relationship.destination]?.relationshipsByName[inverseName]
        else { return true }
        if relationship.isToOneRelationship != inverse.isToOneRelationship { return relationship.isToOneRelationship }
        return (entity, relationship.name) <= (relationship.destination, inverseName)
    }
}
