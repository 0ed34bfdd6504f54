/// The structural difference between two schemas as a migration sees it: entities, attributes
/// and relationships added, removed or renamed (through `originalName`), types, optionality,
/// unique constraints and indices changed, and whether a lightweight step can make the change.
/// `osd diff` prints it.
///
/// ```swift
/// let comparison = SchemaComparison(from: try Schema.load(from: snapshotV1), to: Schema(versionedSchema: SchemaV2.self))
/// print(comparison.changes, comparison.isLightweight)
/// ```
public struct SchemaComparison: Sendable, Codable, CustomStringConvertible {
    /// The changes, in words, entity by entity.
    public let changes: [String]
    /// The changes a lightweight step cannot make (a type change, a relationship's new
    /// destination or cardinality, a non-optional attribute that needs values), each saying why.
    public let blockers: [String]

    /// The changes servers still running the old version cannot live with while the new
    /// structure is in place, during a rolling deploy, each saying why: contract steps, to ship
    /// only once every instance runs the new version. Expand steps (an entity, an optional or
    /// defaulted attribute, an optional relationship or an index added) are not listed.
    public let breaksPreviousVersion: [String]

    /// Whether servers running the old version keep working against the new structure: every
    /// change is an expand step.
    public var keepsPreviousVersionRunning: Bool { breaksPreviousVersion.isEmpty }

    /// The blockers no custom stage's code resolves either: a type, destination or cardinality
    /// change, a move between class hierarchies. (Values an added or now non-optional attribute
    /// needs, a stage can fill.)
    package let blockersNoStageResolves: [String]

    /// Whether the schemas have the same structure.
    public var isIdentical: Bool { changes.isEmpty }
    /// Whether a lightweight step can migrate a store from the first schema to the second. A
    /// schema read from a store or snapshot records no default values: an attribute that is
    /// added, or made non-optional, counts as needing values.
    public var isLightweight: Bool { blockers.isEmpty }

    /// Compares `old` with `new`.
    ///
    /// - Parameters:
    ///   - old: the schema a store has (from a store or a snapshot).
    ///   - new: the schema it would be migrated to.
    ///   - defaulted: attributes of `new` known to have a default value, as "Entity.attribute"
    ///     (a store's column defaults, which its recorded schema does not hold).
    public init(from old: Schema, to new: Schema, defaulted: Set<String> = []) {
        self.init(from: old.entities, to: new.entities, defaulted: defaulted)
    }

