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
                    let model = Self.makeModel(of: entity.layout.modelType)
                    var position = 0
                    var constants: [(AppleStoreImportMapping.Attribute, Any)] = []
                    for attribute in entity.attributes {
                        var value: Any?
                        if let source = attribute.source {
                            value = try placed(entity, attribute, row: key) {
                                try AppleImportedValue.value(values[position], of: attribute, type: source.type, tables: tables)
                            }
                            position += 1
                        }
                        // A `let` lives in the object, whose value an insert copies into the
                        // backing data: a stored value goes in after; without one, the object's
                        // own initial value stays.
                        if attribute.property.isConstant {
                            if let value { constants.append((attribute, value)) }
                        } else {
                            try Self.set(value ?? Self.initialValue(of: attribute, in: entity), at: attribute.propertyIndex, on: model)
                        }
                    }
                    Self.insert(model, into: context)
                    for (attribute, value) in constants { try Self.set(value, at: attribute.propertyIndex, on: model) }
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
                        try Self.set(members.compactMap { models[$0] }, relationship, on: model)
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
        func dangling(_ what: String, row: Int64, table: String) -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.explaining(
                "\(entity.entity.name).\(relationship.name): \(what) names row \(row) of \(table), which the Apple store does not have (osd check lists such links); nothing was written")
        }
        var links: [Int64: [RowKey]] = [:]
        switch relationship.links {
        case .column(let column):
            try tables.forEachRow(of: apple, columns: [column]) { key, values in
                guard case .integer(let member) = values[0] else { return }
                guard members.contains(member) else { throw dangling("\(column) of row \(key)", row: member, table: destinationTable) }
                links[key] = [RowKey(table: destinationTable, key: member)]
            }
        case .inverseColumn(let column):
            for destination in destinations where tables.hasColumn(column, of: destination) {
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

    /// Runs `body`, placing a value's failure at its entity, property and row.
    func placed<T>(_ entity: AppleStoreImportMapping.Entity, _ attribute: AppleStoreImportMapping.Attribute, row: Int64, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as AppleImportedValue.Failure {
            let column = attribute.source.map { "column \($0.column) of \(entity.apple?.table ?? "?")" } ?? ""
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(entity.entity.name).\(attribute.name) of the Apple store's row \(row) (\(column)): \(failure.description); nothing was written")
        }
    }

    private static func makeModel(of type: any PersistentModel.Type) -> any PersistentModel {
        func make<T: PersistentModel>(_: T.Type) -> any PersistentModel { T(backingData: T.createBackingData()) }
        return make(type)
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

    /// Sets an attribute of a model not inserted yet, in its backing data: what its
    /// initializer would do (the key path's setter would read the value first, and a new
    /// model's required attribute has none to read).
    private static func set(_ value: Any, at index: Int, on model: any PersistentModel) throws {
        guard let state = model.modelState else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "\(type(of: model)) keeps its values in a backing data of its own, which the import cannot fill; nothing was written")
        }
        state.setValue(value, at: index)
        state.noteAssigned(index, empty: false)
    }

    /// Sets a relationship of an inserted model to the models `related`, keeping the inverse
    /// side in step as its setter would.
    private static func set(_ related: [any PersistentModel], _ relationship: AppleStoreImportMapping.Relationship, on model: any PersistentModel) throws {
        let property = relationship.property
        guard let destination = property.destination, let state = model.modelState else { return }
        let index = state.layout.properties.firstIndex { $0.name == property.name }!
        if property.isToMany {
            state.setRelationship(RelatedModels.toManyValue(related, of: destination), at: index, owner: model)
        } else if let first = related.first {
            state.setRelationship(first, at: index, owner: model)
        }
    }
}
