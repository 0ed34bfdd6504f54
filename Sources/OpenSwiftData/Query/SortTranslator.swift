import Foundation

/// Turns `SortDescriptor`s into an `ORDER BY` list that orders rows exactly as
/// `models.sorted(using: descriptors)` orders the models in memory, or throws
/// `SwiftDataError.unsupportedSortDescriptor` naming the key path; the DocC article
/// Predicates ("Sorting") says what sorts how.
///
/// The list breaks no ties of its own: the store appends the primary key to every `ORDER BY`.
enum SortTranslator {
    /// An ORDER BY list (without the keywords) for the descriptors, or
    /// `SwiftDataError.unsupportedSortDescriptor.explaining(...)` naming the key path.
    static func sql<T>(for sortDescriptors: [SortDescriptor<T>], columns: some ColumnResolving) throws -> SQLFragment {
        try translation(of: sortDescriptors, columns: columns).orderBy
    }

    /// The descriptors' translation.
    struct Translation {
        /// The ORDER BY list, without the keywords.
        let orderBy: SQLFragment
        /// The entities whose tables the list reads besides the fetched one, through to-one
        /// relationships.
        let relatedEntities: Set<String>
    }

    /// The ORDER BY list for the descriptors and the tables it reads.
    static func translation<T>(of sortDescriptors: [SortDescriptor<T>], columns: some ColumnResolving) throws -> Translation {
        var terms: [SQLFragment] = []
        var related: Set<String> = []
        let aliases = SQLAliases()
        for descriptor in sortDescriptors {
            terms.append(contentsOf: try self.terms(for: descriptor, columns: columns, aliases: aliases, related: &related))
        }
        return Translation(orderBy: SQLFragment.joined(terms, separator: ", "), relatedEntities: related)
    }

    /// How a string column is ordered.
    enum StringOrdering: Equatable {
        /// `String`'s `Comparable` conformance.
        case comparable
        case lexical
        case localizedStandard
        case localized

        var collation: SQLCollation {
            switch self {
            case .comparable: .stringOrder
            case .lexical: .lexical
            case .localizedStandard: .localizedStandard
            case .localized: .localized
            }
        }
    }

    private static func terms<T>(
        for descriptor: SortDescriptor<T>, columns: some ColumnResolving, aliases: SQLAliases,
        related: inout Set<String>
    ) throws -> [SQLFragment] {
        guard let keyPath = descriptor.keyPath else {
            throw SwiftDataError.unsupportedSortDescriptor.explaining(
                "a SortDescriptor<\(readableTypeName(T.self))> without a key path cannot be sorted by in SQL")
        }
        // A model's identifier: within one fetch every row is of one entity and one store, so
        // identifiers order as their rows' keys do.
        if columns.column(for: keyPath) == nil, let identity = columns.rowIdentity, identity.isIdentifier(keyPath) {
            return ["\(identity.primaryKey) \(ascending: descriptor.order == .forward)"]
        }
        guard let column = try columns.column(for: keyPath)
            ?? relatedColumn(keyPath, columns: columns, aliases: aliases, related: &related)
        else {
            throw SwiftDataError.unsupportedSortDescriptor.explaining(
                "\(describeKeyPath(keyPath)) does not name a stored attribute of \(readableTypeName(T.self)) "
                    + "or of a model it reaches through to-one relationships "
                    + "(computed and @Transient properties and to-many relationships cannot be sorted by)")
        }
        if column.codec.storage == .codable, SQLValueKind(type(of: keyPath).valueType).storage != .json {
            throw SwiftDataError.unsupportedSortDescriptor.explaining(
                "\(describeKeyPath(keyPath, column: column)) is stored through its Codable representation (@Attribute(.codable)), which does not order like the values; SwiftData does not sort by it either")
        }
        let stringOrdering: StringOrdering?
        if let comparator = descriptor.stringComparator {
            guard let known = ordering(of: comparator) else {
                throw SwiftDataError.unsupportedSortDescriptor.explaining(
                    "the string comparator \(comparator) of the sort by \(describeKeyPath(keyPath, column: column)) has no SQL collation")
            }
            stringOrdering = known
        } else {
            stringOrdering = nil
        }
        return try terms(
            column: column, valueType: type(of: keyPath).valueType, stringOrdering: stringOrdering,
            order: descriptor.order, keyPathDescription: describeKeyPath(keyPath, column: column))
    }

