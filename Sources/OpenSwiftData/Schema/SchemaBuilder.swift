/// Builds a schema's entities from model classes: follows relationships to models not listed,
/// turns each persisted property into an attribute or relationship, pairs inverse
/// relationships, and resolves `#Unique`/`#Index` key paths to property names. Everything it
/// cannot make sense of becomes a problem naming the model and property.
struct SchemaBuilder {
    private(set) var entities: [Schema.Entity] = []
    private(set) var layouts: [String: ModelLayout] = [:]
    private(set) var problems: [String] = []

    /// Names the store keeps for itself; a property cannot use them.
    static let reservedNames: Set<String> = ["_pk"]

    /// Entities are identified by name, as in SwiftData: the classes listed are the entities,
    /// and a relationship leads to the entity of its destination's name — the listed class of
    /// that name even when the property declares another version's class of it (a helper model
    /// shared by the versions of a plan). A class reached through relationships alone joins the
    /// schema when no class of its name is there.
    init(_ types: [any PersistentModel.Type]) {
        var pending: [any PersistentModel.Type] = []
        for type in types {
            let layout = ModelLayout.of(type)
            if let existing = layouts[layout.entityName] {
                if existing.modelType != layout.modelType {
                    problems.append(
                        "two model classes are both named \(layout.entityName) (\(String(reflecting: existing.modelType)) and \(String(reflecting: layout.modelType))); an entity's name is its class's unqualified name, so rename one of them")
                }
                continue
            }
            layouts[layout.entityName] = layout
            pending.append(type)
        }
        var index = 0
        while index < pending.count {
            let layout = ModelLayout.of(pending[index])
            index += 1
            entities.append(entity(for: layout))
            for property in layout.properties {
                if case .relationship(let destination, _) = property.kind {
                    let reached = ModelLayout.of(destination)
                    guard layouts[reached.entityName] == nil else { continue }
                    layouts[reached.entityName] = reached
                    pending.append(destination)
                }
            }
        }
        let linked = Schema.Entity.linkHierarchies(entities)
        for (entity, superentity) in linked.missingSuperentities {
            problems.append(
                "\(entity) is a subclass of \(superentity), which is not among the models the schema is made of; list \(superentity).self with \(entity).self (a schema holds a class's whole ancestry)")
        }
        problems += Self.clashingColumns(in: entities)
        pairInverses()
    }

    private mutating func entity(for layout: ModelLayout) -> Schema.Entity {
        var properties: [any SchemaProperty] = []
        var unique: [[String]] = []
        // A subclass's entity declares its own properties; it inherits the others once linked.
        let inherited = layout.superclassLayout?.properties.count ?? 0
        for property in layout.properties.dropFirst(inherited) {
            let place = "\(layout.entityName).\(property.name)"
            if Self.reservedNames.contains(property.name) {
                problems.append("\(place): the name \(property.name) is reserved by the store; rename the property")
            }
            switch property.kind {
            case .attribute(let codec):
                let marker = property.marker as? Schema.Attribute
                let attribute = Schema.Attribute(
                    name: property.name,
                    originalName: marker.flatMap { $0.originalName.isEmpty ? nil : $0.originalName },
                    options: marker?.options ?? [],
                    valueType: property.valueType,
                    defaultValue: property.defaultValue,
                    hashModifier: marker?.hashModifier)
                if codec == nil {
                    problems.append(
                        "\(place) has type \(property.valueType), which cannot be stored; use a Bool, number, String, Date, Data, URL, UUID, Decimal, or a Codable type")
                }
                if attribute.isTransformable {
                    problems.append(
                        "\(place) uses .transformable, which OpenSwiftData does not store yet; make the type Codable instead")
                }
                if attribute.isUnique { unique.append([attribute.name]) }
                if !attribute.isTransient { properties.append(attribute) }
            case .relationship(let destination, let isToMany):
                if property.isConstant {
                    problems.append("\(place) is a 'let' relationship; declare it 'var': a relationship changes as models are linked")
                }
                let relationship = Schema.Relationship(copying: property.marker as? Schema.Relationship)
                relationship.name = property.name
                if relationship.originalName.isEmpty { relationship.originalName = property.name }
                relationship.keypath = property.keyPath
                relationship.valueType = property.valueType
                relationship.destination = Schema.entityName(for: destination)
                relationship.isToOne = !isToMany
                relationship.isOptionalValue = property.isOptional
                if relationship.isUnique { unique.append([relationship.name]) }
                properties.append(relationship)
            }
        }
        var indices: [[String]] = []
        for constraint in layout.constraints.dropFirst(layout.superclassLayout?.constraints.count ?? 0) {
            for group in constraint.keyPathGroups {
                var names: [String] = []
                for keyPath in group {
                    if let name = layout.propertyName(for: keyPath) {
                        names.append(name)
                    } else {
                        problems.append(
                            "\(layout.entityName): #\(constraint.constraintKind == .unique ? "Unique" : "Index") names \(keyPath), which is not a persisted property of the model")
                    }
                }
                guard !names.isEmpty else { continue }
                switch constraint.constraintKind {
                case .unique: if !unique.contains(names) { unique.append(names) }
                case .index: if !indices.contains(names) { indices.append(names) }
                }
            }
        }
        return Schema.Entity(
            name: layout.entityName, superentityName: layout.superclassLayout?.entityName, properties: properties,
            uniquenessConstraints: unique, indices: indices)
    }

