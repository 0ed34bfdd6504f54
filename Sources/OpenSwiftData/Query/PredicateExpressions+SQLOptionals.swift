import Foundation

// `??`, optional chaining and `if let` (both arrive as `flatMap`), and `!`.
//
// Optional chaining through a to-one relationship (`$0.shelf?.name`) binds the closure's
// variable to the relationship's model; what the closure reads of it comes from the related
// row (see PredicateExpressions+SQLRelationships.swift).

extension PredicateExpressions.NilCoalesce: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(lhs)
        let fallback = try scope.translate(rhs)
        if let folded = scope.folded(self, [optional, fallback]) { return folded }
        if optional.isNilConstant { return fallback }
        if !optional.mayBeNil {
            // A non-nil constant (with a fallback computed per row) or SQL that is never NULL.
            return TranslatedExpression(
                form: optional.form, type: Output.self, codec: optional.codec, mayBeNull: false,
                keyPathDescription: optional.keyPathDescription)
        }
        let l = try scope.sql(optional, like: fallback, in: Self.self)
        let r = try scope.sql(fallback, like: optional, in: Self.self)
        return .sql(
            "COALESCE(\(l), \(r))", type: Output.self, mayBeNull: fallback.mayBeNil,
            codec: optional.codec ?? fallback.codec)
    }
}

extension PredicateExpressions.OptionalFlatMap: PredicateSQLTranslatable {
    /// `CASE WHEN wrapped IS NULL THEN NULL ELSE transform END`, where the closure's variable
    /// stands for `wrapped`, known not to be NULL inside the `ELSE` branch.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(wrapped)
        if optional.isNilConstant {
            return .constant(Output.none as Any, type: Output.self)
        }
        var unwrapped = TranslatedExpression(
            form: optional.form, type: Wrapped.self, codec: optional.codec, mayBeNull: false,
            keyPathDescription: optional.keyPathDescription)
        if let constant = optional.constantValue,
           let value = (constant as? any OptionalProtocol)?.wrappedValue ?? (constant as? Wrapped) {
            unwrapped = .constant(value, type: Wrapped.self)
        }
        let result = try scope.binding(variable, to: unwrapped) {
            try scope.translate(transform)
        }
        if let folded = scope.folded(self, [optional, result]) { return folded }
        if var model = result.modelReference {
            // A model reached from the unwrapped one is missing whenever that one is; any other
            // model is made missing then.
            let reachedFromWrapped = optional.modelReference.map { model.lineage.contains($0.number) } ?? false
            if optional.mayBeNil, !reachedFromWrapped {
                model.presence.append(try scope.sql(optional, in: Self.self))
            }
            return TranslatedExpression(form: .model(model), type: Output.self, codec: nil, mayBeNull: true)
        }
        if result.collectionReference != nil {
            guard !optional.mayBeNil else {
                throw scope.unsupported(
                    Self.self,
                    "a to-many relationship reached through optional chaining can only be used inside the chain, "
                        + "as in `$0.shelf?.books.count`")
            }
            return TranslatedExpression(form: result.form, type: Output.self, codec: nil, mayBeNull: false)
        }
        let resultSQL = try scope.sql(result, in: Self.self)
        if !optional.mayBeNil {
            return .sql(resultSQL, type: Output.self, mayBeNull: result.mayBeNil, codec: result.codec)
        }
        // `$0.shelf?.name`: an attribute read from the related row is NULL already when there is
        // no related model.
        if let model = optional.modelReference, result.nullWhenMissing.contains(model.number) {
            var read = TranslatedExpression.sql(resultSQL, type: Output.self, mayBeNull: true, codec: result.codec)
            read.keyPathDescription = result.keyPathDescription
            read.nullWhenMissing = result.nullWhenMissing
            return read
        }
        let test = try scope.sql(optional, in: Self.self)
        return .sql(
            "(CASE WHEN \(test) IS NULL THEN NULL ELSE \(resultSQL) END)", type: Output.self,
            mayBeNull: true, codec: result.codec)
    }
}

extension PredicateExpressions.ForcedUnwrap: PredicateSQLTranslatable {
    /// `osd_unwrap(x)`, which fails the query, as Swift's evaluation throws, when `x` is NULL.
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let optional = try scope.translate(inner)
        if let folded = scope.folded(self, [optional]) { return folded }
        if let model = optional.modelReference {
            return try unwrapped(model, in: scope)
        }
        let sql = try scope.sql(optional, in: Self.self)
        let unwrapped: SQLFragment = optional.mayBeNil
            ? SQLFragment.call(.unwrap, sql)
            : sql
        var result = TranslatedExpression.sql(unwrapped, type: Output.self, codec: optional.codec)
        result.keyPathDescription = optional.keyPathDescription
        return result
    }

    /// `$0.shelf!`: the model, looked up by a key that fails the query when it is `NULL`, as
    /// Swift's evaluation throws when the relationship is empty.
    private func unwrapped(_ model: ModelReference, in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        guard case .lookup(_, let table, let alias) = model.access, let key = model.key else {
            guard model.presence.isEmpty else {
                throw scope.unsupported(Self.self, "\(model.description) cannot be force-unwrapped here in SQL")
            }
            return TranslatedExpression(form: .model(model), type: Output.self, codec: nil, mayBeNull: false)
        }
        let present = ModelReference(
            columns: model.columns, identity: model.identity,
            access: .lookup(key: .call(.unwrap, key), table: table, alias: alias),
            description: model.description, number: scope.aliases.nextReference(), reachedFrom: model)
        return TranslatedExpression(form: .model(present), type: Output.self, codec: nil, mayBeNull: false)
    }
}
