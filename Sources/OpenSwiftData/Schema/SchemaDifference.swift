/// What changed between two schemas' entities, entity by entity and property by property, in
/// words people can act on.
struct SchemaDifference: CustomStringConvertible {
    private(set) var changes: [String] = []

    init(from old: [Schema.Entity], to new: [Schema.Entity]) {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in oldByName.keys.sorted() where newByName[name] == nil {
            changes.append("entity \(name) removed")
        }
        for name in newByName.keys.sorted() {
            guard let newEntity = newByName[name] else { continue }
            guard let oldEntity = oldByName[name] else {
                changes.append("entity \(name) added")
                continue
            }
            compare(oldEntity, newEntity)
        }
    }

    private mutating func compare(_ old: Schema.Entity, _ new: Schema.Entity) {
        let entity = old.name
        let oldAttributes = old.attributesByName
        let newAttributes = new.attributesByName
        for name in oldAttributes.keys.sorted() where newAttributes[name] == nil {
            changes.append("\(entity).\(name) removed")
        }
        for (name, attribute) in newAttributes.sorted(by: { $0.key < $1.key }) {
            guard let previous = oldAttributes[name] else {
                changes.append("\(entity).\(name) added (\(attribute.valueTypeName))")
                continue
            }
            if previous.storageType != attribute.storageType || (previous.storageType == .codable && previous.valueTypeName != attribute.valueTypeName) {
                changes.append("\(entity).\(name) changed type from \(previous.valueTypeName) to \(attribute.valueTypeName)")
            }
            if previous.isOptional != attribute.isOptional {
                changes.append("\(entity).\(name) became \(attribute.isOptional ? "optional" : "non-optional")")
            }
            if previous.hashModifier != attribute.hashModifier {
                changes.append("\(entity).\(name) changed its hashModifier")
            }
        }
        let oldRelationships = old.relationshipsByName
        let newRelationships = new.relationshipsByName
        for name in oldRelationships.keys.sorted() where newRelationships[name] == nil {
            changes.append("relationship \(entity).\(name) removed")
        }
        for (name, relationship) in newRelationships.sorted(by: { $0.key < $1.key }) {
            guard let previous = oldRelationships[name] else {
                changes.append("relationship \(entity).\(name) added")
                continue
            }
            if previous != relationship {
                changes.append("relationship \(entity).\(name) changed")
            }
        }
        if Set(old.uniquenessConstraints.map { $0.sorted() }) != Set(new.uniquenessConstraints.map { $0.sorted() }) {
            changes.append("\(entity) uniqueness constraints changed from \(old.uniquenessConstraints) to \(new.uniquenessConstraints)")
        }
        if Set(old.indices) != Set(new.indices) {
            changes.append("\(entity) indices changed from \(old.indices) to \(new.indices)")
        }
    }

    var isEmpty: Bool { changes.isEmpty }

    var description: String {
        changes.isEmpty ? "no structural difference" : changes.joined(separator: "; ")
    }
}
