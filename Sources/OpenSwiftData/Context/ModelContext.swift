import Foundation

/// A workspace over a container's stores: it fetches models, tracks the ones you insert,
/// change and delete, and saves those changes in one transaction.
///
/// ```swift
/// let context = ModelContext(container)
/// let film = Film(title: "Up", releaseYear: 2009)
/// context.insert(film)
/// try context.save()
///
/// let recent = try context.fetch(FetchDescriptor<Film>(predicate: #Predicate { $0.releaseYear > 2000 }))
/// ```
///
/// A context holds one object per stored row: fetching the same row twice returns the same
/// object. Objects with no unsaved changes take the stored values each time a fetch reads their
/// row, so a fetch sees what other contexts saved; objects with unsaved changes keep them.
///
/// Contexts are not `Sendable`: use each from one actor or thread, and pass
/// ``PersistentIdentifier``s between them. A context you create does not autosave; the
/// container's ``ModelContainer/mainContext`` does.
public class ModelContext: Equatable {
    /// The container whose stores the context reads and writes.
    public let container: ModelContainer

    /// Whether the context saves by itself shortly after its models change. `true` for the
    /// main context, where saves are scheduled on the main actor; a context you create saves
    /// when you call ``save()``.
    public var autosaveEnabled: Bool

    /// A name recorded with this context's saves.
    public var author: String?

    let isMainContext: Bool
    /// The weak reference to this context that the backing data it holds share.
    let reference = ContextReference()
    var registered: [String: RowRegistry] = [:]
    var inserted: [ModelState] = []
    // Every change to a saved model reaches these two; the context is used from one thread at
    // a time and no access to either nests inside another, so they skip the runtime's
    // exclusivity check, a call before and after each access.
    @exclusivity(unchecked) var changed = ChangedModels()
    @exclusivity(unchecked) var savedValues = SavedValues()
    var deleted: [ObjectIdentifier: ModelState] = [:]
    /// Deletes of every stored row a query matches, which the next save runs as one statement
    /// each (see `delete(model:where:includeSubclasses:)`).
    var batchDeletes: [FetchPlan] = []
    /// The identifiers of deleted models that `enumerate` let go of, whose rows pending batch
    /// deletes remove (`keepDeletesAsRowKeys(_:rowIDs:)`), by store: the save that removes them
    /// lists them as deleted.
    var deletedAsRowKeys: [(store: any ModelStore, identifiers: [PersistentIdentifier])] = []
    var autosaveScheduled = false
    /// Called when the context's models change, are inserted or deleted, or it rolls back: the
    /// ``ResultsObserver``s over the context, by observer.
    var changeListeners: [ObjectIdentifier: () -> Void] = [:]

    /// Creates an independent context over the container's stores.
    ///
    /// - Parameter container: The container whose stores the context reads and writes.
    public init(_ container: ModelContainer) {
        self.container = container
        autosaveEnabled = false
        isMainContext = false
        reference.context = self
    }

    init(_ container: ModelContainer, isMainContext: Bool) {
        self.container = container
        autosaveEnabled = isMainContext
        self.isMainContext = isMainContext
        reference.context = self
    }

    deinit {
        // Each state holds its model while registered. Let go of them in the order they were
        // registered, which is about the order they sit in memory (see `RowRegistry`).
        var states: [ModelState] = []
        states.reserveCapacity(registered.values.reduce(inserted.count) { $0 + $1.count })
        for entity in registered.values.indices { registered.values[entity].moveStates(to: &states) }
        states.append(contentsOf: inserted)
        registered = [:]
        inserted = []
        for state in states {
            state.faultRelationships()
            state.model = nil
        }
    }

    /// Contexts are equal when they are the same object.
    ///
    /// - Parameters:
    ///   - lhs: A context.
    ///   - rhs: Another context.
    /// - Returns: Whether `lhs` and `rhs` are the same object.
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool {
        lhs === rhs
    }

    // MARK: Pending changes

    /// Whether the context has inserts, changes or deletes it has not saved.
    public var hasChanges: Bool {
        !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty || !batchDeletes.isEmpty
    }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted.compactMap(\.model) }
    /// The stored models changed since the last save.
    public var changedModelsArray: [any PersistentModel] { changed.states.compactMap(\.model) }
    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { deleted.values.compactMap(\.model) }

    /// Registers a new model with the context; the next save stores it. Inserting a model the
    /// context already holds does nothing.
    ///
    /// - Parameter model: The model to insert, and with it (at the next save) the new models its
    ///   relationships reach. A model deleted from this context since the last save is taken back.
    ///   Inserting a model that belongs to another context traps: fetch it in this one with
    ///   ``model(for:)`` instead.
    public func insert<T>(_ model: T) where T: PersistentModel {
        let state = Self.state(of: model)
        if state.context === self {
            if state.isDeleted { undelete(state) }
            return
        }
        precondition(
            state.context == nil,
            "\(state.layout.entityName) belongs to another ModelContext; fetch it in this context with model(for: \\.persistentModelID) instead of inserting it")
        state.context = self
        state.model = model
        // A model deleted before (or cascaded away without a context) is taken back in whole.
        state.isDeleted = false
        if state.rowID == nil {
            state.captureConstants(of: model)
            state.isInserted = true
            inserted.append(state)
        } else {
            registered[state.layout.registryName, default: RowRegistry()][state.rowID!] = state
        }
        didChangeModels()
    }

    /// Marks a model deleted; the next save removes it from its store. Deleting a model that
    /// was inserted and never saved just forgets it.
    ///
    /// - Parameter model: The model to delete. One that belongs to another context, or is deleted
    ///   already, is left as it is.
    public func delete<T>(_ model: T) where T: PersistentModel {
        let state = Self.state(of: model)
        guard state.context === self, !state.isDeleted else { return }
        if state.isInserted {
            inserted.removeAll { $0 === state }
            state.isInserted = false
            state.isDeleted = true
            state.context = nil
            state.model = nil
            didChangeModels()
            return
        }
        state.isDeleted = true
        deleted[ObjectIdentifier(state)] = state
        changed.remove(state)
        didChangeModels()
    }

    /// Called by a model's backing data when one of its values changes.
    func modelDidChange(_ state: ModelState) {
        if !state.isInserted, !state.isDeleted {
            changed.insert(state)
        }
        didChangeModels()
    }

    /// Discards unsaved changes: inserted models are forgotten, changed models take back their
    /// saved values, and deleted models are kept.
    public func rollback() {
        for state in inserted {
            state.isInserted = false
            state.context = nil
            state.model = nil
        }
        inserted.removeAll()
        savedValues.restoreAll()
        for state in changed.states { state.discardChanges() }
        changed.removeAll()
        for state in deleted.values { state.discardChanges() }
        deleted.removeAll()
        batchDeletes.removeAll()
        deletedAsRowKeys.removeAll()
        callChangeListeners()
    }

    /// Applies pending changes to the object graph: inserts the new models that inserted or
    /// changed models refer to, and applies the delete rules of deleted models. Saving does this
    /// first by itself.
    public func processPendingChanges() {
        try? applyPendingChanges(checkingDenyRules: false)
    }

    /// Runs `block`, then saves. If `block` throws, nothing is saved and the changes it made
    /// stay pending.
    ///
    /// - Parameter block: The changes to make.
    /// - Throws: What `block` throws, or the error of ``save()``.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    private func undelete(_ state: ModelState) {
        state.isDeleted = false
        deleted[ObjectIdentifier(state)] = nil
        if !state.changedProperties.isEmpty { changed.insert(state) }
    }
}