    /// The attribute a key path through to-one relationships reads (`\Book.shelf?.name`), as a
    /// subquery on the related row: `NULL` when there is no related model.
    private static func relatedColumn(
        _ keyPath: AnyKeyPath, columns: some ColumnResolving, aliases: SQLAliases, related: inout Set<String>
    ) throws -> ResolvedColumn? {
        guard let chain = columns.propertyChain(for: keyPath), chain.count > 1 else { return nil }
        var model = ModelReference(
            columns: columns, identity: columns.rowIdentity, access: .current, description: "",
            number: aliases.nextReference())
        for step in chain.dropLast() {
            guard let relationship = model.columns.relationship(for: step), relationship.isToOne,
                  let keyColumn = relationship.keyColumn
            else { return nil }
            related.insert(relationship.destinationEntity)
            let alias = aliases.next()
            let destination = relationship.destination(alias)
            model = ModelReference(
                columns: destination, identity: destination.rowIdentity,
                access: .lookup(key: model.read(keyColumn), table: relationship.destinationTable, alias: alias),
                description: relationship.name, number: aliases.nextReference(), reachedFrom: model)
        }
        guard let last = chain.last, let column = model.columns.column(for: last) else { return nil }
        let read = model.read(column.sql)
        // Names only: ORDER BY has no arguments.
        guard read.hasNoArguments else { return nil }
        return ResolvedColumn(sql: read, codec: column.codec, name: column.name)
    }

    /// The `ORDER BY` terms for one column.
    ///
    /// - Parameters:
    ///   - valueType: the Swift type of the key path's value, optional or not.
    ///   - stringOrdering: the comparator's ordering for strings, nil for `Comparable` order.
    static func terms(
        column: ResolvedColumn, valueType: Any.Type, stringOrdering: StringOrdering?, order: SortOrder,
        keyPathDescription: @autoclosure () -> String
    ) throws -> [SQLFragment] {
        let ascending = order == .forward
        let kind = SQLValueKind(valueType)
        func unsupported(_ reason: String) -> SwiftDataError {
            SwiftDataError.unsupportedSortDescriptor.explaining(
                "cannot sort by \(keyPathDescription()) (\(kind.typeName)) in SQL: \(reason)")
        }
        if kind.isRawRepresentable {
            guard let comparable = kind.wrappedType as? any Comparable.Type else {
                throw unsupported("the type is not Comparable")
            }
            if RawValueOrdering.agrees(comparable) == false {
                throw unsupported(
                    "its < does not follow its raw values, which is how the store orders it")
            }
        }
        switch kind.storage {
        case .integer, .real, .float, .blob, .decimal:
            return ["\(column.sql) \(ascending: ascending)"]
        case .unsignedBitPattern:
            return ["(\(column.sql) < 0) \(ascending: ascending)", "\(column.sql) \(ascending: ascending)"]
        case .text:
            guard kind.isString || kind.isRawRepresentable else {
                throw unsupported("values of this type are not ordered by their text")
            }
            let ordering = stringOrdering ?? .comparable
            if kind.isRawRepresentable && ordering != .comparable {
                throw unsupported("a string comparator only applies to String values")
            }
            return ["\(column.sql, collatedBy: ordering.collation) \(ascending: ascending)"]
        case .boolean:
            throw unsupported("Bool is not Comparable")
        case .json:
            throw unsupported("the value is stored as JSON, which does not order like the values")
        case .unsupported:
            throw unsupported("the value cannot be stored in a column")
        }
    }

    /// The ordering a string comparator stands for, or nil when no collation implements it.
    static func ordering(of comparator: String.StandardComparator) -> StringOrdering? {
        let base = String.StandardComparator(comparator, order: .forward)
        if base == String.StandardComparator(.lexical, order: .forward) { return .lexical }
        #if canImport(Darwin)
        if base == String.StandardComparator(.localizedStandard, order: .forward) { return .localizedStandard }
        if base == String.StandardComparator(.localized, order: .forward) { return .localized }
        #endif
        return nil
    }
}
