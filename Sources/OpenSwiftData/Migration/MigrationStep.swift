/// One step of a migration: from one structure to the next, with the custom stage's closures
/// when the plan declares one.
struct MigrationStep {
    let from: Schema
    let to: Schema
    let fromName: String
    let toName: String
    let willMigrate: ((ModelContext) throws -> Void)?
    let didMigrate: ((ModelContext) throws -> Void)?
    /// Whether the step rewrites a format-1 store's decimals (``DecimalTextUpgrade``) instead
    /// of changing its structure.
    var rewritesDecimalText = false

    /// The step that brings a store of format 1 holding decimals, recording `stored`, to the
    /// current format: the first of its migration, with no change of structure.
    static func decimalTextUpgrade(of stored: Schema) -> MigrationStep {
        MigrationStep(
            from: stored, to: stored, fromName: "store format 1", toName: "store format \(DecimalTextUpgrade.formatVersion)",
            willMigrate: nil, didMigrate: nil, rewritesDecimalText: true)
    }

    /// Whether code of the plan's runs in this step.
    var isCustom: Bool { willMigrate != nil || didMigrate != nil }

    /// What the step drops with its stored values: the old version's entities, attributes and
    /// relationships that the new one neither keeps under their name nor continues through an
    /// `originalName`, as "entity Name", "Entity.attribute", "Entity.relationship".
    var droppedProperties: [String] {
        from.entities.flatMap { old -> [String] in
            guard let new = to.entitiesByName[old.name] else { return ["entity \(old.name)"] }
            // An attribute moved to another class of the hierarchy keeps its column there.
            let hierarchy = new.rootEntity.selfAndDescendants.flatMap(\.attributesInOrder)
            let attributes = old.attributesInOrder.filter { attribute in
                !hierarchy.contains { $0.name == attribute.name || $0.originalName == attribute.name }
            }.map(\.name)
            let relationships = old.relationshipsInOrder.filter { relationship in
                !new.relationshipsInOrder.contains { $0.name == relationship.name || $0.originalName == relationship.name }
            }.map(\.name)
            return (attributes + relationships).map { "\(old.name).\($0)" }
        }
    }

    /// Whether the step can only add to the store or rename what it holds: it has no custom
    /// stage, and every entity, attribute and relationship of the old version is still there
    /// (under its name, or as a new property's `originalName`) with the same kind of storage.
    /// Such a step changes no stored value, so the transaction it runs in is all the protection
    /// it needs; anything else is backed up first (see `ModelConfiguration.backsUpBeforeMigrating`).
    var keepsEveryStoredValue: Bool {
        guard !isCustom else { return false }
        return from.entities.allSatisfy { old in
            guard let new = to.entitiesByName[old.name] else { return false }
            let attributesKept = old.attributesInOrder.allSatisfy { attribute in
                new.attributesInOrder.contains { kept in
                    (kept.name == attribute.name || kept.originalName == attribute.name)
                        && kept.storageType == attribute.storageType && kept.isOptional == attribute.isOptional
                        && kept.options.contains(.externalStorage) == attribute.options.contains(.externalStorage)
                }
            }
            let relationshipsKept = old.relationshipsInOrder.allSatisfy { relationship in
                new.relationshipsInOrder.contains { kept in
                    (kept.name == relationship.name || kept.originalName == relationship.name)
                        && kept.destination == relationship.destination && kept.isToOne == relationship.isToOne
                        && kept.inverseName == relationship.inverseName
                }
            }
            return attributesKept && relationshipsKept
        }
    }
}
