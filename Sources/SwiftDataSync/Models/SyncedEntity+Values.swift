import Foundation
import SwiftData

// Reading and writing a model's synced properties.
extension SyncedEntity {
    /// The register text of `property` (an attribute or a to-one relationship) of `model`;
    /// `globalID` names the model a to-one relationship links to.
    func registerText(
        of property: SyncedProperty, in model: any PersistentModel, coder: SyncValueCoder,
        globalID: (any PersistentModel) throws -> String
    ) throws -> String {
        let value = Self.read(property, of: model)
        switch property.kind {
        case .attribute:
            do { return try coder.text(of: value as Any) } catch SyncError.unsyncableValue(let type) {
                throw SyncError.unsyncableProperty(entity: name, property: property.name, type: type)
            }
        case .toOne:
            return coder.text(ofGlobalID: try (value as? any PersistentModel).map(globalID))
        case .toMany:
            throw SyncError.undecodableValue(
                entity: name, property: property.name, model: "", value: "", reason: "a to-many relationship has members, not a value")
        }
    }

    /// The global identifiers of the models a to-many relationship of `model` links to.
    func members(
        of property: SyncedProperty, in model: any PersistentModel, globalID: (any PersistentModel) throws -> String
    ) throws -> Set<String> {
        Set(try Self.relatedModels(property, of: model).map(globalID))
    }

    /// Sets a register's property of `model` to the value `text` holds; `resolve` finds the
    /// model a to-one relationship links to (`nil`: unlinked). Writes only a changed value;
    /// `currentText` is `nil` for a model the sync has just made.
    func write(
        _ property: SyncedProperty, text: String, to model: any PersistentModel, modelID: String, coder: SyncValueCoder,
        currentText: String?, resolve: (String) throws -> (any PersistentModel)?
    ) throws {
        guard text != currentText, let keyPath = property.keyPath as? any SyncWritableKeyPath else { return }
        let isNew = currentText == nil
        let written: Bool
        switch property.kind {
        case .attribute:
            let value: Any
            do { value = try coder.value(of: text, for: keyPath) } catch {
                throw SyncError.undecodableValue(entity: name, property: property.name, model: modelID, value: text, reason: "\(error)")
            }
            written = isNew
                ? (keyPath as? any SyncInitialValueKeyPath)?.setInitialValue(value, on: model) ?? keyPath.assign(value, on: model)
                : keyPath.assign(value, on: model)
        case .toOne:
            let related = try coder.globalID(in: text).flatMap(resolve)
            if isNew {
                // A new model's optional link reads as `nil` until it is set.
                written = related.map { (keyPath as? any SyncInitialLinkKeyPath)?.setInitialLink($0, on: model) ?? false } ?? true
            } else {
                written = (related ?? keyPath.noValue).map { keyPath.assign($0, on: model) } ?? false
            }
        case .toMany:
            throw SyncError.undecodableValue(
                entity: name, property: property.name, model: modelID, value: text, reason: "a to-many relationship takes members, not a value")
        }
        guard written else {
            throw SyncError.undecodableValue(entity: name, property: property.name, model: modelID, value: text, reason: "the value does not fit the property")
        }
    }

    /// Sets a to-many relationship of `model` to `members` (models already linked keep their
    /// order; new ones follow), when its members differ; `isNew` for a model the sync has just
    /// made, which has no members to read yet.
    func writeMembers(
        _ property: SyncedProperty, _ members: [String: any PersistentModel], to model: any PersistentModel, isNew: Bool,
        globalID: (any PersistentModel) throws -> String
    ) throws {
        if isNew {
            let sorted = members.sorted { $0.key < $1.key }.map(\.value)
            _ = (property.keyPath as? any SyncInitialMembersKeyPath)?.setInitialMembers(sorted, on: model)
            return
        }
        let current = Self.relatedModels(property, of: model)
        let currentIDs = try current.map(globalID)
        guard Set(currentIDs) != Set(members.keys), let keyPath = property.keyPath as? any SyncWritableKeyPath else { return }
        let kept = zip(currentIDs, current).filter { members[$0.0] != nil }.map(\.1)
        let added = members.filter { !currentIDs.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
        _ = keyPath.assign(kept + added, on: model)
    }

    /// Empties the relationships a deletion from elsewhere must not follow.
    func unlinkBeforeRemoteDeletion(_ model: any PersistentModel) {
        for property in unlinkedBeforeRemoteDeletion {
            guard let keyPath = property.keyPath as? any SyncWritableKeyPath else { continue }
            switch property.kind {
            case .toMany: _ = keyPath.assign([any PersistentModel](), on: model)
            case .toOne, .attribute: if let none = keyPath.noValue { _ = keyPath.assign(none, on: model) }
            }
        }
    }

    private static func read(_ property: SyncedProperty, of model: any PersistentModel) -> Any? {
        model[keyPath: property.keyPath]
    }

    private static func relatedModels(_ property: SyncedProperty, of model: any PersistentModel) -> [any PersistentModel] {
        (read(property, of: model) as Any? as? [any PersistentModel]) ?? []
    }
}
