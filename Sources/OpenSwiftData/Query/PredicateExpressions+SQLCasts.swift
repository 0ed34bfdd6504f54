import Foundation

// `$0 is C`, `$0 as? C` and `$0 as! C` on a model of a class hierarchy: the hierarchy's table
// names each row's class (`_entity`), so a check is `_entity IN (C and its subclasses)`, and a
// cast reads the row through `C`'s columns, missing (NULL) when the row is of another class.

extension PredicateTranslationScope {
    /// The model `input` is, read as `desired`; throws when `input` is not a model or cannot be
    /// of that class.
    fileprivate func cast(_ input: TranslatedExpression, to desired: Any.Type, in node: Any.Type) throws -> (ModelReference, RowCast) {
        guard let model = input.modelReference else {
            throw unsupported(node, "only a model can be checked or cast to another model class in SQL")
        }
        guard let cast = model.columns.cast(to: desired) else {
            throw unsupported(
                node,
                "\(model.description.isEmpty ? "the model" : model.description) is never a \(readableTypeName(desired)): it is not a class of the same @Model hierarchy")
        }
        return (model, cast)
    }
}

extension PredicateExpressions.TypeCheck: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let input = try scope.translate(input)
        let (model, cast) = try scope.cast(input, to: Desired.self, in: Self.self)
        guard let key = model.key else { throw scope.unsupported(Self.self, "the rows are not models") }
        // A missing model (a nil to-one relationship) is of no class.
        let present: SQLFragment = "\(key) IS NOT NULL"
        guard let condition = cast.condition else { return .sql(present, type: Bool.self) }
        return .sql("(\(present) AND \(model.read(condition)) = TRUE)", type: Bool.self)
    }
}

extension PredicateExpressions.ConditionalCast: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let input = try scope.translate(input)
        let (model, cast) = try scope.cast(input, to: Desired.self, in: Self.self)
        var reference = model.recast(columns: cast.columns)
        if let condition = cast.condition {
            // NULL unless the row is of the class: the model is missing then.
            reference.presence.append(model.read("(CASE WHEN \(condition) THEN 1 END)"))
        }
        return TranslatedExpression(form: .model(reference), type: Output.self, codec: nil, mayBeNull: true)
    }
}

extension PredicateExpressions.ForceCast: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let input = try scope.translate(input)
        let (model, cast) = try scope.cast(input, to: Desired.self, in: Self.self)
        var reference = model.recast(columns: cast.columns)
        if let condition = cast.condition {
            // `as!` of another class stops `Predicate.evaluate`; in SQL the fetch fails.
            reference.presence.append(
                model.read("(CASE WHEN \(condition) THEN 1 ELSE \(SQLFragment.call(.unwrap, "NULL")) END)"))
        }
        return TranslatedExpression(form: .model(reference), type: Output.self, codec: nil, mayBeNull: input.mayBeNil)
    }
}