    /// Compares two schemas' entities (one store's part of a schema, say).
    init(from old: [Schema.Entity], to new: [Schema.Entity], defaulted: Set<String> = []) {
        var changes: [String] = []
        var blockers: [String] = []
        var structural: [String] = []
        var breaks: [String] = []
        let contract = "ship it once every instance runs the new version"
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(new.map(\.name))
        for entity in old.sorted(by: { $0.name < $1.name }) where !newNames.contains(entity.name) {
            changes.append("entity \(entity.name) removed")
            breaks.append("entity \(entity.name) removed: old instances still read and write its rows; \(contract)")
        }
        for entity in new.sorted(by: { $0.name < $1.name }) {
            guard let previous = oldByName[entity.name] else {
                changes.append("entity \(entity.name) added\(entity.superentityName.map { " (a subentity of \($0))" } ?? "")")
                continue
            }
            let name = entity.name
            if previous.superentityName != entity.superentityName {
                changes.append(
                    "\(name) \(entity.superentityName.map { "becomes a subentity of \($0)" } ?? "is no longer a subentity")\(previous.superentityName.map { " (was one of \($0))" } ?? "")")
                // A flat entity moving under a superentity is moved with its rows; the others not.
                if previous.superentityName != nil || entity.superentityName == nil {
                    blockers.append("\(name) moves between class hierarchies, whose rows are stored apart: re-create its models in a custom stage")
                    structural.append(blockers.last!)
                }
            }
            var continued: Set<String> = []
            for attribute in entity.attributesInOrder {
                guard let before = previous.attribute(continuedBy: attribute) else {
                    changes.append("\(name).\(attribute.name) added (\(attribute.valueTypeName)\(attribute.isOptional ? ", optional" : ""))")
                    if !attribute.isOptional, attribute.defaultValue == nil, !defaulted.contains("\(name).\(attribute.name)") {
                        blockers.append("\(name).\(attribute.name) is added as non-optional: existing rows need a value: give it a default, or fill it in a custom stage")
                        breaks.append("\(name).\(attribute.name) is added as non-optional without a default: old instances insert rows without it, which then have no value; give it a default, or make it optional")
                    }
                    continue
                }
                continued.insert(before.name)
                if before.name != attribute.name {
                    changes.append("\(name).\(before.name) renamed to \(attribute.name) (originalName)")
                    breaks.append("\(name).\(before.name) renamed to \(attribute.name): old instances still read and write \(before.name); \(contract), or add \(attribute.name) beside it and drop \(before.name) in a later version")
                }
                if before.storageType != attribute.storageType || (attribute.storageType == .codable && before.valueTypeName != attribute.valueTypeName) {
                    changes.append("\(name).\(attribute.name) changes type from \(before.valueTypeName) to \(attribute.valueTypeName)")
                    blockers.append("\(name).\(attribute.name) changes type: not lightweight")
                    structural.append("\(name).\(attribute.name) changes type from \(before.valueTypeName) to \(attribute.valueTypeName): add the new attribute under a new name, fill it in a custom stage's didMigrate, and remove the old one in a later version")
                    breaks.append("\(name).\(attribute.name) changes type: old instances read and write it as \(before.valueTypeName); \(contract)")
                }
                if before.isOptional != attribute.isOptional {
                    changes.append("\(name).\(attribute.name) becomes \(attribute.isOptional ? "optional" : "non-optional")")
                    if !attribute.isOptional, attribute.defaultValue == nil, !defaulted.contains("\(name).\(attribute.name)") {
                        blockers.append("\(name).\(attribute.name) becomes non-optional: rows holding nil need a value")
                    }
                    breaks.append(attribute.isOptional
                        ? "\(name).\(attribute.name) becomes optional: old instances cannot read the nil the new version may store; \(contract)"
                        : "\(name).\(attribute.name) becomes non-optional: old instances may still store nil in it; \(contract)")
                }
                if before.hashModifier != attribute.hashModifier {
                    changes.append("\(name).\(attribute.name) changes its hashModifier")
                }
                if before.options.contains(.externalStorage) != attribute.options.contains(.externalStorage) {
                    changes.append("\(name).\(attribute.name) \(attribute.options.contains(.externalStorage) ? "moves to" : "leaves") external storage")
                }
            }
            for attribute in previous.attributesInOrder where !continued.contains(attribute.name) {
                changes.append("\(name).\(attribute.name) removed")
                breaks.append("\(name).\(attribute.name) removed: old instances still read and write it; \(contract)")
            }
            var continuedRelationships: Set<String> = []
            for relationship in entity.relationshipsInOrder {
                guard let before = previous.relationship(continuedBy: relationship) else {
                    changes.append("relationship \(name).\(relationship.name) added (to \(relationship.destination))")
                    if relationship.isToOne, !relationship.isOptional {
                        breaks.append("relationship \(name).\(relationship.name) is added as a non-optional to-one: old instances insert models without it; make it optional until every instance runs the new version")
                    }
                    continue
                }
                continuedRelationships.insert(before.name)
                if before.name != relationship.name {
                    changes.append("relationship \(name).\(before.name) renamed to \(relationship.name) (originalName)")
                    breaks.append("relationship \(name).\(before.name) renamed to \(relationship.name): old instances still read and write \(before.name); \(contract)")
                }
                if before.destination != relationship.destination || before.isToOne != relationship.isToOne {
                    changes.append("relationship \(name).\(relationship.name) changes from \(before.isToOne ? "to-one" : "to-many") \(before.destination) to \(relationship.isToOne ? "to-one" : "to-many") \(relationship.destination)")
                    blockers.append("relationship \(name).\(relationship.name) changes destination or cardinality: not lightweight")
                    structural.append(blockers.last!)
                    breaks.append("relationship \(name).\(relationship.name) changes destination or cardinality: old instances still store it as before; \(contract)")
                }
                if before.inverseName != relationship.inverseName {
                    changes.append("relationship \(name).\(relationship.name) changes inverse from \(before.inverseName ?? "none") to \(relationship.inverseName ?? "none")")
                }
                if before.deleteRule != relationship.deleteRule {
                    changes.append("relationship \(name).\(relationship.name) changes delete rule from \(before.deleteRule) to \(relationship.deleteRule)")
                }
            }
            for relationship in previous.relationshipsInOrder where !continuedRelationships.contains(relationship.name) {
                changes.append("relationship \(name).\(relationship.name) removed")
                breaks.append("relationship \(name).\(relationship.name) removed: old instances still read and write it; \(contract)")
            }
            let oldUnique = Set(previous.uniquenessConstraints.map { $0.sorted() })
            let newUnique = Set(entity.uniquenessConstraints.map { $0.sorted() })
            for constraint in newUnique.subtracting(oldUnique).sorted(by: { $0.description < $1.description }) {
                changes.append("\(name) unique on \(constraint.joined(separator: ", ")) added (stored values must not repeat)")
                breaks.append("\(name) unique on \(constraint.joined(separator: ", ")) added: old instances insert without upserting, and a repeated value then fails their save; \(contract)")
            }
            for constraint in oldUnique.subtracting(newUnique).sorted(by: { $0.description < $1.description }) {
                changes.append("\(name) unique on \(constraint.joined(separator: ", ")) removed")
            }
            let oldIndices = Set(previous.indices)
            let newIndices = Set(entity.indices)
            for index in newIndices.subtracting(oldIndices).sorted(by: { $0.description < $1.description }) {
                changes.append("\(name) index on \(index.joined(separator: ", ")) added")
            }
            for index in oldIndices.subtracting(newIndices).sorted(by: { $0.description < $1.description }) {
                changes.append("\(name) index on \(index.joined(separator: ", ")) removed")
            }
        }
        self.changes = changes
        self.blockers = blockers
        blockersNoStageResolves = structural
        breaksPreviousVersion = breaks
    }

    /// The changes, joined for an error message.
    public var description: String {
        changes.isEmpty ? "no structural difference" : changes.joined(separator: "; ")
    }
}
