import Foundation

// Predicates through relationships (what translates to what is in the DocC article
// Predicates): a to-one relationship's model and its attributes, models compared by identity,
// and the models of a to-many relationship, counted, tested for emptiness and searched.
//
// A to-one relationship's model is read through a subquery that looks its row up by key, so a
// key naming no row reads as `nil`, as it does in memory. Each closure variable of a to-many
// search stands for the row of its own subquery, under an alias of its own.

/// The key paths of `isEmpty` and `count` on a to-many relationship's array.
protocol ToManyRelationshipValue {
    static var isEmptyKeyPath: AnyKeyPath { get }
    static var countKeyPath: AnyKeyPath { get }
}

extension Array: ToManyRelationshipValue where Element: PersistentModel {
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
    static var countKeyPath: AnyKeyPath { \Self.count }
}

extension PredicateTranslationScope {
    /// What `model[keyPath: keyPath]` is: a stored attribute's column, the model's identifier,
    /// a to-one relationship's model or a to-many relationship's collection.
    func member(
        _ keyPath: AnyKeyPath, of model: ModelReference, type: Any.Type, in node: Any.Type
    ) throws -> TranslatedExpression {
        let isOptional = type is any OptionalProtocol.Type
        if let column = model.columns.column(for: keyPath) {
            if column.codec.storage == .codable, SQLValueKind(type).storage != .json {
                throw unsupported(
                    node,
                    "\(describeKeyPath(keyPath, column: column)) is stored through its Codable representation "
                        + "(@Attribute(.codable)), which the store does not look inside; SwiftData does not filter on it either")
            }
            var translated = TranslatedExpression.sql(
                model.read(column.sql), type: type,
                mayBeNull: column.codec.isOptional || isOptional, codec: column.codec)
            translated.keyPathDescription = DeferredText { describeKeyPath(keyPath, column: column) }
            translated.nullWhenMissing = model.lineage
            return translated
        }
        if let identity = model.identity, identity.isIdentifier(keyPath) {
            return TranslatedExpression(form: .model(model), type: type, codec: nil, mayBeNull: isOptional)
        }
        if let relationship = model.columns.relationship(for: keyPath), let ownerKey = model.key {
            noteRead(of: relationship.destinationEntity)
            if relationship.isToOne, let keyColumn = relationship.keyColumn {
                let alias = aliases.next()
                let columns = relationship.destination(alias)
                let reached = ModelReference(
                    columns: columns, identity: columns.rowIdentity,
                    access: .lookup(key: model.read(keyColumn), table: relationship.destinationTable, alias: alias),
                    description: relationship.name, number: aliases.nextReference(), reachedFrom: model)
                return TranslatedExpression(form: .model(reached), type: type, codec: nil, mayBeNull: isOptional)
            }
            let elementAlias = aliases.next()
            var joinAlias: String?
            if case .joinTable = relationship.storage { joinAlias = aliases.next() }
            let columns = relationship.destination(elementAlias)
            let element = ModelReference(
                columns: columns, identity: columns.rowIdentity, access: .current,
                description: "an element of \(relationship.name)", number: aliases.nextReference())
            let collection = CollectionReference(
                relationship: relationship, ownerKey: ownerKey, element: element, elementAlias: elementAlias,
                joinAlias: joinAlias, description: relationship.name)
            // Stored rows always have the collection, empty or not: an optional to-many
            // relationship reads back as an array.
            return TranslatedExpression(form: .collection(collection), type: type, codec: nil, mayBeNull: false)
        }
        var hint = ""
        if SQLValueKind(type).isPersistentIdentifier {
            hint = "; to compare a model's identity, use persistentModelID"
        }
        throw unsupported(
            node,
            "\(describeKeyPath(keyPath)) does not name a stored attribute of \(model.description) "
                + "(computed and @Transient properties and relationships cannot be fetched by)\(hint)")
    }

    /// What `collection[keyPath: keyPath]` is: `isEmpty` and `count` are subqueries.
    func member(
        _ keyPath: AnyKeyPath, of collection: CollectionReference, collectionType: Any.Type, in node: Any.Type
    ) throws -> TranslatedExpression {
        if let paths = collectionType as? any ToManyRelationshipValue.Type {
            if keyPath == paths.isEmptyKeyPath {
                return .sql("(NOT EXISTS (\(collection.select("1"))))", type: Bool.self)
            }
            if keyPath == paths.countKeyPath {
                return .sql("(\(collection.select("COUNT(*)")))", type: Int.self)
            }
        }
        throw unsupported(
            node,
            "\(describeKeyPath(keyPath)) has no SQL equivalent on the to-many relationship \(collection.description) "
                + "(supported: isEmpty, count, contains(where:), allSatisfy, filter, contains of a model)")
    }

    /// The collection a sequence expression stands for, or an error saying only to-many
    /// relationships can be searched with a closure.
    func collection(
        _ sequence: TranslatedExpression, for operation: String, in node: Any.Type
    ) throws -> CollectionReference {
        if let collection = sequence.collectionReference { return collection }
        let name = sequence.keyPathDescription.map { "\($0) " } ?? ""
        throw unsupported(
            node,
            "\(operation) translates only over a to-many relationship, not over \(name)(\(sequence.kind.typeName))")
    }

    /// The translation of a closure's body, with its variable standing for the collection's
    /// element row.
    func condition<V>(
        _ test: any PredicateExpression, variable: PredicateExpressions.Variable<V>,
        over collection: CollectionReference, in node: Any.Type
    ) throws -> SQLFragment {
        let element = TranslatedExpression(
            form: .model(collection.element), type: V.self, codec: nil, mayBeNull: false)
        let body = try binding(variable, to: element) { try translate(test) }
        return try condition(body, in: node)
    }

