import Foundation

/// Reads the model a Core Data store keeps (`Z_MODELCACHE.Z_CONTENT`): raw DEFLATE around a
/// keyed archive of the managed object model. The archive is walked as the property list it is
/// (`$objects`, references by index), never unarchived into classes: entities, their
/// attributes with types, and their relationships with destinations, inverses, counts and delete
/// rules come out; what the walk does not need (fetch requests, predicates, indices) is passed
/// over.
enum AppleStoreModelCache {
    /// Core Data's attribute types (`NSAttributeType`), by raw value.
    static let attributeTypes: [Int: String] = [
        100: "Int16", 200: "Int32", 300: "Int64", 400: "Decimal", 500: "Double", 600: "Float", 700: "String",
        800: "Bool", 900: "Date", 1000: "Data", 1100: "UUID", 1200: "URL", 1800: "Transformable", 2000: "ObjectID", 2100: "Composite",
    ]

    /// Core Data's delete rules (`NSDeleteRule`), by raw value.
    static let deleteRules: [Int: String] = [0: "noAction", 1: "nullify", 2: "cascade", 3: "deny"]

    enum Failure: Error, CustomStringConvertible {
        case notDeflate, notAnArchive(String), missing(String)

        var description: String {
            switch self {
            case .notDeflate: "Z_MODELCACHE's content is not raw DEFLATE"
            case .notAnArchive(let why): "Z_MODELCACHE's content is not a keyed archive of a model (\(why))"
            case .missing(let what): "the model in Z_MODELCACHE has no \(what)"
            }
        }
    }

    /// The entities of the model in `content`, by name.
    static func entities(from content: Data) throws -> [AppleStoreInspection.ModelEntity] {
        guard let archive = RawDeflate.inflate(content) else { throw Failure.notDeflate }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: archive, format: nil)
        } catch {
            throw Failure.notAnArchive("\(error)")
        }
        guard let dictionary = KeyedArchive.dictionary(plist), let objects = dictionary["$objects"] as? [Any],
              let top = KeyedArchive.dictionary(dictionary["$top"]), let rootReference = top["root"]
        else { throw Failure.notAnArchive("no $objects and $top") }
        let walk = KeyedArchive(objects: objects)
        guard let model = walk.object(rootReference) else { throw Failure.missing("root object") }
        guard let entities = walk.members(model["NSEntities"]) else { throw Failure.missing("NSEntities") }
        var found: [AppleStoreInspection.ModelEntity] = []
        for value in entities {
            guard let entity = walk.object(value), let name = walk.resolve(entity["NSEntityName"]) as? String else { continue }
            let superentity = walk.object(entity["NSSuperentity"]).flatMap { walk.resolve($0["NSEntityName"]) as? String }
            let properties = walk.members(entity["NSProperties"]) ?? []
            var attributes: [AppleStoreInspection.ModelAttribute] = []
            var relationships: [AppleStoreInspection.ModelRelationship] = []
            for propertyValue in properties {
                guard let property = walk.object(propertyValue), let propertyName = walk.resolve(property["NSPropertyName"]) as? String else { continue }
                let isOptional = walk.resolve(property["NSIsOptional"]) as? Bool ?? false
                switch walk.className(of: property) {
                case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
                    let raw = walk.integer(property["NSAttributeType"]) ?? 0
                    attributes.append(AppleStoreInspection.ModelAttribute(
                        name: propertyName, type: attributeTypes[raw] ?? "type \(raw)", isOptional: isOptional,
                        valueClassName: walk.resolve(property["NSAttributeValueClassName"]) as? String,
                        transformerName: walk.resolve(property["NSValueTransformerName"]) as? String))
                case "NSRelationshipDescription":
                    let maximum = walk.integer(property["NSMaxCount"]) ?? 0
                    relationships.append(AppleStoreInspection.ModelRelationship(
                        name: propertyName,
                        destination: walk.resolve(property["_NSDestinationEntityName"]) as? String
                            ?? walk.object(property["NSDestinationEntity"]).flatMap { walk.resolve($0["NSEntityName"]) as? String } ?? "?",
                        inverse: walk.resolve(property["_NSInverseRelationshipName"]) as? String
                            ?? walk.object(property["NSInverseRelationship"]).flatMap { walk.resolve($0["NSPropertyName"]) as? String },
                        isToMany: maximum != 1, isOptional: isOptional,
                        deleteRule: deleteRules[walk.integer(property["NSDeleteRule"]) ?? 1] ?? "nullify",
                        isOrdered: walk.resolve(property["NSIsOrdered"]) as? Bool ?? false))
                default:
                    continue
                }
            }
            // Each uniqueness constraint is a list of property names (or of the properties).
            let unique = (walk.members(entity["NSUniqueTuples"]) ?? []).compactMap { tuple in
                walk.members(tuple)?.compactMap { member in
                    walk.resolve(member) as? String ?? walk.object(member).flatMap { walk.resolve($0["NSPropertyName"]) as? String }
                }
            }
            found.append(AppleStoreInspection.ModelEntity(
                name: name, superentity: superentity,
                isAbstract: walk.resolve(entity["NSIsAbstract"]) as? Bool ?? false, uniquenessConstraints: unique.filter { !$0.isEmpty },
                attributes: attributes.sorted { $0.name < $1.name }, relationships: relationships.sorted { $0.name < $1.name }))
        }
        return found.sorted { $0.name < $1.name }
    }
}
