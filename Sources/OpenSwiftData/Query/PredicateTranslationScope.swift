import Foundation

/// A `PredicateExpressions` node that can become SQL.
///
/// Foundation's expression types conform through extensions in this folder. A node translates
/// its children with ``PredicateTranslationScope/translate(_:)``, which casts each child to this
/// protocol at run time: a child that does not conform (say `SequenceMaximum`) stops the
/// translation with an error naming that child's full type, not its parent's.
protocol PredicateSQLTranslatable {
    func translate(in scope: PredicateTranslationScope) throws -> TranslatedExpression
}

/// A predicate variable, whatever its type: lets a key path see whether its root is the
/// predicate's own input (the model row) or a variable bound by `flatMap`.
protocol PredicateVariableReference {
    var key: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: PredicateVariableReference {}

/// One translated sub-expression of a predicate.
struct TranslatedExpression {
    enum Form {
        /// A Swift value known while translating: a captured value, a literal, or a
        /// sub-expression that reads no model attribute, folded by evaluating it in Swift.
        case constant(Any)
        /// SQL evaluated for each row.
        case sql(SQLFragment)
        /// A model reached from the row (the row itself, a to-one relationship's model, an
        /// element of a to-many relationship), or its `persistentModelID`: it has no SQL
        /// value of its own, only a key to compare and attributes to read.
        case model(ModelReference)
        /// The models of a to-many relationship: only counted, tested for emptiness, or
        /// searched with `contains`, `allSatisfy` and `filter`.
        case collection(CollectionReference)
    }

    var form: Form
    /// The Swift type the expression produces: the node's `Output`.
    let type: Any.Type
    /// The codec of the stored column this SQL reads as it is, if it reads one: a constant
    /// compared with it is encoded with it, exactly as the column stores values.
    var codec: ValueCodec?
    /// Whether the SQL may be `NULL`. Only expressions of `Optional` type may be: every
    /// non-optional `Bool` the translators emit is 0 or 1, never `NULL`, so `NOT` and `OR`
    /// keep Swift's two-valued meaning.
    var mayBeNull: Bool
    /// The key path the expression reads, for error messages: made only when one is.
    var keyPathDescription: DeferredText?
    /// The ``ModelReference`` numbers of models whose absence makes the SQL `NULL`: an
    /// attribute read from a related row is `NULL` when there is no such row.
    var nullWhenMissing: Set<Int> = []
    /// Whether floating-point arithmetic may make the value NaN (`x * 0` with `x` infinite,
    /// `x - x`), which SQLite gives as `NULL` though the Swift type is not optional: comparisons
    /// then give Swift's answer for NaN themselves.
    var mayBeNaN = false

    static func constant(_ value: Any, type: Any.Type) -> TranslatedExpression {
        TranslatedExpression(form: .constant(value), type: type, codec: nil, mayBeNull: false)
    }

    static func sql(
        _ fragment: SQLFragment, type: Any.Type, mayBeNull: Bool = false, codec: ValueCodec? = nil
    ) -> TranslatedExpression {
        TranslatedExpression(form: .sql(fragment), type: type, codec: codec, mayBeNull: mayBeNull)
    }

    var kind: SQLValueKind { SQLValueKind(type) }

    var isConstant: Bool {
        if case .constant = form { return true }
        return false
    }

    /// The model, when the expression is one (or its `persistentModelID`).
    var modelReference: ModelReference? {
        if case .model(let reference) = form { return reference }
        return nil
    }

    /// The to-many relationship's models, when the expression is such a collection.
    var collectionReference: CollectionReference? {
        if case .collection(let reference) = form { return reference }
        return nil
    }

    /// The constant's value, when the expression is a constant.
    var constantValue: Any? {
        if case .constant(let value) = form { return value }
        return nil
    }

    /// Whether the expression is the constant `nil`.
    var isNilConstant: Bool {
        guard case .constant(let value) = form else { return false }
        if let optional = value as? any OptionalProtocol {
            return optional.wrappedValue == nil
        }
        return false
    }