    /// Properties of one name that two classes of a hierarchy declare with different storage:
    /// a hierarchy is one table, with one column per name.
    private static func clashingColumns(in entities: [Schema.Entity]) -> [String] {
        var problems: [String] = []
        for root in entities where root.superentity == nil && !root.subentities.isEmpty {
            var seen: [String: (entity: String, storage: String)] = [:]
            for member in root.selfAndDescendants {
                let declared = member.declaredAttributes.map { ($0.name, $0.storageType.map { "\($0)" } ?? "?") }
                    + member.declaredRelationships.filter(\.isToOne).map { ($0.name, "relationship") }
                for (name, storage) in declared {
                    if let earlier = seen[name], earlier.storage != storage {
                        problems.append(
                            "\(member.name).\(name) and \(earlier.entity).\(name) are stored in one column of \(root.name)'s table (a class hierarchy is one table) but hold different kinds of values; rename one of them")
                    } else if seen[name] == nil {
                        seen[name] = (member.name, storage)
                    }
                }
            }
        }
        return problems
    }

    /// Pairs each relationship with its inverse: the one `inverse:` names, or else the only
    /// relationship on the destination that points back, as SwiftData infers it.
    private mutating func pairInverses() {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            let layout = layouts[entity.name]!
            for relationship in entity.declaredRelationships {
                guard let inverseKeyPath = relationship.inverseKeyPath else { continue }
                // The key path is one of the class the property declares, which may be another
                // version's class of the destination's name.
                guard case .relationship(let declared, _)? = layout.properties.first(where: { $0.name == relationship.name })?.kind,
                      let inverseName = ModelLayout.of(declared).propertyName(for: inverseKeyPath),
                      let inverse = byName[relationship.destination]?.relationshipsByName[inverseName]
                else {
                    problems.append(
                        "\(layout.entityName).\(relationship.name): its inverse \(inverseKeyPath) is not a relationship of \(relationship.destination)")
                    continue
                }
                relationship.inverseName = inverseName
                inverse.inverseName = relationship.name
            }
        }
        for entity in entities {
            for relationship in entity.declaredRelationships
            where relationship.inverseName == nil && !relationship.isExplicitlyUnidirectional {
                guard let destination = byName[relationship.destination] else { continue }
                let candidates = destination.relationshipsInOrder.filter {
                    $0.destination == entity.name && $0 !== relationship && $0.inverseName == nil
                        && !$0.isExplicitlyUnidirectional
                }
                guard candidates.count == 1, let inverse = candidates.first,
                      relationship.isOptional || inverse.isOptional || !relationship.isToOne || !inverse.isToOne
                else { continue }
                relationship.inverseName = inverse.name
                inverse.inverseName = relationship.name
            }
        }
    }
}
