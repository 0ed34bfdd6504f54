import Foundation
import Observation

/// A fetch whose results stay current: the models a descriptor selects, fetched again when the
/// context's models change, when another context of the container saves, and when another
/// container or process commits to one of its stores. `Observable`, so code outside SwiftUI
/// (and SwiftUI views) can follow ``results``.
///
/// ```swift
/// let observer = try ResultsObserver<Book, Never>(
///     filterBy: #Predicate { $0.isPublished }, sortBy: [SortDescriptor(\.title)], modelContext: context)
/// withObservationTracking { _ = observer.results } onChange: { redraw() }
/// ```
///
/// With a `sectionBy` key path (`SectionTitle` is then `String`), ``sections`` groups the
/// results by its value, sorted by it first. Use `Never` as `SectionTitle` for no sections.
///
/// The results are fetched again on the actor that created the observer, once for any number
/// of changes made before the fetch starts; they include the context's unsaved inserts, as a
/// fetch does. Use the observer on that actor, as its context.
public final class ResultsObserver<Element, SectionTitle>: Observable, CustomDebugStringConvertible
where Element: PersistentModel, SectionTitle: Hashable {
    /// The context the observer fetches with, and whose changes it follows.
    public final let modelContext: ModelContext
    /// The key path the sections are grouped by; `nil` without sections.
    public final let sectionBy: PartialKeyPath<Element>?

    /// The models the descriptor selects, in its order.
    public final var results: FetchResultsCollection<Element> {
        get {
            registrar.access(self, keyPath: \.results)
            return storedResults
        }
        set {
            registrar.withMutation(of: self, keyPath: \.results) { storedResults = newValue }
        }
    }

    /// The results grouped by ``sectionBy``, in the order of each section's first model; `nil`
    /// without sections.
    public final var sections: SectionedResults<Element, SectionTitle>? {
        get {
            registrar.access(self, keyPath: \.sections)
            return storedSections
        }
        set {
            registrar.withMutation(of: self, keyPath: \.sections) { storedSections = newValue }
        }
    }

    /// What the observer fetches. Change it through ``filterBy`` and ``sortBy``.
    public final var fetchDescriptor: FetchDescriptor<Element> {
        registrar.access(self, keyPath: \.fetchDescriptor)
        return descriptor
    }

    /// The predicate the results match; `nil` for every model. Setting it fetches again at once:
    /// the results are current when the setter returns (unchanged when the fetch fails).
    public final var filterBy: Predicate<Element>? {
        get { fetchDescriptor.predicate }
        set {
            registrar.withMutation(of: self, keyPath: \.fetchDescriptor) { descriptor.predicate = newValue }
            refresh()
        }
    }

    /// The order of the results. The section key path's order is kept first, and
    /// `persistentModelID` is added last (when missing) so that equal models keep one order.
    /// Setting it fetches again at once.
    public final var sortBy: [SortDescriptor<Element>] {
        get { fetchDescriptor.sortBy }
        set {
            registrar.withMutation(of: self, keyPath: \.fetchDescriptor) { descriptor.sortBy = arranged(newValue) }
            refresh()
        }
    }

    /// The model at `[section, item]`; `nil` without sections or for a position with no model.
    ///
    /// - Parameter indexPath: The section's index, then the model's index in it.
    /// - Returns: The model there.
    public final func element(at indexPath: IndexPath) -> Element? {
        guard indexPath.count == 2, let sections, sections.indices.contains(indexPath[0]) else { return nil }
        let section = sections[indexPath[0]]
        return section.indices.contains(indexPath[1]) ? section[indexPath[1]] : nil
    }

    /// Where a model is: `[section, item]`; `nil` without sections or when no section holds it.
    ///
    /// - Parameter element: A model of the results.
    /// - Returns: Its section's index, then its index in the section.
    public final func indexPath(for element: Element) -> IndexPath? {
        guard let sections else { return nil }
        if let title = sectionTitle?(element), let index = sections.index(ofSectionTitled: title),
           let item = sections[index].firstIndex(where: { $0 === element })
        {
            return IndexPath(indexes: [index, item])
        }
        return nil
    }

    public var debugDescription: String {
        "ResultsObserver<\(Element.self), \(SectionTitle.self)>(\(storedResults.count) results"
            + (storedSections.map { " in \($0.count) sections" } ?? "") + ")"
    }

    private let registrar = ObservationRegistrar()
    private var descriptor: FetchDescriptor<Element>
    private var storedResults: FetchResultsCollection<Element>
    private var storedSections: SectionedResults<Element, SectionTitle>?
    /// The title of a model's section, and the order by it, with sections.
    private let sectionTitle: ((Element) -> SectionTitle)?
    private let sectionOrder: SortDescriptor<Element>?
    /// The models of the current results, to tell whether a fetch changed them.
    private var resultIdentities: [ObjectIdentifier] = []
    private let refreshes: CoalescedRefresh
    private var notificationObservers: [any NSObjectProtocol] = []
    private var postsRemoteChanges = false

    init(
        descriptor: FetchDescriptor<Element>, sectionBy: PartialKeyPath<Element>?, sectionTitle: ((Element) -> SectionTitle)?,
        sectionOrder: SortDescriptor<Element>?, modelContext: ModelContext, isolation: (any Actor)?
    ) throws {
        self.modelContext = modelContext
        self.sectionBy = sectionBy
        self.sectionTitle = sectionTitle
        self.sectionOrder = sectionOrder
        refreshes = CoalescedRefresh(isolation: isolation)
        self.descriptor = descriptor
        storedResults = FetchResultsCollection([])
        self.descriptor.sortBy = arranged(descriptor.sortBy)
        let models = try modelContext.fetch(self.descriptor)
        resultIdentities = models.map(ObjectIdentifier.init)
        storedResults = FetchResultsCollection(models)
        if let sectionTitle { storedSections = SectionedResults(models, title: sectionTitle) }
        startObserving()
    }

    deinit {
        for observer in notificationObservers { NotificationCenter.default.removeObserver(observer) }
        if postsRemoteChanges { modelContext.container.endPostingRemoteChanges() }
        modelContext.changeListeners[ObjectIdentifier(self)] = nil
    }

    /// `sortBy` with the section order first and the identifier last.
    private func arranged(_ sortBy: [SortDescriptor<Element>]) -> [SortDescriptor<Element>] {
        var arranged = sortBy
        if let sectionOrder, arranged.first != sectionOrder { arranged.insert(sectionOrder, at: 0) }
        let byIdentifier = SortDescriptor(\Element.persistentModelID)
        if !arranged.contains(byIdentifier) { arranged.append(byIdentifier) }
        return arranged
    }

    /// Follows the context's changes, the container's other contexts' saves, and commits to
    /// its stores from anywhere.
    private func startObserving() {
        refreshes.action = { [weak self] in self?.refresh() }
        let refreshes = self.refreshes
        modelContext.changeListeners[ObjectIdentifier(self)] = { refreshes.request() }
        let container = modelContext.container
        notificationObservers.append(NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { notification in
            guard (notification.object as? ModelContext)?.container === container else { return }
            refreshes.request()
        })
        // Without a watch of the stores' files, the container's own saves still reach the
        // observer through the did-save notifications.
        postsRemoteChanges = (try? container.beginPostingRemoteChanges()) != nil
        if postsRemoteChanges {
            notificationObservers.append(NotificationCenter.default.addObserver(forName: ModelContainer.remoteChange, object: container, queue: nil) { _ in
                refreshes.request()
            })
        }
    }

    /// Fetches the results again and shows them if they changed; a failed fetch leaves them.
    private func refresh() {
        guard let models = try? modelContext.fetch(descriptor) else { return }
        show(models)
    }

    /// Shows the models fetched, unless they are the ones shown already: their changes reach
    /// observers through the models themselves.
    private func show(_ models: [Element]) {
        let identities = models.map(ObjectIdentifier.init)
        guard identities != resultIdentities else { return }
        resultIdentities = identities
        results = FetchResultsCollection(models)
        if let sectionTitle { sections = SectionedResults(models, title: sectionTitle) }
    }
}

