import Foundation

/// One import: the app's models made from the Apple store's rows in one context, linked, saved
/// in one transaction to a new store, then read back in a fresh context and compared with the
/// Apple store row by row, value by value and link by link.
struct AppleStoreImportRun {
    let mapping: AppleStoreImportMapping
    let tables: AppleStoreTables
    let importing: AppleStoreImport

    /// A row of the Apple store: its table (shared by a hierarchy) and key.
    struct RowKey: Hashable {
        let table: String
        let key: Int64
    }

    /// The history author of the import's save.
    static let author = "OpenSwiftData.AppleStoreImport"

    func run(into url: URL, plan: AppleStoreImport.Plan) throws -> AppleStoreImport.Report {
        let container = try ModelContainer(
            for: mapping.schema, migrationPlan: importing.migrationPlan, configurations: [ModelConfiguration(url: url)])
        // The container is released as this returns, which closes the store's file before
        // the caller moves it into place.
        var rowIDs: [PersistentIdentifier: RowKey] = [:]
        var rows: [String: Int] = [:]
        do {
            let context = ModelContext(container)
            context.autosaveEnabled = false
            context.author = Self.author
            var models: [RowKey: any PersistentModel] = [:]
            for entity in mapping.entities {
                guard let apple = entity.apple else { continue }
                let sources = entity.attributes.compactMap(\.source)
                try tables.forEachRow(of: apple, columns: sources.map(\.column)) { key, values in
                    // Made as a fetched row is (``SampleStoreWriter`` makes models so too): the
                    // values in place before the model exists, `let`s included.
                    var modelValues = ModelValues(entity.layout.valueSlots)
                    var position = 0
                    for attribute in entity.attributes {
                        var value: Any?
                        if attribute.source != nil {
                            value = try self.value(values[position], of: attribute, in: entity, row: key)
                            position += 1
                        }
                        modelValues[attribute.propertyIndex] = value ?? Self.initialValue(of: attribute, in: entity)
                    }
                    let model = entity.layout.loadedStateType.init(layout: entity.layout, values: modelValues).makeModel()
                    Self.insert(model, into: context)
                    models[RowKey(table: apple.table, key: key)] = model
                }
                rows[entity.entity.name] = apple.rows
            }
            for entity in mapping.entities {
                guard let apple = entity.apple else { continue }
                for relationship in entity.relationships where relationship.isSet {
                    let links = try self.links(of: relationship, in: entity)
                    for (owner, members) in links {
                        guard let model = models[RowKey(table: apple.table, key: owner)] else { continue }
                        // A row of the table no mapped entity reads (an entity left behind) has no model.
                        Self.set(members.compactMap { models[$0] }, relationship, on: model)
                    }
                }
            }
            try context.save()
            for (key, model) in models { rowIDs[model.persistentModelID] = key }
        }
        let compared = try AppleStoreImportCheck(run: self, container: container, rowIDs: rowIDs).compare()
        return AppleStoreImport.Report(plan: plan, rows: rows, valuesCompared: compared.values, linksCompared: compared.links)
    }

