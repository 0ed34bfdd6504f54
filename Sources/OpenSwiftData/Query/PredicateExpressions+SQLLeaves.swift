import Foundation

// The leaves of a predicate: captured values, `nil`, variables and key paths.

extension PredicateExpressions.Value: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        .constant(value, type: Output.self)
    }
}

extension PredicateExpressions.NilLiteral: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        .constant(Output.none as Any, type: Output.self)
    }
}

extension PredicateExpressions.Variable: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        if key == scope.rootVariable {
            guard scope.rootModel.identity != nil else {
                throw scope.unsupported(
                    Self.self,
                    "the model itself cannot be compared in SQL; compare one of its stored attributes, "
                        + "such as its persistentModelID, instead")
            }
            return TranslatedExpression(form: .model(scope.rootModel), type: Output.self, codec: nil, mayBeNull: false)
        }
        guard let bound = scope.value(of: key) else {
            throw scope.unsupported(Self.self, "the variable is not bound by an enclosing expression")
        }
        return bound
    }
}

extension PredicateExpressions.KeyPath: PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression {
        let anyKeyPath = keyPath as AnyKeyPath
        if let variable = root as? any PredicateVariableReference, variable.key == scope.rootVariable {
            return try scope.member(anyKeyPath, of: scope.rootModel, type: Output.self, in: Self.self)
        }
        let base = try scope.translate(root)
        switch base.form {
        case .model(let model):
            return try scope.member(anyKeyPath, of: model, type: Output.self, in: Self.self)
        case .collection(let collection):
            return try scope.member(anyKeyPath, of: collection, collectionType: Root.Output.self, in: Self.self)
        case .constant, .sql:
            break
        }
        if let folded = scope.folded(self, [base]) {
            return folded
        }
        let baseSQL = try scope.sql(base, in: Self.self)
        let kind = base.kind
        // `$0.kind.rawValue`: the column holds the raw value already.
        if let codec = base.codec, codec.storage != .codable, RawValueKeyPath.reads(anyKeyPath, of: kind.wrappedType) {
            var translated = TranslatedExpression.sql(baseSQL, type: Output.self, mayBeNull: base.mayBeNull, codec: ValueCodec.forType(Output.self))
            translated.keyPathDescription = base.keyPathDescription.map { base in DeferredText { "\(base).rawValue" } }
            return translated
        }
        // `isEmpty` and `count` of an array of values, which the store keeps as a JSON array.
        if let array = kind.wrappedType as? any StoredJSONArray.Type, base.codec?.storage == .codable || kind.storage == .json {
            if anyKeyPath == array.isEmptyKeyPath {
                return .sql("(\(SQLFragment.call(.arrayCount, baseSQL)) = 0)", type: Output.self)
            }
            if anyKeyPath == array.countKeyPath {
                return .sql(.call(.arrayCount, baseSQL), type: Output.self)
            }
        }
        if base.codec?.storage == .codable || kind.storage == .json {
            throw scope.unsupported(
                Self.self,
                "\(describeKeyPath(anyKeyPath)) reads inside \(base.keyPathDescription.map(\.description) ?? "a value") of type \(kind.typeName), "
                    + "which the store keeps as JSON, so its parts cannot be queried")
        }
        // Members with an exact SQL meaning. The base is never NULL here: optional chaining
        // arrives as `flatMap`, whose variable stands for a non-NULL value.
        if kind.isString {
            if anyKeyPath == \String.isEmpty as AnyKeyPath {
                return .sql("(\(baseSQL) = '')", type: Output.self)
            }
            if anyKeyPath == \String.count as AnyKeyPath {
                return .sql(.call(.characterCount, baseSQL), type: Output.self)
            }
        } else if kind.isData {
            if anyKeyPath == \Data.isEmpty as AnyKeyPath {
                return .sql("(length(\(baseSQL)) = 0)", type: Output.self)
            }
            if anyKeyPath == \Data.count as AnyKeyPath {
                return .sql("length(\(baseSQL))", type: Output.self)
            }
        } else if ObjectIdentifier(kind.wrappedType) == ObjectIdentifier(Date.self) {
            if anyKeyPath == \Date.timeIntervalSinceReferenceDate as AnyKeyPath {
                return .sql(baseSQL, type: Output.self)
            }
            if anyKeyPath == \Date.timeIntervalSince1970 as AnyKeyPath {
                let offset = SQLFragment.argument(.real(Date.timeIntervalBetween1970AndReferenceDate))
                return .sql("(\(baseSQL) + \(offset))", type: Output.self)
            }
        }
        throw scope.unsupported(
            Self.self,
            "\(describeKeyPath(anyKeyPath)) has no SQL equivalent (supported on computed values: String.count, "
                + "String.isEmpty, Data.count, Data.isEmpty, Date.timeIntervalSinceReferenceDate, "
                + "Date.timeIntervalSince1970)")
    }
}

/// Whether a key path reads a `RawRepresentable` value's raw value, which the store keeps as the
/// column's value.
///
/// `\Kind.rawValue` written in a predicate names the enum's own property, which no key path made
/// here through `RawRepresentable` equals; so a key path counts when the type lists its values
/// (`CaseIterable`) and the key path gives each one's raw value. For another type it is not
/// known, and the read is refused.
enum RawValueKeyPath {
    static func reads(_ keyPath: AnyKeyPath, of type: Any.Type) -> Bool {
        guard let listed = type as? any (CaseIterable & RawRepresentable).Type else { return false }
        return givesRawValues(keyPath, listed)
    }

    private static func givesRawValues<R: CaseIterable & RawRepresentable>(_ keyPath: AnyKeyPath, _: R.Type) -> Bool {
        guard let typed = keyPath as? KeyPath<R, R.RawValue>, !R.allCases.isEmpty else { return false }
        return R.allCases.allSatisfy { value in
            guard let read = value[keyPath: typed] as? AnyHashable, let raw = value.rawValue as? AnyHashable else { return false }
            return read == raw
        }
    }
}

/// An array of values, which the store keeps as a JSON array: what its `isEmpty` and `count`
/// key paths are, and whether `contains` can compare its elements in SQL.
protocol StoredJSONArray {
    static var isEmptyKeyPath: AnyKeyPath { get }
    static var countKeyPath: AnyKeyPath { get }
    /// The element type, when `json_each` reads elements as values that compare in SQL as
    /// Swift compares them: strings (byte for byte, as everywhere in SQL), integers, booleans.
    static var searchableElementType: Any.Type? { get }
}

extension Array: StoredJSONArray {
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var searchableElementType: Any.Type? {
        let searchable: [Any.Type] = [String.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt8.self, UInt16.self, UInt32.self, Bool.self]
        return searchable.contains { $0 == Element.self } ? Element.self : nil
    }
}
