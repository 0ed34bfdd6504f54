/// How one entity is laid out in a store's tables, alike in every store: its table, the column
/// of each stored attribute, the keys of its to-one relationships, and how a model's values
/// are read from a row. SQLite's statements over the layout are in
/// `Store/SQLite/TableLayout+SQLite.swift`; PostgreSQL's in its own module. The DocC article
/// HowValuesAreStored describes the tables.
///
/// The column order is part of every statement and of ``rowDecoder``: `_pk`, the attributes
/// kept in the table in declaration order, then the to-one relationships' keys. The classes of
/// a hierarchy share their root's table and select all its columns (``selectedColumns``).
/// Built once per store and never changed (a class, so that handing it on for every row is one
/// retain).
package final class TableLayout: @unchecked Sendable {
    /// A stored attribute: its column and where its value sits in the model's backing data.
    // A class: fetches and saves pass columns around for every row, and a reference is handed
    // on with one retain.
    package final class Column {
        package let name: String
        package let propertyIndex: Int
        package let codec: ValueCodec
        package let isOptional: Bool

        init(name: String, propertyIndex: Int, codec: ValueCodec, isOptional: Bool) {
            self.name = name
            self.propertyIndex = propertyIndex
            self.codec = codec
            self.isOptional = isOptional
        }
    }

    package static let primaryKeyColumn = "_pk"

    /// The layout of each entity's table, by entity name.
    /// - Parameter storedNames: tables to read under another name than their entity's.
    package static func layouts(of schema: Schema, storedNames: [String: String] = [:]) -> [String: TableLayout] {
        var tables: [String: TableLayout] = [:]
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name] else { continue }
            tables[entity.name] = TableLayout(entity: entity, layout: layout, schema: schema, storedName: storedNames[entity.name])
        }
        return tables
    }

    /// The condition that a row's key is one of `rowIDs`.
    package func keyIsOne(of rowIDs: [Int64]) -> SQLFragment {
        "\(keyColumn) IN (\(SQLFragment.list(rowIDs.map { .integer($0) })))"
    }

    /// The key column, qualified with the table's name, as every store's queries name it.
    package var keyColumn: SQLFragment {
        .column(Self.primaryKeyColumn, of: storedName)
    }

    package let entity: Schema.Entity
    package let layout: ModelLayout
    package let columns: [Column]
    package let columnIndexByName: [String: Int]
    /// The attributes kept outside the table, each in its own side table.
    package let externalColumns: [Column]
    package let relationships: [StoredRelationship]
    /// The to-one relationships, whose key columns follow the attribute columns.
    package let foreignKeys: [StoredRelationship]

    /// What a context registers the table's models under: the entity's name (its hierarchy
    /// root's, for a class hierarchy, whose rows share one table), or, for a layout reading the
    /// rows as another class of the entity (``readingRows(of:as:schema:)``), a key of its own,
    /// so that each class has one object per row.
    package let registryKey: String

    /// For an entity of a class hierarchy, the entities whose rows a fetch of it reads (itself
    /// and its descendants); `nil` for an entity outside any hierarchy. A hierarchy is stored
    /// in its root entity's table: every column of every class, and ``entityColumn`` naming the
    /// class of each row.
    package let hierarchyEntities: [String]?
    /// The column holding the entity name of each row of a hierarchy's table.
    package static let entityColumn = "_entity"

    /// For a class of a hierarchy, that a row of its table (named `qualifier`, the table's own
    /// name when `nil`) is of the class or, unless `exactly`, of a subclass of it; `nil` when
    /// every row of the table qualifies (a flat entity, or the root with subclasses allowed).
    package func classCondition(qualifiedBy qualifier: String? = nil, exactly: Bool = false) -> SQLFragment? {
        guard let names = hierarchyEntities else { return nil }
        let classes = exactly ? [entity.name] : names
        guard classes.count < names.count || entity.superentity != nil else { return nil }
        let column = SQLFragment.column(Self.entityColumn, of: qualifier ?? storedName)
        return "\(column) IN (\(SQLFragment.list(classes.map { .text($0) })))"
    }

    /// - Parameters:
    ///   - storedName: the table's name when it is not the entity's: a migration reads the old
    ///     version of a rebuilt table under another name.
    ///   - registryKey: see ``registryKey``; the entity's name when `nil`.
    init(entity: Schema.Entity, layout: ModelLayout, schema: Schema, storedName: String? = nil, registryKey: String? = nil) {
        self.entity = entity
        self.layout = layout
        let root = entity.rootEntity
        let hierarchy = root.subentities.isEmpty ? nil : root.selfAndDescendants
        hierarchyEntities = hierarchy == nil ? nil : entity.selfAndDescendants.map(\.name)
        self.registryKey = registryKey ?? root.name
        var columns: [Column] = []
        var externalColumns: [Column] = []
        for attribute in entity.attributesInOrder {
            guard let index = layout.properties.firstIndex(where: { $0.name == attribute.name }),
                  let codec = layout.properties[index].codec
            else { continue }
            let column = Column(name: attribute.name, propertyIndex: index, codec: codec, isOptional: attribute.isOptional)
            if attribute.options.contains(.externalStorage) {
                externalColumns.append(column)
            } else {
                columns.append(column)
            }
        }
        self.columns = columns
        self.externalColumns = externalColumns
        relationships = entity.relationshipsInOrder.compactMap { relationship in
            guard let index = layout.properties.firstIndex(where: { $0.name == relationship.name }) else { return nil }
            return StoredRelationship(
                relationship, of: entity, propertyIndex: index, destination: schema.entitiesByName[relationship.destination])
        }
        foreignKeys = relationships.filter(\.isToOne)
        columnIndexByName = Dictionary(columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        self.storedName = storedName ?? root.name
        if let hierarchy {
            // Every class of a hierarchy selects the table's columns alike, so one query reads
            // rows of any of them, each decoded by its class's decoder.
            let shared = Self.hierarchyColumns(hierarchy)
            selectedColumns = [Self.primaryKeyColumn, Self.entityColumn] + shared.attributes.map(\.name) + shared.foreignKeys
        } else {
            selectedColumns = [Self.primaryKeyColumn] + columns.map(\.name) + foreignKeys.map(\.name)
        }
        let constraints = entity.uniquenessConstraintsWithInherited
        let columnIndexByName = columnIndexByName
        if constraints.count == 1, let constraint = constraints.first,
           constraint.allSatisfy({ name in columnIndexByName[name].map { !columns[$0].isOptional } ?? false }) {
            upsertConstraint = constraint
        } else {
            upsertConstraint = nil
        }
        singleRowColumns = Set([Self.primaryKeyColumn]).union(constraints.filter { $0.count == 1 }.map { $0[0] })
        let statements = Self.sqliteStatements(
            storedName: self.storedName, entity: entity, selectedColumns: selectedColumns, columns: columns, foreignKeys: foreignKeys,
            inHierarchy: hierarchy != nil, upsertConstraint: upsertConstraint)
        (tableName, selectList, insertSQL, upsertSQL) = (statements.tableName, statements.selectList, statements.insert, statements.upsert)
        rowDecoder = RowDecoder(
            entity: entity, layout: layout, columns: columns, relationships: relationships, selectedColumns: selectedColumns,
            readsAnotherClass: registryKey != nil)!
    }

    /// Reads this table's model values from the rows `other` fetches, when `other` is a layout
    /// of the same stored table that selects every column this one reads (and this one keeps
    /// nothing in side tables); `nil` otherwise. A transform over a table the migration only
    /// added columns to reads each row once for the old model and the new, and the old model
    /// takes the values of primitive attributes declared alike from the new one's.
    func rowDecoder(readingRowsOf other: TableLayout) -> RowDecoder? {
        // A migration rebuilds a table with side tables rather than altering it in place, so
        // the old layout reads another table then; the second check keeps a change there from
        // handing old models rows without their side tables' values.
        guard other.storedName == storedName, externalColumns.isEmpty else { return nil }
        return RowDecoder(
            entity: entity, layout: layout, columns: columns, relationships: relationships, selectedColumns: other.selectedColumns,
            sharingValuesOf: other)
    }

    /// SQLite's quoted table name: the entity's, or for a class of a hierarchy its root's.
    package let tableName: String
    /// The table's name, unquoted: what queries name it by in every store's dialect.
    package let storedName: String
    /// The names of the columns every fetch selects, in order: `_pk`, the attributes, the
    /// to-one relationships' keys; for a class of a hierarchy, `_pk`, `_entity` and every
    /// column of the hierarchy's table, alike for all its classes.
    package let selectedColumns: [String]
    /// SQLite's `"Film"."_pk", "Film"."title", …`: `selectedColumns`, qualified and quoted.
    let selectList: String
    /// SQLite's insert of a row.
    let insertSQL: String
    /// SQLite's insert as one statement that inserts nothing where a row holds the same unique
    /// values, which the save then merges the model into (``UpsertMerge``), for an
    /// ``upsertConstraint``. Otherwise `nil`, and a save looks for that row first (`IS` matches
    /// `NULL`, which a unique index never does). SQLite counts a key off the table's sequence
    /// before it finds the conflict, so an upsert that updates leaves a gap in the keys new
    /// rows get.
    let upsertSQL: String?
    /// The entity's one uniqueness constraint when every attribute of it is non-optional: an
    /// insert can then find the row holding its unique values in the same statement (every
    /// store's upsert in one statement). `nil` for none, several, or one over an optional.
    package let upsertConstraint: [String]?
    /// The columns no two rows share a value of: the key, and each attribute unique by itself.
    package let singleRowColumns: Set<String>
    /// Whether an insert can find the row holding its unique values in the same statement.
    package var upsertsInOneStatement: Bool { upsertConstraint != nil }
    /// Reads a fetched row, its columns `selectList`'s, into a model's values.
    package let rowDecoder: RowDecoder

    /// The attribute columns and to-one keys of a hierarchy's table, in order: the root's, then
    /// each descendant's own (a name two classes declare is one column).
    static func hierarchyColumns(_ hierarchy: [Schema.Entity]) -> (attributes: [Schema.Attribute], foreignKeys: [String]) {
        var attributes: [Schema.Attribute] = []
        var foreignKeys: [String] = []
        for member in hierarchy {
            let declared = member.superentity == nil ? member.attributesInOrder : member.declaredAttributes
            for attribute in declared where !attribute.options.contains(.externalStorage) && !attributes.contains(where: { $0.name == attribute.name }) {
                attributes.append(attribute)
            }
            let relationships = member.superentity == nil ? member.relationshipsInOrder : member.declaredRelationships
            for relationship in relationships where relationship.isToOne && !foreignKeys.contains(relationship.name) {
                foreignKeys.append(relationship.name)
            }
        }
        return (attributes, foreignKeys)
    }

    /// The name of the side table of an attribute with `.externalStorage`, unquoted.
    package static func unquotedExternalTableName(entity: String, attribute: String) -> String {
        "_osd_external_\(entity)_\(attribute)"
    }

    /// The column holding the property at `keyPath`, for queries.
    func storedColumn(for keyPath: AnyKeyPath) -> Column? {
        guard let index = layout.index(of: keyPath) else { return nil }
        return columns.first { $0.propertyIndex == index }
    }

    /// What `column` stores for the model's value, or an error naming the property when it has
    /// none (non-optional) or cannot be encoded.
    package func storedValue(of state: ModelState, _ column: Column) throws -> StoredValue {
        try encoding(state, column) { slot in try ModelState.optional(slot).map { try column.codec.encode($0) } ?? .null }
    }

    /// The model's value for `column` read where it lies, when it is an `Int`, a `Double` (not
    /// NaN) or a `String` its codec stores as itself; `nil` otherwise (``storedValue(of:_:)``
    /// then gives it): what a bulk write takes without boxing the value.
    package func plainValue(of state: ModelState, _ column: Column) -> PlainValue? {
        guard state.hasValue(at: column.propertyIndex) else { return nil }
        let values = state.values
        switch column.codec.identityType {
        case .int?:
            return values.slot(at: column.propertyIndex, holding: Int.self).map { .int($0.load(as: Int.self)) }
        case .double?:
            guard let double = values.slot(at: column.propertyIndex, holding: Double.self)?.load(as: Double.self), !double.isNaN else { return nil }
            return .double(double)
        case .string?:
            return values.slot(at: column.propertyIndex, holding: String.self).map { .string($0.assumingMemoryBound(to: String.self).pointee) }
        default:
            return nil
        }
    }

    /// A value ``plainValue(of:_:)`` read.
    package enum PlainValue {
        case int(Int)
        case double(Double)
        case string(String)
    }

    /// Calls `body` with the model's slot for `column` (``ModelState/noValue`` for none, which
    /// only an optional may have), and names the property in any error encoding it raises;
    /// errors `passingThrough` says are not the codec's (the database refusing a bound value)
    /// are thrown as they are.
    func encoding<Result>(
        _ state: ModelState, _ column: Column, passingThrough: (any Error) -> Bool = { _ in false }, _ body: (Any) throws -> Result
    ) throws -> Result {
        let index = column.propertyIndex
        let hasValue = state.hasValue(at: index)
        if !hasValue, !column.isOptional {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(entity.name).\(column.name) has no value; a non-optional property needs one before the model is saved (assign it in the initializer or declare a default)")
        }
        do {
            // The slot is handed over where it lies, not copied out of the array first.
            return try hasValue ? body(state.values[index]) : body(ModelState.noValue)
        } catch where passingThrough(error) {
            throw error
        } catch {
            throw SwiftDataError.modelValidationFailure.explaining(
                "\(entity.name).\(column.name) could not be encoded for storage: \(error)")
        }
    }
}
