
/// An entity's table of a store, as a query reads it under one name: the table's own name for
/// the entity being fetched, an alias inside a subquery.
///
/// Resolves the entity's stored attributes to qualified columns, its relationships to the
/// tables of the same store, and `persistentModelID` to the primary key.
struct StoreTableColumns: ColumnResolving {
    let table: TableLayout
    /// The name the query gives the table.
    let qualifier: String
    /// Every table of the store, by entity name.
    let tables: [String: TableLayout]
    let storeIdentifier: String

    /// The table of `table`'s entity in `store`, under its own name.
    init(_ table: TableLayout, in store: any ModelStore) {
        self.init(table, qualifier: table.storedName, tables: store.tables, storeIdentifier: store.identifier)
    }

    init(_ table: TableLayout, qualifier: String, tables: [String: TableLayout], storeIdentifier: String) {
        self.table = table
        self.qualifier = qualifier
        self.tables = tables
        self.storeIdentifier = storeIdentifier
    }

    func column(for keyPath: AnyKeyPath) -> ResolvedColumn? {
        table.storedColumn(for: keyPath).map { column in
            ResolvedColumn(sql: .column(column.name, of: qualifier), codec: column.codec, name: column.name)
        }
    }

    func relationship(for keyPath: AnyKeyPath) -> ResolvedRelationship? {
        guard let index = table.layout.index(of: keyPath),
              let stored = table.relationships.first(where: { $0.propertyIndex == index }),
              let destination = tables[stored.destination]
        else { return nil }
        let keyColumn: SQLFragment?
        if case .foreignKey(let column) = stored.storage {
            keyColumn = .column(column, of: qualifier)
        } else {
            keyColumn = nil
        }
        let tables = tables
        let storeIdentifier = storeIdentifier
        return ResolvedRelationship(
            name: "\(table.entity.name).\(stored.name)", isToOne: stored.isToOne, storage: stored.storage,
            keyColumn: keyColumn, destinationEntity: destination.entity.name,
            destinationTable: destination.storedName,
            destination: { alias in
                StoreTableColumns(destination, qualifier: alias, tables: tables, storeIdentifier: storeIdentifier)
            })
    }

    func cast(to type: Any.Type) -> RowCast? {
        guard let model = type as? any PersistentModel.Type else { return nil }
        // A class the table's class descends from (or the class itself): every row is one.
        var ancestor: ModelLayout? = table.layout
        while let layout = ancestor {
            if ObjectIdentifier(layout.modelType) == ObjectIdentifier(model) { return RowCast(columns: self, condition: nil) }
            ancestor = layout.superclassLayout
        }
        let name = Schema.entityName(for: model)
        guard let names = table.hierarchyEntities, names.contains(name), let target = tables[name] else { return nil }
        return RowCast(
            columns: StoreTableColumns(target, qualifier: qualifier, tables: tables, storeIdentifier: storeIdentifier),
            condition: target.classCondition(qualifiedBy: qualifier))
    }

    var rowIdentity: RowIdentity? {
        RowIdentity(
            entityName: table.entity.name, storeIdentifier: storeIdentifier, tableName: table.storedName,
            primaryKey: .column(TableLayout.primaryKeyColumn, of: qualifier),
            identifierKeyPath: table.layout.identifierKeyPath, idKeyPath: table.layout.idKeyPath)
    }

    // MARK: Key paths through to-one relationships

    /// Splits `\Book.shelf?.name` into `\Book.shelf` and `\Shelf.name`.
    ///
    /// Swift offers no way to take a key path apart, nor to build one with optional chaining
    /// (`\Book.shelf` appending `\Shelf?.?.name` is not equal to `\Book.shelf?.name`). What it
    /// does offer is a description that lists the components: `\Book.<computed 0x… (Optional<Shelf>)>?.<computed 0x… (String)>?`
    /// on Linux, where each computed property is told apart by its getter's address, and
    /// `\Book.shelf?.name` where names are known. Each step is matched against the description
    /// of a property's own key path, so a match names exactly the properties the key path
    /// reads; anything else (a to-many step, a computed property) matches nothing, and the
    /// sort is refused rather than guessed.
    func propertyChain(for keyPath: AnyKeyPath) -> [AnyKeyPath]? {
        let text = "\(keyPath)"
        let root = Self.rootPrefix(of: table)
        guard text.hasPrefix(root) else { return nil }
        return Self.chain(Substring(text.dropFirst(root.count)), in: table, tables: tables, depth: 0)
    }

    private static func rootPrefix(of table: TableLayout) -> String {
        "\\" + String(describing: table.layout.modelType)
    }

    /// The properties that `rest`, the description of a key path after its root, reads from
    /// `table`'s model.
    private static func chain(
        _ rest: Substring, in table: TableLayout, tables: [String: TableLayout], depth: Int
    ) -> [AnyKeyPath]? {
        guard depth < 16 else { return nil }
        let root = rootPrefix(of: table)
        var found: [AnyKeyPath]?
        for (index, property) in table.layout.properties.enumerated() {
            let own = "\(property.keyPath)"
            guard own.hasPrefix(root) else { continue }
            let step = own.dropFirst(root.count)
            guard step.hasPrefix("."), rest.hasPrefix(step) else { continue }
            var after = rest.dropFirst(step.count)
            // Optional chaining marks a step with `?`; the final value of a chain that ends in
            // a non-optional value is wrapped, which also prints as `?`.
            if after.hasPrefix("?") { after = after.dropFirst() }
            var match: [AnyKeyPath]?
            if after.isEmpty {
                if table.columns.contains(where: { $0.propertyIndex == index }) {
                    match = [property.keyPath]
                }
            } else if after.hasPrefix("."),
                      let relationship = table.relationships.first(where: { $0.propertyIndex == index }),
                      relationship.isToOne,
                      let destination = tables[relationship.destination],
                      let tail = chain(after, in: destination, tables: tables, depth: depth + 1) {
                match = [property.keyPath] + tail
            }
            guard let match else { continue }
            // Two properties whose descriptions both fit would make the answer a guess.
            if found != nil { return nil }
            found = match
        }
        return found
    }
}
