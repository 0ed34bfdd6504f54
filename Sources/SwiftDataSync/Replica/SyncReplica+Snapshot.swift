import Foundation
import SwiftData

/// A synced model as one node holds it, value by value: what two nodes that have synced agree
/// on. Relationships name the models they link to by global identifier.
public struct SyncedModelSnapshot: Hashable, Codable, Sendable, CustomStringConvertible {
    public let entity: String
    /// Each attribute's and to-one relationship's value as JSON text, by property name.
    public let values: [String: String]
    /// Each to-many relationship's members, by relationship name (one side of each inverse pair).
    public let members: [String: Set<String>]

    public var description: String {
        "\(entity) \(values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) \(members.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.sorted())" }.joined(separator: " "))"
    }
}

extension SyncReplica {
    /// Every synced model in the app's store, by global identifier, as its properties are now.
    /// A model the sync has no record of yet (saved since the last capture) is under its local
    /// identifier.
    func snapshot() throws -> [String: SyncedModelSnapshot] {
        let context = ModelContext(container)
        var snapshot: [String: SyncedModelSnapshot] = [:]
        let globalID: (any PersistentModel) throws -> String = { model in
            let localID = try self.localID(of: model.persistentModelID)
            return try self.ledger.record(localID: localID)?.globalID ?? localID
        }
        for entity in entities.values {
            for model in try allModels(of: entity, in: context) {
                var values: [String: String] = [:]
                for property in entity.registers {
                    values[property.name] = try entity.registerText(of: property, in: model, coder: coder, globalID: globalID)
                }
                var members: [String: Set<String>] = [:]
                for property in entity.memberships {
                    members[property.name] = try entity.members(of: property, in: model, globalID: globalID)
                }
                snapshot[try globalID(model)] = SyncedModelSnapshot(entity: entity.name, values: values, members: members)
            }
        }
        return snapshot
    }
}
