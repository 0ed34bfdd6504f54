import Foundation

/// Where each entity, attribute and relationship of the app's models comes from in a store
/// Apple's SwiftData wrote, and what of that store the models leave behind: worked out once,
/// from the store's own model (`Z_MODELCACHE`) and tables, before anything is written.
struct AppleStoreImportMapping {
    /// An attribute of the app's models and where its values come from.
    struct Attribute {
        let name: String
        let propertyIndex: Int
        let property: ModelLayout.Property
        let codec: ValueCodec
        /// The Apple store's column and attribute type; `nil` when it keeps no values for it.
        let source: (column: String, type: String)?
        /// Whether the Apple store keeps the values outside its rows when they are large.
        let isExternal: Bool
        /// What a row without a value gets: the declaration's initial value, or `nil`.
        let fill: Any?
    }

    /// How the members of a relationship are found in the Apple store.
    enum Links {
        /// A to-one: the column holding the related row's key.
        case column(String)
        /// A to-many whose inverse is a to-one (named here): the related rows' key column.
        case inverse(String)
        /// A many-to-many: a join table.
        case joinTable(table: String, ownerColumn: String, memberColumn: String)
    }

    struct Relationship {
        let name: String
        let propertyIndex: Int
        let property: ModelLayout.Property
        let destination: String
        let links: Links
        /// Whether the import sets it: a relationship whose inverse the import sets is filled
        /// by the context as the inverse is set.
        let isSet: Bool
    }

    struct Entity {
        let entity: Schema.Entity
        let layout: ModelLayout
        /// The Apple store's entity of the same name; `nil` when it has none (no rows to bring).
        let apple: AppleStoreInspection.Entity?
        let attributes: [Attribute]
        let relationships: [Relationship]
    }

    let schema: Schema
    let entities: [Entity]
    let plan: AppleStoreImport.Plan

