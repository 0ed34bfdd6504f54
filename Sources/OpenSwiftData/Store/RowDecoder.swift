import Foundation

/// Turns the row a fetch is on into a model's values, property by property.
///
/// Worked out once per table: for each property, in declaration order, where its value comes
/// from in `TableLayout.selectList`'s columns, so a row costs no copy of a column's
/// description; a fetch of a million rows runs this a million times. An `Int`, `Double`,
/// `String` or `UUID` attribute whose slot holds its type is read from its column straight into
/// the slot (``Source/direct(_:_:_:)``); any other through its codec.
///
/// A class, so a fetch reading it from its table layout for every row takes a reference, not
/// a copy of every field (that copy was about 640 instructions a row of A2).
package final class RowDecoder {
    /// Where one property's value comes from.
    enum Source {
        /// An attribute's column, at this index of the select list.
        case column(Int32, UnownedCodec)
        /// An attribute's column, at this index of the select list, read as `DirectRead` says
        /// into the slot at `offset` bytes, when it holds that storage class; through its codec
        /// otherwise (a `NULL`, a value another version stored differently).
        case direct(Int32, DirectRead, UnownedCodec)
        /// A to-one relationship's key column, at this index; the property's entry in
        /// `emptyValues` when it holds `NULL`.
        case foreignKey(Int32)
        /// A to-many relationship, always a fault until first read.
        case toMany
        /// Nothing in the row: an `.externalStorage` attribute, loaded on first access.
        case none
        /// A property the stored entity does not have (the rows are read as another version's
        /// class of the entity): its entry in `fixedValues`, its declared default or no value.
        case fixed
        /// The value the decoder of another layout (`sharingValuesOf`) read from the same row
        /// for its property at this index: a primitive value of the same declared type.
        case shared(Int)
    }

    /// How a column is read straight into a typed slot: its storage class and where the slot is.
    enum DirectRead {
        case integer(offset: Int)
        case real(offset: Int)
        case text(offset: Int)
        case uuid(offset: Int)

        /// The read for a slot holding `type` from a column written by `codec`; `nil` when it
        /// takes the codec.
        init?(slot: ValueSlots.Slot, codec: ValueCodec) {
            switch (ObjectIdentifier(slot.type), codec.identityType) {
            case (ObjectIdentifier(Int.self), .int?): self = .integer(offset: slot.offset)
            case (ObjectIdentifier(Double.self), .double?): self = .real(offset: slot.offset)
            case (ObjectIdentifier(String.self), .string?): self = .text(offset: slot.offset)
            case (ObjectIdentifier(UUID.self), _) where codec.storage == .uuid: self = .uuid(offset: slot.offset)
            default: return nil
            }
        }
    }

    /// A codec held without reference counting, so reading a source in the per-column loop
    /// does not retain and release it; `codecs` keeps every one alive.
    struct UnownedCodec {
        private let codec: Unmanaged<ValueCodec>

        init(_ codec: ValueCodec) {
            self.codec = .passUnretained(codec)
        }

        /// Calls `body` with the codec, not retained: an `unowned(unsafe)` reference is
        /// retained for the call it is passed to and released after, for every column of
        /// every row.
        func with<Result>(_ body: (ValueCodec) throws -> Result) rethrows -> Result {
            try codec._withUnsafeGuaranteedRef(body)
        }
    }

    let entityName: String
    /// Kept free of any value that needs copying (no `Any`, no strong reference), so reading
    /// a source in the per-column loop is a plain load.
    let sources: ContiguousArray<Source>
    /// By property index, what a to-one relationship holds when its key is `NULL`, and what a
    /// property the stored entity lacks holds (``Source/fixed``).
    private let fixedValues: [Any]
    private let codecs: [ValueCodec]
    /// Where the values sit.
    private let slots: ValueSlots
    /// Each property's name, for errors.
    let propertyNames: [String]

    /// - Parameters:
    ///   - entity, layout, columns, relationships: the parts of the entity's ``TableLayout``
    ///     that say what its model values are read from.
    ///   - selectedColumns: the names of the columns of the rows it reads, in order, `_pk`
    ///     first: the table's own select list, or another layout's of the same table.
    ///   - other: the layout of the same table whose values ``values(of:sharing:)`` is given,
    ///     read from the same row: a column both read into a property of the same primitive
    ///     type is taken from there instead of decoded again.
    ///   - readsAnotherClass: whether `layout` is another class of the entity than the one the
    ///     rows were written with, whose properties the entity lacks are ``Source/fixed``.
    /// - Returns: `nil` when a column the values are read from is not among `selectedColumns`.
    init?(
        entity: Schema.Entity, layout: ModelLayout, columns: [TableLayout.Column], relationships: [StoredRelationship],
        selectedColumns: [String], sharingValuesOf other: TableLayout? = nil, readsAnotherClass: Bool = false
    ) {
        entityName = entity.name
        propertyNames = layout.properties.map(\.name)
        let positions = Dictionary(selectedColumns.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        var sources = ContiguousArray<Source>(repeating: .none, count: layout.properties.count)
        for column in columns {
            guard let position = positions[column.name] else { return nil }
            if let other, let sharedIndex = other.columnIndexByName[column.name], column.codec.isPrimitive,
               case let shared = other.columns[sharedIndex],
               other.layout.properties[shared.propertyIndex].valueType == layout.properties[column.propertyIndex].valueType
            {
                sources[column.propertyIndex] = .shared(shared.propertyIndex)
            } else if let read = DirectRead(slot: layout.valueSlots.slots[column.propertyIndex], codec: column.codec) {
                sources[column.propertyIndex] = .direct(position, read, UnownedCodec(column.codec))
            } else {
                sources[column.propertyIndex] = .column(position, UnownedCodec(column.codec))
            }
        }
        for foreignKey in relationships where foreignKey.isToOne {
            guard let position = positions[foreignKey.name] else { return nil }
            sources[foreignKey.propertyIndex] = .foreignKey(position)
        }
        for relationship in relationships where !relationship.isToOne {
            sources[relationship.propertyIndex] = .toMany
        }
        if readsAnotherClass {
            let stored = Set(entity.storedProperties.map(\.name))
            for (index, property) in layout.properties.enumerated() where !stored.contains(property.name) {
                sources[index] = .fixed
            }
        }
        self.sources = sources
        codecs = columns.map(\.codec)
        slots = layout.valueSlots
        fixedValues = layout.properties.map { property in
            ModelState.slot(property.isRelationship ? property.emptyValue : property.defaultValue ?? property.emptyValue)
        }
    }

    /// The model values of the row `row` is on; its columns are `selectList`'s, `_pk` first.
    /// `sharedValues` are the values the decoder's `other` layout read from the row, when it
    /// was made to share them.
    package func values<Row: StoredRowReading>(of row: Row, sharing sharedValues: ModelValues = ModelValues()) throws -> ModelValues {
        var values = ModelValues(slots)
        for index in sources.indices {
            switch sources[index] {
            case .direct(let column, let read, let unowned):
                if Self.readDirectly(read, from: row, at: column, into: values, at: index) { continue }
                try self.read(row, at: column, as: unowned, into: &values, at: index)
            case .column(let column, let unowned):
                try read(row, at: column, as: unowned, into: &values, at: index)
            case .foreignKey(let column):
                values[index] = row.int64(at: column).map { RelationshipFault.toOne($0) } ?? fixedValues[index]
            case .toMany:
                values[index] = RelationshipFault.toMany
            case .none:
                break
            case .fixed:
                values[index] = fixedValues[index]
            case .shared(let sharedIndex):
                values[index] = sharedValues[sharedIndex]
            }
        }
        return values
    }

    /// Reads the column through its codec into the slot at `index`.
    private func read<Row: StoredRowReading>(_ row: Row, at column: Int32, as unowned: UnownedCodec, into values: inout ModelValues, at index: Int) throws {
        do {
            try unowned.with { try row.read(at: column, as: $0, into: &values, at: index) }
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the row \(row.int64(at: 0) ?? 0) of \(entityName) cannot be read: column \(propertyNames[index]): \(error)")
        }
    }

    /// Puts the column's value in the slot at `index` of `values`, which no copy shares yet, when
    /// the column holds the storage class `read` expects; `false`, putting nothing, otherwise.
    private static func readDirectly<Row: StoredRowReading>(_ read: DirectRead, from row: Row, at column: Int32, into values: ModelValues, at index: Int) -> Bool {
        switch read {
        case .integer(let offset):
            guard let int = row.integer(at: column) else { return false }
            values.initializeUnshared(Int(int), at: index, offset: offset)
        case .real(let offset):
            guard let real = row.real(at: column) else { return false }
            values.initializeUnshared(real, at: index, offset: offset)
        case .text(let offset):
            guard let text = row.text(at: column) else { return false }
            values.initializeUnshared(text, at: index, offset: offset)
        case .uuid(let offset):
            guard let uuid = row.uuid(at: column) else { return false }
            values.initializeUnshared(uuid, at: index, offset: offset)
        }
        return true
    }
}