    /// Whether the value may be `nil` (SQL `NULL`) at run time.
    var mayBeNil: Bool { isConstant ? isNilConstant : mayBeNull }
}

/// The state of one translation: which variable is the model row, what `flatMap` and closure
/// variables are bound to, the aliases of its subqueries, the entities it reads through
/// relationships, and how to report what cannot be translated.
final class PredicateTranslationScope {
    /// The variable that stands for the fetched row: the predicate's own, or while a composed
    /// predicate is translated, that predicate's (``standingForTheRow(_:_:)``).
    private(set) var rootVariable: PredicateExpressions.VariableID
    let columns: any ColumnResolving
    /// The model type's name, for messages.
    let rootTypeName: String
    /// The fetched row, as a model.
    let rootModel: ModelReference
    let aliases: SQLAliases
    /// The entities whose tables the SQL reads besides the fetched one.
    private(set) var relatedEntities: Set<String> = []
    private var variables: [PredicateExpressions.VariableID: TranslatedExpression] = [:]
    /// The variables bound to constants, so constant sub-expressions can be evaluated.
    private var constantBindings = PredicateBindings()
    /// How the whole condition's truth follows the expression being translated: `.positive` at
    /// the root, kept by `&&` and `||`, turned by `!`, `.none` below anything else.
    private(set) var polarity = SQLPolarity.positive
    /// The polarity the next ``translate(_:)`` gives its expression (``translateCondition(_:negated:)``).
    private var polarityOfNextChild: SQLPolarity?

    init(
        rootVariable: PredicateExpressions.VariableID, columns: any ColumnResolving, rootTypeName: String,
        aliases: SQLAliases = SQLAliases()
    ) {
        self.rootVariable = rootVariable
        self.columns = columns
        self.rootTypeName = rootTypeName
        self.aliases = aliases
        rootModel = ModelReference(
            columns: columns, identity: columns.rowIdentity, access: .current, description: rootTypeName,
            number: aliases.nextReference())
    }

    /// Records that the SQL reads the table of `entity`.
    func noteRead(of entity: String) {
        relatedEntities.insert(entity)
    }

    // MARK: Walking the tree

    /// Translates a child expression, or throws naming its type when it has no translation.
    func translate(_ expression: any PredicateExpression) throws -> TranslatedExpression {
        let parentPolarity = polarity
        polarity = polarityOfNextChild ?? .none
        polarityOfNextChild = nil
        defer { polarity = parentPolarity }
        guard let translatable = expression as? any PredicateSQLTranslatable else {
            throw unsupported(
                type(of: expression),
                "OpenSwiftData has no SQL translation for this kind of expression")
        }
        let translated = try translatable.translate(in: self)
        // A condition computing what a store may lack (a function, a collation, a test whose
        // truth it does not follow) is a test as a whole, which that store narrows.
        if polarity != .none, translated.type == Bool.self, case .sql(let sql) = translated.form, sql.mayNeedWholeNarrowing {
            var whole = translated
            whole.form = .sql(.test(.condition, sql, polarity: polarity))
            return whole
        }
        return translated
    }

    /// Translates an operand of `&&`, `||` or `!` (`negated`), or the predicate's own expression:
    /// a condition whose truth the whole condition's follows (``polarity``).
    func translateCondition(_ expression: any PredicateExpression, negated: Bool = false) throws -> TranslatedExpression {
        polarityOfNextChild = negated ? polarity.negated : polarity
        return try translate(expression)
    }

    /// Runs `body` with `variable` standing for the fetched row, as the predicate's own
    /// variable does: how a predicate evaluated on the row inside another is translated.
    func standingForTheRow<V, Result>(_ variable: PredicateExpressions.Variable<V>, _ body: () throws -> Result) rethrows -> Result {
        let saved = rootVariable
        defer { rootVariable = saved }
        rootVariable = variable.key
        return try body()
    }

    /// The translation a `flatMap` or other closure variable is bound to.
    func value(of variable: PredicateExpressions.VariableID) -> TranslatedExpression? {
        variables[variable]
    }

