import Foundation

/// The check after an import: the new store read back in a fresh context and compared with
/// the Apple store, the number of models of each entity, every value (as the property's codec
/// stores it) and every link. Any difference fails the import, naming entity, property and row.
struct AppleStoreImportCheck {
    let run: AppleStoreImportRun
    let container: ModelContainer
    /// The Apple store's row of each saved model.
    let rowIDs: [PersistentIdentifier: AppleStoreImportRun.RowKey]

    func compare() throws -> (values: Int, links: Int) {
        let context = ModelContext(container)
        var values = 0
        var links = 0
        var modelsByRow: [AppleStoreImportRun.RowKey: any PersistentModel] = [:]
        for entity in run.mapping.entities {
            let models = try Self.fetchAll(entity.layout.modelType, in: context).filter { $0.persistentModelID.entityName == entity.entity.name }
            let expected = entity.apple?.rows ?? 0
            guard models.count == expected else {
                throw AppleStoreImportFailure.difference("the new store holds \(models.count) \(entity.entity.name) models where the Apple store has \(expected) rows")
            }
            for model in models {
                guard let row = rowIDs[model.persistentModelID] else {
                    throw AppleStoreImportFailure.difference("the new store holds a \(entity.entity.name) model the import did not make")
                }
                modelsByRow[row] = model
            }
        }
        for entity in run.mapping.entities {
            guard let apple = entity.apple else { continue }
            let sources = entity.attributes.compactMap(\.source)
            try run.tables.forEachRow(of: apple, columns: sources.map(\.column)) { key, stored in
                guard let model = modelsByRow[AppleStoreImportRun.RowKey(table: apple.table, key: key)] else {
                    throw AppleStoreImportFailure.difference("row \(key) of \(apple.table) (\(entity.entity.name)) has no model in the new store")
                }
                var position = 0
                // The values the Apple store has; the ones it lacks were filled, as the plan said.
                for attribute in entity.attributes {
                    guard attribute.source != nil else { continue }
                    let value = try run.value(stored[position], of: attribute, in: entity, row: key)
                    position += 1
                    // A NULL the declaration's initial value filled was evaluated for the model.
                    if value == nil, attribute.property.defaultValue != nil { continue }
                    let wanted = try attribute.codec.encode(value ?? attribute.fill!)
                    let found = try attribute.codec.encode(Self.read(attribute, of: model))
                    guard Self.same(wanted, found) else {
                        throw AppleStoreImportFailure.difference("\(entity.entity.name).\(attribute.name) of the Apple store's row \(key) reads back as \(PlanBuilder.describe(found)) where \(PlanBuilder.describe(wanted)) was written")
                    }
                    values += 1
                }
            }
            for relationship in entity.relationships {
                let expected = try run.links(of: relationship, in: entity)
                try run.tables.forEachRow(of: apple, columns: []) { key, _ in
                    guard let model = modelsByRow[AppleStoreImportRun.RowKey(table: apple.table, key: key)] else { return }
                    let held = Self.related(Self.read(relationship.property, of: model)).map { rowIDs[$0.persistentModelID] }
                    // Links to rows of entities left behind (as accepted) have nothing to hold.
                    let wanted = (expected[key] ?? []).filter { modelsByRow[$0] != nil }
                    guard held.count == wanted.count, Set(held.compactMap { $0 }) == Set(wanted) else {
                        throw AppleStoreImportFailure.difference("\(entity.entity.name).\(relationship.name) of the Apple store's row \(key) holds \(held.count) model(s) in the new store where the Apple store links \(wanted.count)")
                    }
                    links += wanted.count
                }
            }
        }
        return (values, links)
    }

    /// Two stored values are the same: equal, or both a NaN.
    private static func same(_ lhs: StoredValue, _ rhs: StoredValue) -> Bool {
        if case .real(let left) = lhs, case .real(let right) = rhs, left.isNaN, right.isNaN { return true }
        return lhs == rhs
    }

    private static func fetchAll(_ type: any PersistentModel.Type, in context: ModelContext) throws -> [any PersistentModel] {
        func fetch<T: PersistentModel>(_: T.Type) throws -> [any PersistentModel] { try context.fetch(FetchDescriptor<T>()) }
        return try fetch(type)
    }

    /// The value of an attribute of a fetched model: as its row held it, or, for one kept
    /// outside the row (not read until asked for), through its key path.
    private static func read(_ attribute: AppleStoreImportMapping.Attribute, of model: any PersistentModel) -> Any {
        if !attribute.isExternal, let value = model.modelState?.storedValue(at: attribute.propertyIndex) { return value }
        return read(attribute.property, of: model)
    }

    /// The value of `property` of `model`, read through its key path as the app reads it.
    /// (The key path subscript wraps the value in one more optional, which is taken off here:
    /// a property holding `nil` reads as its own `Optional.none`.)
    private static func read(_ property: ModelLayout.Property, of model: any PersistentModel) -> Any {
        func read<M: PersistentModel>(_ model: M) -> Any? { model[keyPath: property.keyPath] }
        guard let value = read(model) else { return property.emptyValue as Any }
        return value
    }

    /// The models a relationship's value holds.
    private static func related(_ value: Any?) -> [any PersistentModel] {
        if let models = value as? [any PersistentModel] { return models }
        if let model = value as? any PersistentModel { return [model] }
        return []
    }
}
