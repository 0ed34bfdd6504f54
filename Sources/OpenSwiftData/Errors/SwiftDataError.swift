/// An error thrown by OpenSwiftData, spelled as SwiftData spells it.
///
/// Like SwiftData's, the error is a struct with one static member per kind, so existing
/// `catch` clauses keep compiling:
///
/// ```swift
/// do {
///     let films = try context.fetch(descriptor)
/// } catch SwiftDataError.unsupportedPredicate {
///     // ...
/// }
/// ```
///
/// Unlike SwiftData's, every error thrown by this package carries an explanation: what went
/// wrong, where (entity, attribute, version, file) and how to fix it. `description` prints it.
/// Two errors compare equal when they are of the same kind, whatever their explanations.
public struct SwiftDataError: Error, Hashable, CustomStringConvertible, Sendable {
    enum Kind: String, Hashable, Sendable {
        case includePendingChangesWithBatchSize
        case unsupportedPredicate
        case unsupportedKeyPath
        case sortingPendingChangesWithIdentifiers
        case unsupportedSortDescriptor
        case duplicateConfiguration
        case configurationFileNameTooLong
        case configurationFileNameContainsInvalidCharacters
        case configurationSchemaNotFoundInContainerSchema
        case loadIssueModelContainer
        case modelValidationFailure
        case missingModelContext
        case backwardMigration
        case unknownSchema
        case historyTokenExpired
        case invalidTransactionFetchRequest
    }

    let kind: Kind

    /// What went wrong, where, and how to fix it.
    public let explanation: String?

    /// The database's refusal behind the error, when a store refused a save.
    package let storeFailure: StoreFailure?

    init(_ kind: Kind, _ explanation: String? = nil, storeFailure: StoreFailure? = nil) {
        self.kind = kind
        self.explanation = explanation
        self.storeFailure = storeFailure
    }

    /// The same kind of error, with an explanation for people (and the store's refusal that
    /// caused it, `cause`, when there is one).
    package func explaining(_ explanation: String, cause: (any Error)? = nil) -> SwiftDataError {
        SwiftDataError(kind, explanation, storeFailure: cause.flatMap { StoreFailure($0) })
    }

    /// The same kind of error, with an explanation for people, caused by `failure`.
    package func explaining(_ explanation: String, failure: StoreFailure) -> SwiftDataError {
        SwiftDataError(kind, explanation, storeFailure: failure)
    }

    public var description: String {
        if let explanation {
            return "SwiftDataError.\(kind.rawValue): \(explanation)"
        }
        return "SwiftDataError.\(kind.rawValue)"
    }

    /// Whether two errors are of the same kind; their explanations are not compared.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another error.
    /// - Returns: `true` when both are of the same kind.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the error's kind, the part `==` compares.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// Lets `catch SwiftDataError.unsupportedPredicate { ... }` match a thrown error.
    ///
    /// - Parameters:
    ///   - lhs: The kind to match, such as `SwiftDataError.unsupportedPredicate`.
    ///   - rhs: The error thrown.
    /// - Returns: Whether `rhs` is a ``SwiftDataError`` of `lhs`'s kind.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        (rhs as? SwiftDataError)?.kind == lhs.kind
    }

    // MARK: Fetch

    /// A fetch asked for pending changes and a batch size together.
    public static let includePendingChangesWithBatchSize = SwiftDataError(.includePendingChangesWithBatchSize)
    /// A predicate uses an expression that the store cannot evaluate.
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)
    /// A key path does not name a persisted property.
    public static let unsupportedKeyPath = SwiftDataError(.unsupportedKeyPath)
    /// Identifiers were fetched sorted while the context held unsaved changes.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(.sortingPendingChangesWithIdentifiers)
    /// A sort descriptor names something the store cannot sort by.
    public static let unsupportedSortDescriptor = SwiftDataError(.unsupportedSortDescriptor)

    // MARK: Configuration

    /// Two configurations of one container name the same store.
    public static let duplicateConfiguration = SwiftDataError(.duplicateConfiguration)
    /// A configuration's name makes a file name longer than the file system allows.
    public static let configurationFileNameTooLong = SwiftDataError(.configurationFileNameTooLong)
    /// A configuration's name contains characters a file name cannot hold.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError(.configurationFileNameContainsInvalidCharacters)
    /// A configuration's schema names an entity the container's schema lacks.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError(.configurationSchemaNotFoundInContainerSchema)

    // MARK: Container

    /// The container could not open or create one of its stores.
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)

    // MARK: Context

    /// A save found a model whose values break the schema's rules.
    public static let modelValidationFailure = SwiftDataError(.modelValidationFailure)
    /// An operation needs a model that belongs to a context.
    public static let missingModelContext = SwiftDataError(.missingModelContext)

    // MARK: Migration

    /// The store was written by a newer version of the app than the one opening it.
    public static let backwardMigration = SwiftDataError(.backwardMigration)
    /// The store's structure matches no schema the app declares.
    public static let unknownSchema = SwiftDataError(.unknownSchema)

    // MARK: History

    /// A history token refers to history that has been deleted.
    public static let historyTokenExpired = SwiftDataError(.historyTokenExpired)
    /// A history fetch request cannot be evaluated.
    public static let invalidTransactionFetchRequest = SwiftDataError(.invalidTransactionFetchRequest)
}
