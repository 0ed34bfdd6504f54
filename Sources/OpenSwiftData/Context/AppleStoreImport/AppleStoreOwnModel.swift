import Foundation

/// The import of a store Apple's SwiftData wrote with the model the store itself keeps
/// (`Z_MODELCACHE`), when the app's model classes are not at hand (`osd import`): the model
/// becomes an OpenSwiftData schema (each Core Data type the Swift type SwiftData keeps that
/// way: Integer 64 is `Int`, Binary Data `Data`, …), the new store is written from that schema
/// with each row under its Apple key, then read back and compared.
///
/// An app whose models are the ones the Apple store was written with opens the new store as it
/// is; where they differ in what the store cannot tell (an `Int64` declared for Integer 64, an
/// index), the app's container migrates it as it would any store.
struct AppleStoreOwnModel {
    struct Attribute {
        let name: String
        let column: String
        /// The Apple store's attribute type.
        let type: String
        let codec: ValueCodec
        let valueType: Any.Type
        let isExternal: Bool
    }

    struct Relationship {
        let name: String
        let column: String?
        let storage: RelationshipStorage
        let apple: AppleStoreInspection.ModelRelationship
    }

    struct Entity {
        let apple: AppleStoreInspection.Entity
        let entity: Schema.Entity
        /// Every attribute kept in the row, inherited ones included.
        let attributes: [Attribute]
        /// Every relationship, inherited ones included.
        let relationships: [Relationship]
    }

    let schema: Schema
    let entities: [Entity]
    let plan: AppleStoreImport.Plan

    /// The Swift type SwiftData keeps as each Core Data attribute type, and its `Optional`.
    private static let swiftTypes: [String: (Any.Type, Any.Type)] = [
        "Int16": (Int16.self, Int16?.self), "Int32": (Int32.self, Int32?.self), "Int64": (Int.self, Int?.self),
        "Decimal": (Decimal.self, Decimal?.self), "Double": (Double.self, Double?.self), "Float": (Float.self, Float?.self),
        "String": (String.self, String?.self), "Bool": (Bool.self, Bool?.self), "Date": (Date.self, Date?.self),
        "Data": (Data.self, Data?.self), "UUID": (UUID.self, UUID?.self), "URL": (URL.self, URL?.self),
    ]

    /// The version a model version identifier such as `1.2.0` names (a `VersionedSchema`'s, as
    /// SwiftData records it); `nil` for another kind of identifier.
    private static func version(_ identifier: String) -> Schema.Version? {
        let parts = identifier.split(separator: ".").map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.map { $0! } + Array(repeating: 0, count: 3 - parts.count)
        return Schema.Version(numbers[0], numbers[1], numbers[2])
    }

