import Foundation

// `contains` and `starts(with:)`: membership in a captured collection (`IN`) and substring
// tests on strings and data.
//
// Strings are searched by `osd_contains` and `osd_starts_with`, which compare `Character`s as
// Swift does (``CharacterSubstringFunctions``); data by `instr` and `substr`, which compare
// bytes. `LIKE` would ignore ASCII case and treat `%` and `_` as wildcards, and `GLOB` and
// `instr` on text find a byte sequence inside a `Character`, so none of them is used for text.

extension PredicateExpressions.SequenceContains: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let container = try scope.translate(sequence)
        let member = try scope.translate(element)
        if let folded = scope.folded(self, [container, member]) { return folded }

        // `$0.courses.contains(course)`: a to-many relationship holding a model.
        if let collection = container.collectionReference {
            let element = TranslatedExpression(
                form: .model(collection.element), type: RHS.Output.self, codec: nil, mayBeNull: false)
            let same = try scope.identityEquality(element, member, in: Self.self)
            return .sql("(EXISTS (\(collection.select("1", where: [same]))))", type: Bool.self)
        }
        // `ids.contains($0.id)`: a captured collection.
        if let elements = container.constantValue as? LHS.Output {
            if let model = member.modelReference {
                return try scope.identityMembership(of: model, in: elements.map { $0 as Any }, in: Self.self)
            }
            return try membership(of: member, in: elements.map { $0 as Any }, scope: scope)
        }
        let name = container.keyPathDescription.map { "\($0) " } ?? ""
        // `$0.tags.contains("x")`: an array of values, kept as a JSON array.
        if container.kind.storage == .json, let array = container.kind.wrappedType as? any StoredJSONArray.Type,
           array.searchableElementType != nil, !member.mayBeNil {
            let containerSQL = try scope.sql(container, in: Self.self)
            let memberSQL = try scope.sql(member, in: Self.self)
            return .sql(.call(.arrayContains, containerSQL, memberSQL), type: Bool.self)
        }
        if container.kind.storage == .json {
            throw scope.unsupported(
                Self.self,
                "the elements of \(name)(\(container.kind.typeName)) are stored as JSON and cannot be searched in SQL")
        }
        throw scope.unsupported(
            Self.self,
            "contains(_:) translates only for a collection captured from outside the predicate "
                + "(SQL IN), not for \(name)(\(container.kind.typeName))")
    }

    /// `x IN (?, ?, …)`, with Swift's meaning for `nil`: `[nil].contains(nil)` is true.
    private func membership(
        of member: TranslatedExpression, in elements: [Any], scope: PredicateTranslationScope
    ) throws -> TranslatedExpression {
        let kind = SQLValueKind(RHS.Output.self)
        guard kind.supportsEquality else {
            throw scope.unsupported(
                Self.self, "values of type \(kind.typeName) cannot be compared in SQL")
        }
        guard !elements.isEmpty else { return .constant(false, type: Bool.self) }
        let memberSQL = try scope.sql(member, in: Self.self)
        var items: [SQLFragment] = []
        var containsNil = false
        for element in elements {
            let item = try scope.sql(.constant(element, type: RHS.Output.self), like: member, in: Self.self)
            if item == "NULL" {
                containsNil = true
            } else {
                items.append(item)
            }
        }
        var conditions: [SQLFragment] = []
        if containsNil && member.mayBeNil {
            conditions.append("\(memberSQL) IS NULL")
        }
        if !items.isEmpty {
            let list = SQLFragment.joined(items, separator: ", ")
            // `NULL IN (…)` is NULL; make it false so that `NOT` keeps Swift's meaning.
            conditions.append(member.mayBeNil
                ? "COALESCE(\(memberSQL) IN (\(list)), FALSE)"
                : "\(memberSQL) IN (\(list))")
        }
        if conditions.isEmpty { return .constant(false, type: Bool.self) }
        return .sql("(\(SQLFragment.joined(conditions, separator: " OR ")))", type: Bool.self)
    }
}

extension PredicateTranslationScope {
    /// The SQL of the two sides of a substring test, once both are known to be strings or both
    /// data (bytes).
    fileprivate func substringOperands(
        _ base: TranslatedExpression, _ other: TranslatedExpression, baseType: Any.Type, otherType: Any.Type,
        in node: Any.Type
    ) throws -> (SQLFragment, SQLFragment, isString: Bool) {
        let baseKind = SQLValueKind(baseType)
        let otherKind = SQLValueKind(otherType)
        let strings = baseKind.isString && otherKind.isString
        let data = baseKind.isData && otherKind.isData
        guard (strings || data), !baseKind.isOptional, !otherKind.isOptional else {
            let name = base.keyPathDescription.map { "\($0) " } ?? ""
            throw unsupported(
                node,
                "only a String within a String, or Data within Data, can be searched in SQL, "
                    + "not \(otherKind.typeName) within \(name)(\(baseKind.typeName))")
        }
        return (try sql(base, in: node), try sql(other, in: node), strings)
    }
}

extension PredicateExpressions.CollectionContainsCollection: PredicateSQLTranslatable {
    /// `osd_contains(base, other)` for strings, `instr(base, other) > 0` for data:
    /// case-sensitive, no wildcards; `""` is found in every string, as in Swift.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let haystack = try scope.translate(base)
        let needle = try scope.translate(other)
        if let folded = scope.folded(self, [haystack, needle]) { return folded }
        let (h, n, isString) = try scope.substringOperands(
            haystack, needle, baseType: Base.Output.self, otherType: Other.Output.self, in: Self.self)
        if isString {
            return .sql(.test(.containsCharacters, h, n, polarity: scope.polarity), type: Bool.self)
        }
        return .sql(.call(.containsBytes, h, n), type: Bool.self)
    }
}

extension PredicateExpressions.SequenceStartsWith: PredicateSQLTranslatable {
    /// `osd_starts_with(base, prefix)` for strings, `substr(base, 1, length(prefix)) = prefix`
    /// for data.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let whole = try scope.translate(base)
        let start = try scope.translate(prefix)
        if let folded = scope.folded(self, [whole, start]) { return folded }
        let (b, p, isString) = try scope.substringOperands(
            whole, start, baseType: Base.Output.self, otherType: Prefix.Output.self, in: Self.self)
        if isString {
            return .sql(.test(.startsWithCharacters, b, p, polarity: scope.polarity), type: Bool.self)
        }
        return .sql("(substr(\(b), 1, length(\(p))) = \(p))", type: Bool.self)
    }
}