    init(_ importing: AppleStoreImport, schema: Schema, tables: AppleStoreTables) throws {
        let inspection = tables.inspection
        guard let model = inspection.model else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the store at \(importing.appleStoreURL.path) keeps no model it was written with (\(inspection.modelProblem ?? "no Z_MODELCACHE")); without it the import cannot tell what its columns hold")
        }
        let appleEntities = Dictionary(inspection.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let appleModel = Dictionary(model.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var builder = PlanBuilder(importing: importing)
        var entities: [Entity] = []
        var setRelationships: Set<String> = []
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name] else { continue }
            guard let apple = appleEntities[entity.name], let appleEntity = appleModel[entity.name] else {
                builder.entities.append(.init(name: entity.name, rows: 0, copied: [], filled: [], relationships: [], note: "not in the Apple store: starts empty"))
                entities.append(Entity(entity: entity, layout: layout, apple: nil, attributes: [], relationships: []))
                continue
            }
            var attributes: [Attribute] = []
            var copied: [String] = []
            var filled: [String] = []
            var used: Set<String> = []
            for attribute in entity.attributesInOrder {
                guard let index = layout.properties.firstIndex(where: { $0.name == attribute.name }) else { continue }
                let property = layout.properties[index]
                guard let codec = property.codec else { continue }
                let appleAttribute = appleEntity.attributes.first { $0.name == attribute.name }
                    ?? appleEntity.attributes.first { $0.name == attribute.originalName }
                let place = "\(entity.name).\(attribute.name)"
                let fill = property.defaultValue ?? (property.isOptional ? codec.nilValue : nil)
                guard let appleAttribute else {
                    guard fill != nil else {
                        builder.refusals.append("\(place) is required and the Apple store has no attribute \(attribute.name)\(attribute.originalName != attribute.name ? " or \(attribute.originalName)" : "") to take it from: give it an initial value in its declaration or make it optional")
                        continue
                    }
                    filled.append("\(attribute.name) (not in the Apple store: \(property.defaultValue == nil ? "nil" : "its initial value"))")
                    attributes.append(Attribute(name: attribute.name, propertyIndex: index, property: property, codec: codec, source: nil, isExternal: false, fill: fill))
                    continue
                }
                used.insert(appleAttribute.name)
                guard let column = tables.column(of: appleAttribute.name, in: apple) else {
                    // A transient attribute of the Apple model has no column: nothing to bring.
                    guard fill != nil else {
                        builder.refusals.append("\(place) is required and the Apple store keeps no column for \(appleAttribute.name) (transient there): give it an initial value in its declaration or make it optional")
                        continue
                    }
                    filled.append("\(attribute.name) (\(apple.table) has no column for \(appleAttribute.name): transient in the Apple model)")
                    attributes.append(Attribute(name: attribute.name, propertyIndex: index, property: property, codec: codec, source: nil, isExternal: false, fill: fill))
                    continue
                }
                if let problem = AppleImportedValue.incompatibility(appleType: appleAttribute.type, storage: codec.storage, typeName: codec.typeName) {
                    if builder.accepts(entity: entity.name, property: attribute.name) && fill != nil {
                        builder.losses.append(.init(entity: entity.name, property: attribute.name, what: "\(problem); its values are dropped", isAccepted: true))
                        attributes.append(Attribute(name: attribute.name, propertyIndex: index, property: property, codec: codec, source: nil, isExternal: false, fill: fill))
                    } else {
                        let dropping = fill != nil ? "; or accept dropping its values (\"\(place)\")" : ""
                        builder.refusals.append("\(place): \(problem)\(dropping)")
                    }
                    continue
                }
                if fill == nil, try tables.count(of: apple, column: column, holdingValue: false) > 0 {
                    let missing = try tables.count(of: apple, column: column, holdingValue: false)
                    builder.refusals.append("\(place) is required and \(missing) row\(missing == 1 ? "" : "s") of \(entity.name) in the Apple store have no value for it (\(column) is NULL): give it an initial value in its declaration or make it optional")
                    // Kept in the mapping, refused as it is, so its uniqueness is checked too.
                }
                let renamed = appleAttribute.name == attribute.name ? "" : " (was \(appleAttribute.name))"
                copied.append("\(attribute.name)\(renamed) ← \(column), \(appleAttribute.type) → \(codec.typeName)")
                // Kept outside the store when large: what the models declare, or what the values
                // say (an app may have dropped `.externalStorage` since its Apple version).
                let isExternal = try attribute.options.contains(.externalStorage)
                    || codec.storage == .data && appleAttribute.type == "Data" && tables.holdsOnlyExternalReferences(apple, column: column)
                attributes.append(Attribute(
                    name: attribute.name, propertyIndex: index, property: property, codec: codec,
                    source: (column, appleAttribute.type), isExternal: isExternal, fill: fill))
            }
            var relationships: [Relationship] = []
            var linkNotes: [String] = []
            for relationship in entity.relationshipsInOrder {
                guard let index = layout.properties.firstIndex(where: { $0.name == relationship.name }) else { continue }
                let place = "\(entity.name).\(relationship.name)"
                guard let appleRelationship = appleEntity.relationships.first(where: { $0.name == relationship.name })
                    ?? appleEntity.relationships.first(where: { $0.name == relationship.originalName })
                else {
                    linkNotes.append("\(relationship.name) (not in the Apple store: empty)")
                    continue
                }
                used.insert(appleRelationship.name)
                guard appleRelationship.destination == relationship.destination, appleRelationship.isToMany == !relationship.isToOne else {
                    builder.refusals.append("\(place) is \(relationship.isToOne ? "a to-one" : "a to-many") of \(relationship.destination) and the Apple store's \(appleRelationship.name) \(appleRelationship.isToMany ? "a to-many" : "a to-one") of \(appleRelationship.destination): the import cannot bring its links over")
                    continue
                }
                let links: Links
                if !appleRelationship.isToMany {
                    guard let column = tables.column(of: appleRelationship.name, in: apple) else {
                        builder.refusals.append("\(place): \(apple.table) has no column holding the links of \(appleRelationship.name)")
                        continue
                    }
                    links = .column(column)
                } else if let inverse = appleRelationship.inverse,
                          let inverseRelationship = appleModel[appleRelationship.destination]?.relationships.first(where: { $0.name == inverse }) {
                    if inverseRelationship.isToMany {
                        guard let join = tables.joinTable(relationship: appleRelationship.name, inverse: inverse) else {
                            builder.refusals.append("\(place): the Apple store has no join table for \(appleRelationship.name) and \(inverse)")
                            continue
                        }
                        links = .joinTable(table: join.table, ownerColumn: join.ownerColumn, memberColumn: join.memberColumn)
                    } else {
                        links = .inverse(inverse)
                    }
                } else {
                    builder.refusals.append("\(place): the Apple store's \(appleRelationship.name) has no inverse, and how such a to-many is kept is not read here; add an inverse in the Apple version first, or accept dropping it")
                    continue
                }
                // A relationship whose inverse is set by the import fills itself as the
                // context keeps inverses; each pair is set once, from the first side visited.
                let key = "\(entity.name).\(relationship.name)"
                let inverseKey = relationship.inverseName.map { "\(relationship.destination).\($0)" }
                let isSet = inverseKey.map { !setRelationships.contains($0) } ?? true
                if isSet { setRelationships.insert(key) }
                linkNotes.append("\(relationship.name) → \(relationship.destination) (\(Self.describe(links)))")
                relationships.append(Relationship(name: relationship.name, propertyIndex: index, property: layout.properties[index], destination: relationship.destination, links: links, isSet: isSet))
            }
            try builder.noteLeftBehind(apple: apple, appleEntity: appleEntity, used: used, tables: tables)
            try builder.checkUniqueness(entity, apple: apple, attributes: attributes, entities: appleEntities, tables: tables)
            builder.entities.append(.init(name: entity.name, rows: apple.rows, copied: copied, filled: filled, relationships: linkNotes, note: nil))
            entities.append(Entity(entity: entity, layout: layout, apple: apple, attributes: attributes, relationships: relationships))
        }
        builder.noteUnmappedJoinTables(tables: tables)
        let declared = Set(schema.entities.map(\.name))
        for apple in inspection.entities where !declared.contains(apple.name) && apple.rows > 0 {
            builder.leaveBehind(entity: apple.name, property: nil, what: "\(apple.rows) row\(apple.rows == 1 ? "" : "s") of an entity the models do not declare")
        }
        self.schema = schema
        self.entities = entities
        plan = builder.plan(store: importing.appleStoreURL, inspection: inspection)
    }

    private static func describe(_ links: Links) -> String {
        switch links {
        case .column(let column): "column \(column)"
        case .inverse(let inverse): "the related rows' \(inverse)"
        case .joinTable(let table, _, _): "join table \(table)"
        }
    }
}
