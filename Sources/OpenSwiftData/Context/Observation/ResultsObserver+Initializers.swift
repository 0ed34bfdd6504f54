import Foundation

// The observers without sections.
extension ResultsObserver where SectionTitle == Never {
    /// An observer of the models a descriptor selects in a context.
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(descriptor: fetchDescriptor, sectionBy: nil, sectionTitle: nil, sectionOrder: nil, modelContext: modelContext, isolation: isolation)
    }

    /// An observer of the models a descriptor selects, through a new context of the container.
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: nil, sectionTitle: nil, sectionOrder: nil, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// An observer of the models matching a predicate in a context, in an order.
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: nil, sectionTitle: nil, sectionOrder: nil,
            modelContext: modelContext, isolation: isolation)
    }

    /// An observer of the models matching a predicate, in an order, through a new context of the
    /// container.
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order.
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: nil, sectionTitle: nil, sectionOrder: nil,
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

// The observers with sections, titled by a string attribute (an optional one's `nil` titles
// the section "").
extension ResultsObserver where SectionTitle == String {
    /// An observer of the models a descriptor selects in a context, in sections by a string.
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - sectionBy: The attribute whose value titles a model's section; the results are
    ///     sorted by it first.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] }, sectionOrder: SortDescriptor(Self.sendable(sectionBy)),
            modelContext: modelContext, isolation: isolation)
    }

    /// An observer of the models a descriptor selects in a context, in sections by an optional
    /// string (models with `nil` in the section titled "").
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - sectionBy: The attribute whose value titles a model's section; the results are
    ///     sorted by it first.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            sectionOrder: SortDescriptor(Self.sendable(sectionBy)), modelContext: modelContext, isolation: isolation)
    }

    /// An observer of the models a descriptor selects, in sections by a string, through a new
    /// context of the container.
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - sectionBy: The attribute whose value titles a model's section.
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] }, sectionOrder: SortDescriptor(Self.sendable(sectionBy)),
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// An observer of the models a descriptor selects, in sections by an optional string,
    /// through a new context of the container.
    ///
    /// - Parameters:
    ///   - fetchDescriptor: What to fetch.
    ///   - sectionBy: The attribute whose value titles a model's section ("" for `nil`).
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            descriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            sectionOrder: SortDescriptor(Self.sendable(sectionBy)), modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// An observer of the models matching a predicate in a context, in sections by a string.
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order within the sections.
    ///   - sectionBy: The attribute whose value titles a model's section.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy, modelContext: modelContext)
    }

    /// An observer of the models matching a predicate in a context, in sections by an optional
    /// string ("" for `nil`).
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order within the sections.
    ///   - sectionBy: The attribute whose value titles a model's section.
    ///   - modelContext: The context to fetch from and follow.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String?>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy, modelContext: modelContext)
    }

    /// An observer of the models matching a predicate, in sections by a string, through a new
    /// context of the container.
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order within the sections.
    ///   - sectionBy: The attribute whose value titles a model's section.
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy, modelContainer: modelContainer)
    }

    /// An observer of the models matching a predicate, in sections by an optional string ("" for
    /// `nil`), through a new context of the container.
    ///
    /// - Parameters:
    ///   - filterBy: The predicate; `nil` for every model.
    ///   - sortBy: The order within the sections.
    ///   - sectionBy: The attribute whose value titles a model's section.
    ///   - modelContainer: The container to make the observer's context from.
    ///   - isolation: The actor the results are fetched again on: the caller's.
    /// - Throws: The first fetch's error.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String?>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy, modelContainer: modelContainer)
    }
}

extension ResultsObserver {
    /// A model's key path to an attribute, which captures nothing, as the `Sendable` key path a
    /// sort descriptor takes.
    static func sendable<Value>(_ keyPath: KeyPath<Element, Value>) -> any KeyPath<Element, Value> & Sendable {
        unsafeBitCast(keyPath, to: (any KeyPath<Element, Value> & Sendable).self)
    }
}
