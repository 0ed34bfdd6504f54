import Synchronization

extension TableLayout {
    /// A layout reading an entity's rows as another class of the entity's name than the one the
    /// store was opened with: the class a relationship declares when it is another version's
    /// (a model a version takes from an older one through a typealias, a helper model shared by
    /// every version). Properties the stored entity lacks read as their declared default, `nil`
    /// or empty; its models are registered apart from the store's own class's.
    ///
    /// - Returns: `nil` with the reasons, one per property, when a row cannot give the class a
    ///   value: a property of another type or kind than the stored one, or one the entity lacks
    ///   that has no default and is not optional.
    static func readingRows(
        of entity: Schema.Entity, as layout: ModelLayout, schema: Schema
    ) -> (table: TableLayout?, problems: [String]) {
        let problems = problems(reading: entity, as: layout)
        guard problems.isEmpty else { return (nil, problems) }
        let table = TableLayout(
            entity: entity, layout: layout, schema: schema,
            registryKey: "\(entity.name) as \(String(reflecting: layout.modelType))")
        return (table, [])
    }

    private static func problems(reading entity: Schema.Entity, as layout: ModelLayout) -> [String] {
        let attributes = entity.attributesByName
        let relationships = entity.relationshipsByName
        var problems: [String] = []
        for property in layout.properties {
            let name = property.name
            if let destination = property.destination {
                let declared = Schema.entityName(for: destination)
                if let stored = relationships[name] {
                    if stored.destination != declared || stored.isToOne == property.isToMany {
                        problems.append(
                            "\(name) is a to-\(property.isToMany ? "many" : "one") relationship to \(declared) there, but a to-\(stored.isToOne ? "one" : "many") relationship to \(stored.destination) in the store")
                    }
                } else if attributes[name] != nil {
                    problems.append("\(name) is a relationship there, but an attribute in the store")
                } else if !property.isToMany, !property.isOptional {
                    problems.append("\(name) is a relationship the store does not have, and is not optional")
                }
            } else if let stored = attributes[name] {
                if let storage = property.codec?.storage, let storedStorage = stored.storageType, storage != storedStorage {
                    problems.append("\(name) is stored as \(storedStorage) but declared as \(property.valueType) there")
                } else if stored.isOptional, !property.isOptional {
                    problems.append("\(name) may be nil in the store but is not optional there")
                }
            } else if relationships[name] != nil {
                problems.append("\(name) is an attribute there, but a relationship in the store")
            } else if !property.isOptional, property.defaultValue == nil {
                problems.append("\(name) has no column in the store, and no default value there")
            }
        }
        return problems
    }
}

/// The layouts reading a store's rows of an entity as another class of its name, by class, made
/// as relationships declared with those classes are first read; one per store.
package final class OtherClassTables: Sendable {
    private let made = Mutex<[ObjectIdentifier: TableLayout]>([:])

    package init() {}

    /// The layout reading the rows of `table` as `modelType`: `table` itself when that is the
    /// store's class of the entity, else one made once for the class
    /// (``TableLayout/readingRows(of:as:schema:)``).
    ///
    /// - Throws: ``OtherClassReadRefusal`` naming each property the rows cannot give a value.
    package func table(
        _ table: TableLayout, readingRowsAs modelType: any PersistentModel.Type, schema: Schema
    ) throws(OtherClassReadRefusal) -> TableLayout {
        if table.layout.modelType == modelType { return table }
        let key = ObjectIdentifier(modelType)
        if let found = made.withLock({ $0[key] }) { return found }
        let (new, problems) = TableLayout.readingRows(of: table.entity, as: ModelLayout.of(modelType), schema: schema)
        guard let new else { throw OtherClassReadRefusal(storeClass: table.layout.modelType, problems: problems) }
        return made.withLock { $0[key, default: new] }
    }
}

/// Why a store's rows of an entity cannot be read as another class of the entity's name.
package struct OtherClassReadRefusal: Error {
    /// The class the store was opened with for the entity.
    let storeClass: any PersistentModel.Type
    let problems: [String]
}