    /// Runs `body` with `variable` standing for `value`.
    func binding<V, Result>(
        _ variable: PredicateExpressions.Variable<V>, to value: TranslatedExpression,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let savedVariables = variables
        let savedBindings = constantBindings
        defer {
            variables = savedVariables
            constantBindings = savedBindings
        }
        variables[variable.key] = value
        if let constant = value.constantValue as? V {
            constantBindings = constantBindings.binding(variable, to: constant)
        }
        return try body()
    }

    /// The value of `expression` computed in Swift, when all its translated children are
    /// constants: captured values, literals, and anything built from them alone. Folding keeps
    /// Swift's exact semantics for such parts (string equality by canonical equivalence,
    /// overflow checks, captured objects' properties…). Returns nil when a child is SQL or when
    /// evaluating throws (that case is left to SQL, which reproduces the failure per row).
    func folded<E: PredicateExpression>(
        _ expression: E, _ children: [TranslatedExpression]
    ) -> TranslatedExpression? {
        guard children.allSatisfy(\.isConstant) else { return nil }
        guard let value = try? expression.evaluate(constantBindings) else { return nil }
        return .constant(value, type: E.Output.self)
    }

    // MARK: Emitting SQL

    /// The SQL for a translated value. A constant becomes a bound argument (or `NULL`),
    /// encoded with the codec of `peer` when `peer` reads a column of the same type, so it is
    /// stored exactly as the column stores values, and with ``ValueCodec/forType(_:)`` otherwise.
    func sql(
        _ expression: TranslatedExpression, like peer: TranslatedExpression? = nil,
        in node: Any.Type
    ) throws -> SQLFragment {
        switch expression.form {
        case .sql(let fragment):
            return fragment
        case .model(let reference):
            guard let key = reference.key else {
                throw unsupported(node, "\(reference.description) has no identity to compare in SQL")
            }
            return key
        case .collection(let reference):
            throw unsupported(
                node,
                "\(reference.description) is a to-many relationship, which has no value in SQL: "
                    + "use isEmpty, count, contains(where:), allSatisfy or filter on it")
        case .constant(let value):
            if SQLValueKind(expression.type).isPersistentIdentifier {
                throw unsupported(
                    node,
                    "a PersistentIdentifier can only be compared with == or != to a persistentModelID, "
                        + "or searched for with contains")
            }
            let codec: ValueCodec
            if let peer, let peerCodec = peer.codec,
               ObjectIdentifier(peer.kind.wrappedType) == ObjectIdentifier(expression.kind.wrappedType) {
                codec = peerCodec
            } else if let typeCodec = ValueCodec.forType(expression.type) {
                codec = typeCodec
            } else {
                throw unsupported(
                    node,
                    "a value of type \(readableTypeName(expression.type)) cannot be stored in a column, so it cannot be compared in SQL")
            }
            let stored: StoredValue
            do {
                stored = try codec.encode(value)
            } catch {
                throw unsupported(node, "the value \(value) could not be encoded: \(error)")
            }
            return stored == .null ? "NULL" : .argument(stored, storage: codec.storage)
        }
    }

    /// The SQL for a `Bool` expression used as a condition: 0 or 1, never `NULL`.
    func condition(_ expression: TranslatedExpression, in node: Any.Type) throws -> SQLFragment {
        switch expression.form {
        case .sql(let fragment):
            return fragment
        case .model, .collection:
            throw unsupported(node, "a condition must be a Bool, not \(readableTypeName(expression.type))")
        case .constant(let value):
            guard let bool = value as? Bool else {
                throw unsupported(node, "a condition must be a Bool, not \(readableTypeName(expression.type))")
            }
            return bool ? "TRUE" : "FALSE"
        }
    }

    // MARK: Errors

    /// `SwiftDataError.unsupportedPredicate`, naming the expression's full type.
    ///
    /// The message does not quote `Predicate.description`: Foundation's printer stops the
    /// process (a fatal error) on expression types it does not know, such as the string
    /// expressions this package adds.
    func unsupported(_ node: Any.Type, _ reason: String) -> SwiftDataError {
        SwiftDataError.unsupportedPredicate.explaining(
            "cannot translate \(readableTypeName(node)) to SQL: \(reason)")
    }
}
