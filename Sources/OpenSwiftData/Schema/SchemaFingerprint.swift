import Foundation

extension Schema {
    /// The schema's structure as canonical JSON: what decides whether two schemas store data
    /// the same way.
    ///
    /// It covers entity names; attribute names, storage types, optionality and
    /// `.externalStorage`; relationships' destinations, cardinality, optionality, inverses and
    /// count bounds; uniqueness constraints, indices and every `hashModifier`. It leaves out what does not change the stored
    /// structure: default values, delete rules, `originalName`s, the declared version number and
    /// the order of declarations. Two versions of a migration plan with equal fingerprints are
    /// the same version as far as a store can tell.
    package var fingerprint: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let structure = entities.map(EntityStructure.init)
        // Encoding plain strings, numbers and arrays cannot fail.
        let data = try! encoder.encode(structure)
        return String(decoding: data, as: UTF8.self)
    }
}

private struct EntityStructure: Encodable {
    struct Attribute: Encodable {
        let name: String
        let storage: String
        let isOptional: Bool
        /// `true` for `.externalStorage`, else left out, so fingerprints of schemas without it
        /// read as they always have.
        let isExternal: Bool?
        let hashModifier: String?
    }

    struct Relationship: Encodable {
        let name: String
        let destination: String
        let isToOne: Bool
        let isOptional: Bool
        let inverse: String?
        let minimumModelCount: Int?
        let maximumModelCount: Int?
        let hashModifier: String?
    }

    let name: String
    /// `nil` (left out) for an entity with no superentity, so flat schemas keep their fingerprints.
    let superentity: String?
    let attributes: [Attribute]
    let relationships: [Relationship]
    let unique: [[String]]
    let indices: [[String]]

    init(_ entity: Schema.Entity) {
        name = entity.name
        superentity = entity.superentityName
        attributes = entity.attributesInOrder.map { attribute in
            let storage = attribute.storageType.map { storage in
                storage == .codable ? "codable(\(attribute.valueTypeName))" : storage.rawValue
            } ?? "unsupported(\(attribute.valueTypeName))"
            return Attribute(
                name: attribute.name, storage: storage, isOptional: attribute.isOptional,
                isExternal: attribute.options.contains(.externalStorage) ? true : nil,
                hashModifier: attribute.hashModifier)
        }.sorted { $0.name < $1.name }
        relationships = entity.relationshipsInOrder.map { relationship in
            Relationship(
                name: relationship.name, destination: relationship.destination,
                isToOne: relationship.isToOne, isOptional: relationship.isOptionalValue,
                inverse: relationship.inverseName,
                minimumModelCount: relationship.minimumModelCount == 0 ? nil : relationship.minimumModelCount,
                maximumModelCount: relationship.maximumModelCount == 0 ? nil : relationship.maximumModelCount,
                hashModifier: relationship.hashModifier)
        }.sorted { $0.name < $1.name }
        unique = entity.uniquenessConstraints.map { $0.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
        indices = entity.indices.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