    init(_ importing: AppleStoreImport, tables: AppleStoreTables) throws {
        let inspection = tables.inspection
        guard let model = inspection.model else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store at \(importing.appleStoreURL.path) keeps no model it was written with (\(inspection.modelProblem ?? "no Z_MODELCACHE")); without it the import cannot tell what its columns hold")
        }
        var builder = PlanBuilder(importing: importing)
        let modelByName = Dictionary(model.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var described: [(apple: AppleStoreInspection.Entity, entity: Schema.Entity, attributes: [Attribute])] = []
        for apple in inspection.entities {
            guard let modelEntity = modelByName[apple.name] else {
                if apple.rows > 0 { builder.leaveBehind(entity: apple.name, property: nil, what: "\(apple.rows) rows of an entity the store's model does not describe") }
                continue
            }
            let inherited = Set(modelEntity.superentity.flatMap { modelByName[$0] }.map { $0.attributes.map(\.name) + $0.relationships.map(\.name) } ?? [])
            var properties: [any SchemaProperty] = []
            var attributes: [Attribute] = []
            var copied: [String] = []
            for attribute in modelEntity.attributes {
                guard let column = tables.column(of: attribute.name, in: apple) else { continue }
                guard let types = Self.swiftTypes[attribute.type] else {
                    let values = try tables.count(of: apple, column: column, holdingValue: true)
                    if values > 0 {
                        builder.leaveBehind(entity: apple.name, property: attribute.name, what: "\(values) value\(values == 1 ? "" : "s") of Core Data's type \(attribute.type), whose Swift type only the app's models know: import with the app's models (AppleStoreImport(storeAt:schema:))")
                    }
                    continue
                }
                let isExternal = try attribute.type == "Data" && tables.holdsOnlyExternalReferences(apple, column: column)
                // A required attribute some rows have no value for (saved by an older version)
                // is kept optional: a required column could not hold those rows.
                let missing = attribute.isOptional ? 0 : try tables.count(of: apple, column: column, holdingValue: false)
                let type = attribute.isOptional || missing > 0 ? types.1 : types.0
                let codec = ValueCodec.forType(type)!
                attributes.append(Attribute(name: attribute.name, column: column, type: attribute.type, codec: codec, valueType: type, isExternal: isExternal))
                var notes: [String] = []
                if isExternal { notes.append(".externalStorage: its values are tagged as kept in the row or in a file") }
                if missing > 0 { notes.append("optional here: \(missing) row\(missing == 1 ? " has" : "s have") no value for it") }
                copied.append("\(attribute.name) ← \(column), \(attribute.type) → \(_typeName(type, qualified: false))\(notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")")
                guard !inherited.contains(attribute.name) else { continue }
                properties.append(Schema.Attribute(name: attribute.name, options: isExternal ? [.externalStorage] : [], valueType: type))
            }
            var links: [String] = []
            for relationship in modelEntity.relationships {
                if relationship.isToMany, relationship.inverse == nil {
                    builder.leaveBehind(entity: apple.name, property: relationship.name, what: "a to-many relationship without an inverse, whose links this import does not read")
                    continue
                }
                links.append("\(relationship.name) → \(relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination)")
                guard !inherited.contains(relationship.name) else { continue }
                let declared = Schema.Relationship(deleteRule: Schema.Relationship.DeleteRule(rawValue: relationship.deleteRule) ?? .nullify)
                declared.name = relationship.name
                declared.originalName = relationship.name
                declared.destination = relationship.destination
                declared.inverseName = relationship.inverse
                declared.isToOne = !relationship.isToMany
                declared.isOptionalValue = relationship.isOptional
                properties.append(declared)
            }
            let kept = Set(attributes.map(\.name))
            let unique = modelEntity.uniquenessConstraints.filter { $0.allSatisfy(kept.contains) && !$0.contains { inherited.contains($0) } }
            let entity = Schema.Entity(name: apple.name, superentityName: modelEntity.superentity, properties: properties, uniquenessConstraints: unique, indices: [])
            described.append((apple, entity, attributes))
            builder.entities.append(.init(name: apple.name, rows: apple.rows, copied: copied, filled: [], relationships: links, note: nil))
        }
        let version = inspection.versionIdentifiers.lazy.compactMap(Self.version).first ?? Schema.Version(1, 0, 0)
        let schema = Schema(describing: described.map(\.entity), version: version)
        self.schema = schema
        var entities: [Entity] = []
        for (apple, _, attributes) in described {
            guard let entity = schema.entitiesByName[apple.name], let modelEntity = modelByName[apple.name] else { continue }
            let relationships = modelEntity.relationships.compactMap { appleRelationship -> Relationship? in
                guard let declared = entity.relationshipsByName[appleRelationship.name] else { return nil }
                let storage = RelationshipStorage(declared, of: entity, destination: schema.entitiesByName[declared.destination])
                return Relationship(name: appleRelationship.name, column: tables.column(of: appleRelationship.name, in: apple), storage: storage, apple: appleRelationship)
            }
            entities.append(Entity(apple: apple, entity: entity, attributes: attributes, relationships: relationships))
        }
        self.entities = entities
        plan = builder.plan(store: importing.appleStoreURL, inspection: inspection)
    }
}
