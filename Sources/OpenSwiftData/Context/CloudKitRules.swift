/// What CloudKit sync requires of a store's models, checked when a configuration names a
/// CloudKit container (`.private("iCloud.…")`): every attribute optional or with a default
/// value, no uniqueness constraint, every relationship optional, no `.deny` delete rule.
/// SwiftData fails on the device when they are broken; here the container refuses at once,
/// before any file is created. `.automatic`, the default, cannot know the app's entitlements
/// off Apple platforms, and is treated as `.none`: nothing is checked.
enum CloudKitRules {
    /// Each rule `schema` breaks, naming the entity and property and the fix.
    static func problems(of schema: Schema) -> [String] {
        var problems: [String] = []
        for entity in schema.entities {
            for attribute in entity.attributesInOrder where !attribute.isOptional && attribute.defaultValue == nil {
                problems.append("\(entity.name).\(attribute.name) is neither optional nor given a default value; declare it optional or give it one")
            }
            for constraint in entity.uniquenessConstraints {
                problems.append("\(entity.name) has a uniqueness constraint on \(constraint.joined(separator: ", ")), which CloudKit cannot enforce; remove it (and deduplicate in code)")
            }
            for relationship in entity.relationshipsInOrder {
                if !relationship.isOptional {
                    problems.append("\(entity.name).\(relationship.name) is not optional; declare it optional (\(relationship.isToOne ? "\(relationship.destination)?" : "[\(relationship.destination)]?"))")
                }
                if relationship.deleteRule == .deny {
                    problems.append("\(entity.name).\(relationship.name) has the .deny delete rule, which CloudKit does not support; use .nullify or .cascade")
                }
            }
        }
        return problems
    }
}