    // MARK: Identity

    /// `left == right` where one side is a model (or its identifier): 0 or 1, never `NULL`.
    ///
    /// Models are the same when they are the same row of the same entity of the same store;
    /// an identifier captured from outside the predicate matches its row, and no row when it
    /// names an unsaved model or one of another entity or store. `nil` matches a missing model.
    func identityEquality(
        _ left: TranslatedExpression, _ right: TranslatedExpression, in node: Any.Type
    ) throws -> SQLFragment {
        if let collection = left.collectionReference ?? right.collectionReference {
            let other = left.collectionReference != nil ? right : left
            // A stored to-many relationship always has its array, empty or not.
            if other.isNilConstant { return "FALSE" }
            throw unsupported(
                node,
                "\(collection.description) is a to-many relationship, which cannot be compared as a whole; "
                    + "test it with isEmpty, count or contains instead")
        }
        guard let model = left.modelReference ?? right.modelReference else {
            throw unsupported(node, "only models and identifiers compare by identity")
        }
        let other = left.modelReference == nil ? left : right
        guard let key = model.key, let identity = model.identity else {
            throw unsupported(node, "\(model.description) has no identity to compare in SQL")
        }
        switch other.form {
        case .model(let otherModel):
            guard let otherKey = otherModel.key, let otherIdentity = otherModel.identity else {
                throw unsupported(node, "\(otherModel.description) has no identity to compare in SQL")
            }
            if otherIdentity.entityName == identity.entityName, otherIdentity.storeIdentifier == identity.storeIdentifier {
                return "(\(key) IS NOT DISTINCT FROM \(otherKey))"
            }
            return "(\(key) IS NULL AND \(otherKey) IS NULL)"
        case .constant(let value):
            if other.isNilConstant { return "(\(key) IS NULL)" }
            guard let identifier = Self.identifier(in: value) else {
                throw unsupported(node, "\(model.description) can only be compared with a PersistentIdentifier or nil")
            }
            guard let row = identity.rowID(of: identifier) else { return "FALSE" }
            return "(\(key) IS NOT DISTINCT FROM \(SQLFragment.argument(.integer(row))))"
        case .sql, .collection:
            throw unsupported(
                node,
                "\(model.description) can only be compared with nil, a relationship, a persistentModelID, "
                    + "or an identifier captured from outside the predicate")
        }
    }

    /// `ids.contains($0.persistentModelID)` for a captured collection of identifiers.
    func identityMembership(
        of model: ModelReference, in elements: [Any], in node: Any.Type
    ) throws -> TranslatedExpression {
        guard let key = model.key, let identity = model.identity else {
            throw unsupported(node, "\(model.description) has no identity to compare in SQL")
        }
        var rows: [SQLFragment] = []
        var containsNil = false
        for element in elements {
            if (element as? any OptionalProtocol).map({ $0.wrappedValue == nil }) == true {
                containsNil = true
            } else if let identifier = Self.identifier(in: element) {
                if let row = identity.rowID(of: identifier) { rows.append(.argument(.integer(row))) }
            } else {
                throw unsupported(node, "\(model.description) can only be searched for among PersistentIdentifiers")
            }
        }
        var conditions: [SQLFragment] = []
        if containsNil { conditions.append("\(key) IS NULL") }
        if !rows.isEmpty {
            conditions.append("COALESCE(\(key) IN (\(SQLFragment.joined(rows, separator: ", "))), FALSE)")
        }
        if conditions.isEmpty { return .constant(false, type: Bool.self) }
        return .sql("(\(SQLFragment.joined(conditions, separator: " OR ")))", type: Bool.self)
    }

    /// The identifier a captured value holds. (`#Predicate` cannot capture a model itself: a
    /// model is not `Codable`, so `$0.shelf == shelf` does not compile; compare
    /// `persistentModelID`s.)
    static func identifier(in value: Any) -> PersistentIdentifier? {
        if let optional = value as? any OptionalProtocol {
            return optional.wrappedValue.flatMap { $0 as? PersistentIdentifier }
        }
        return value as? PersistentIdentifier
    }
}

extension PredicateExpressions.SequenceContainsWhere: PredicateSQLTranslatable {
    /// `EXISTS (SELECT 1 FROM <the relationship's rows> WHERE <test>)`.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let container = try scope.translate(sequence)
        let collection = try scope.collection(container, for: "contains(where:)", in: Self.self)
        let test = try scope.condition(self.test, variable: variable, over: collection, in: Self.self)
        return .sql("(EXISTS (\(collection.select("1", where: [test]))))", type: Bool.self)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: PredicateSQLTranslatable {
    /// `NOT EXISTS (SELECT 1 FROM <the relationship's rows> WHERE NOT <test>)`: true for an
    /// empty relationship, as in Swift.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let container = try scope.translate(sequence)
        let collection = try scope.collection(container, for: "allSatisfy", in: Self.self)
        let test = try scope.condition(self.test, variable: variable, over: collection, in: Self.self)
        return .sql("(NOT EXISTS (\(collection.select("1", where: ["(NOT \(test))"]))))", type: Bool.self)
    }
}

extension PredicateExpressions.Filter: PredicateSQLTranslatable {
    /// The relationship's rows narrowed by the closure, to be counted or searched further.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let container = try scope.translate(sequence)
        var collection = try scope.collection(container, for: "filter", in: Self.self)
        let test = try scope.condition(filter, variable: variable, over: collection, in: Self.self)
        collection.filters.append(test)
        return TranslatedExpression(form: .collection(collection), type: Output.self, codec: nil, mayBeNull: false)
    }
}