    /// The links of `relationship` the Apple store holds for the rows of `entity`: the rows
    /// each row's relationship holds, by the row's key; rows holding none left out.
    ///
    /// - Throws: when a link names a row the Apple store does not have.
    func links(of relationship: AppleStoreImportMapping.Relationship, in entity: AppleStoreImportMapping.Entity) throws -> [Int64: [RowKey]] {
        guard let apple = entity.apple else { return [:] }
        let destinations = destinationEntities(of: relationship)
        guard let destinationTable = destinations.first?.table else { return [:] }
        let owners = try tables.keys(in: apple.table)
        let members = try tables.keys(in: destinationTable)
        func dangling(_ place: String, row: Int64, table: String) -> SwiftDataError {
            AppleStoreImportFailure.dangling(entity.entity.name, relationship.name, at: place, names: row, of: table)
        }
        var links: [Int64: [RowKey]] = [:]
        switch relationship.links {
        case .column(let column):
            try tables.forEachRow(of: apple, columns: [column]) { key, values in
                guard case .integer(let member) = values[0] else { return }
                guard members.contains(member) else { throw dangling("\(column) of row \(key)", row: member, table: destinationTable) }
                links[key] = [RowKey(table: destinationTable, key: member)]
            }
        case .inverse(let inverse):
            for destination in destinations {
                guard let column = tables.column(of: inverse, in: destination) else { continue }
                try tables.forEachRow(of: destination, columns: [column]) { key, values in
                    guard case .integer(let owner) = values[0] else { return }
                    guard owners.contains(owner) else { throw dangling("\(column) of \(destination.name) row \(key)", row: owner, table: apple.table) }
                    links[owner, default: []].append(RowKey(table: destinationTable, key: key))
                }
            }
            let own = try ownerKeys(of: apple)
            links = links.filter { own.contains($0.key) }
        case .joinTable(let table, let ownerColumn, let memberColumn):
            let own = try ownerKeys(of: apple)
            for pair in try tables.pairs(inJoinTable: table, ownerColumn: ownerColumn, memberColumn: memberColumn) {
                guard owners.contains(pair.owner) else { throw dangling("\(table).\(ownerColumn)", row: pair.owner, table: apple.table) }
                guard members.contains(pair.member) else { throw dangling("\(table).\(memberColumn)", row: pair.member, table: destinationTable) }
                if own.contains(pair.owner) { links[pair.owner, default: []].append(RowKey(table: destinationTable, key: pair.member)) }
            }
        }
        return links
    }

    /// The Apple entities whose rows a relationship's destination holds: the destination's and
    /// its subentities', as the models declare them.
    private func destinationEntities(of relationship: AppleStoreImportMapping.Relationship) -> [AppleStoreInspection.Entity] {
        guard let destination = mapping.schema.entitiesByName[relationship.destination] else { return [] }
        let names = Set(destination.selfAndDescendants.map(\.name))
        return mapping.entities.compactMap { names.contains($0.entity.name) ? $0.apple : nil }
    }

    private func ownerKeys(of apple: AppleStoreInspection.Entity) throws -> Set<Int64> {
        var keys: Set<Int64> = []
        try tables.forEachRow(of: apple, columns: []) { key, _ in keys.insert(key) }
        return keys
    }

    /// The property's value for a row's stored `value` of the attribute's column, a failure
    /// placed at its entity, property and row.
    func value(_ value: StoredValue, of attribute: AppleStoreImportMapping.Attribute, in entity: AppleStoreImportMapping.Entity, row: Int64) throws -> Any? {
        guard let source = attribute.source, let apple = entity.apple else { return nil }
        return try AppleStoreImportFailure.placed(
            entity: entity.entity.name, property: attribute.name, row: row, column: source.column, table: apple.table
        ) {
            try AppleImportedValue.value(value, of: attribute, type: source.type, tables: tables)
        }
    }

    private static func insert(_ model: any PersistentModel, into context: ModelContext) {
        func insert<T: PersistentModel>(_ model: T) { context.insert(model) }
        insert(model)
    }

    /// The value a row without one gets: `nil`, or the declaration's initial value, evaluated
    /// for each model as its initializer would (`UUID()` and `.now` differ from row to row).
    private static func initialValue(of attribute: AppleStoreImportMapping.Attribute, in entity: AppleStoreImportMapping.Entity) -> Any {
        guard attribute.property.defaultValue != nil,
              let fresh = entity.layout.modelType.schemaMetadata.first(where: { $0.name == attribute.name })?.defaultValue
        else { return attribute.fill! }
        return fresh
    }

    /// Sets a relationship of an inserted model to the models `related`, keeping the inverse
    /// side in step as its setter would.
    private static func set(_ related: [any PersistentModel], _ relationship: AppleStoreImportMapping.Relationship, on model: any PersistentModel) {
        let property = relationship.property
        guard let destination = property.destination, let state = model.modelState else { return }
        if property.isToMany {
            state.setRelationship(RelatedModels.toManyValue(related, of: destination), at: relationship.propertyIndex, owner: model)
        } else if let first = related.first {
            state.setRelationship(first, at: relationship.propertyIndex, owner: model)
        }
    }
}
