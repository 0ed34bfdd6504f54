import Foundation
import Observation
import Synchronization

/// Counts the arrivals of new history transactions in a container's stores, from this process
/// or any other, so that code can catch up with ``ModelContext/fetchHistory(_:)`` when they come.
///
/// The observer keeps, for each store, the position up to which it has looked. When a store
/// commits (``ModelContainer/remoteChange``), it reads the transactions after that position;
/// if one of them changed a model of ``observedModels`` (or any model, when empty) and was
/// saved by one of ``authors`` (or anyone, when empty), it increments ``eventCounter``, once
/// for the whole arrival. It is `Observable`: observe ``eventCounter``, then fetch the history
/// after the token you keep.
///
/// ```swift
/// let observer = try HistoryObserver(observedModels: [Trip.self], modelContainer: container)
/// withObservationTracking { _ = observer.eventCounter } onChange: { catchUp() }
/// ```
///
/// The counter changes on the actor that created the observer. On Linux the stores' files are
/// watched with inotify: a commit is noticed as it happens, and nothing runs while no store
/// changes.
public final class HistoryObserver: Observable, Sendable {
    /// The container whose stores the observer watches.
    public final let modelContainer: ModelContainer
    /// The models whose changes count; empty for changes to any model. A class's subclasses
    /// count with it.
    public final let observedModels: [any PersistentModel.Type]
    /// The authors whose transactions count; empty for every author (and none).
    public final let authors: Set<String>

    /// How many arrivals of relevant transactions the observer has seen.
    public final var eventCounter: Int {
        registrar.access(self, keyPath: \.eventCounter)
        return state.withLock { $0.eventCounter }
    }

    private struct State {
        var eventCounter = 0
        /// The last transaction looked at, by store identifier.
        var positions: [String: Int64] = [:]
    }

    private let state: Mutex<State>
    private let registrar = ObservationRegistrar()
    /// The entities whose changes count (the observed models' and their subclasses'); `nil`
    /// for every entity.
    private let entities: Set<String>?
    private let looks: CoalescedRefresh
    nonisolated(unsafe) private var notificationObserver: (any NSObjectProtocol)?

    /// Creates an observer of the container's history, starting after the given tokens.
    ///
    /// - Parameters:
    ///   - historyTokens: Where to start, by store identifier: transactions after these tokens
    ///     count, those already there included (the observer looks at once). `nil` starts at each
    ///     store's current position; a store the dictionary leaves out starts at its current
    ///     position too.
    ///   - observedModels: The models whose changes count; empty for any model.
    ///   - authors: The authors whose transactions count; empty for any author.
    ///   - modelContainer: The container to observe.
    ///   - isolation: The actor ``eventCounter`` changes on: the caller's.
    /// - Throws: ``SwiftDataError/historyTokenExpired`` when a token comes before history that
    ///   `deleteHistory` removed; ``SwiftDataError/invalidTransactionFetchRequest`` for a token
    ///   that is not a ``DefaultHistoryToken`` or names no store of the container; the store's
    ///   error when its position cannot be read or its file watched.
    public convenience init(
        historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(historyTokens: historyTokens, observedModels: observedModels, authors: authors, container: modelContainer, isolation: isolation)
    }

    private init(
        historyTokens: [String: any HistoryToken]?, observedModels: [any PersistentModel.Type], authors: Set<String>,
        container: ModelContainer, isolation: (any Actor)?
    ) throws {
        modelContainer = container
        self.observedModels = observedModels
        self.authors = authors
        looks = CoalescedRefresh(isolation: isolation)
        entities = observedModels.isEmpty ? nil : Self.entityNames(of: observedModels, in: container.schema)
        let given = try Self.positions(from: historyTokens ?? [:], in: container)
        var positions: [String: Int64] = [:]
        for store in container.stores {
            let (current, pruned) = try store.historyPosition()
            if let start = given[store.identifier], start < pruned {
                throw SwiftDataError.historyTokenExpired.explaining(
                    "the history of the store \(store.identifier) no longer holds transactions up to \(pruned) (deleteHistory removed them), and the token given for it stands at transaction \(start); start from the current position (historyTokens: nil) after catching up from the store's state")
            }
            positions[store.identifier] = given[store.identifier] ?? current
        }
        // The last step that may throw, before the observer is whole: its deinit, which ends
        // the posting, runs only when this succeeded.
        try container.beginPostingRemoteChanges()
        state = Mutex(State(positions: positions))
        looks.action = { [weak self] in self?.lookForRelevantTransactions() }
        let looks = self.looks
        notificationObserver = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { _ in looks.request() }
        // A commit after the positions were read and before the watch began would go unseen.
        looks.request()
    }

    deinit {
        if let notificationObserver { NotificationCenter.default.removeObserver(notificationObserver) }
        modelContainer.endPostingRemoteChanges()
    }

    /// The names of the models' entities and their subentities'.
    private static func entityNames(of models: [any PersistentModel.Type], in schema: Schema) -> Set<String> {
        let classes = Set(models.map(ObjectIdentifier.init))
        var pending = schema.entities.filter { entity in
            schema.layouts[entity.name].map { classes.contains(ObjectIdentifier($0.modelType)) } ?? false
        }
        var names: Set<String> = []
        while let entity = pending.popLast() {
            if names.insert(entity.name).inserted { pending += entity.subentities }
        }
        return names
    }

    /// The transaction number each given token stands at, by store identifier.
    private static func positions(from tokens: [String: any HistoryToken], in container: ModelContainer) throws -> [String: Int64] {
        var positions: [String: Int64] = [:]
        for (storeIdentifier, token) in tokens {
            guard let token = token as? DefaultHistoryToken else {
                throw SwiftDataError.invalidTransactionFetchRequest.explaining(
                    "the token given for the store \(storeIdentifier) is a \(type(of: token)); this container's stores keep DefaultHistoryToken")
            }
            guard container.stores.contains(where: { $0.identifier == storeIdentifier }) else {
                throw SwiftDataError.invalidTransactionFetchRequest.explaining(
                    "a token was given for the store \(storeIdentifier), which is not one of the container's (\(container.stores.map(\.identifier).joined(separator: ", ")))")
            }
            positions[storeIdentifier] = max(token.transaction(in: storeIdentifier), 0)
        }
        return positions
    }

    /// Reads each store's transactions after the observer's position, moves the position past
    /// them, and counts an event when one of them is relevant.
    private func lookForRelevantTransactions() {
        let positions = state.withLock { $0.positions }
        var relevant = false
        var newPositions = positions
        for store in modelContainer.stores {
            let position = positions[store.identifier] ?? 0
            guard let (summaries, pruned) = try? store.historySummaries(after: position) else { continue }
            // Transactions removed before they were looked at may have been relevant.
            if pruned > position { relevant = true }
            relevant = relevant || summaries.contains(where: isRelevant)
            newPositions[store.identifier] = max(position, pruned, summaries.last?.id ?? 0)
        }
        guard newPositions != positions || relevant else { return }
        if relevant {
            registrar.withMutation(of: self, keyPath: \.eventCounter) {
                state.withLock { state in
                    state.eventCounter += 1
                    state.positions = newPositions
                }
            }
        } else {
            state.withLock { $0.positions = newPositions }
        }
    }

    private func isRelevant(_ transaction: StoreHistory.Summary) -> Bool {
        guard authors.isEmpty || transaction.author.map(authors.contains) == true else { return false }
        guard let entities else { return true }
        return !transaction.entities.isDisjoint(with: entities)
    }
}
