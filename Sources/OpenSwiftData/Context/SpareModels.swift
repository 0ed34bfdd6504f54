/// Models a migration's transform is done with, kept to stand for rows of its later batches
/// (the DocC article Internals, "A migration's transform", says why).
///
/// Only a model that is unchanged after its batch's save, that nothing but the transform
/// holds, and whose class stores nothing besides what `@Model` generates for its persisted
/// properties may be kept: such a model is no different from a new model given another row.
/// A class with a `@Transient` property never has spares.
struct SpareModels {
    private struct Spare {
        let state: ModelState
        let model: any PersistentModel
    }

    // `ContiguousArray()`, not `[]`: the literal looks the array's storage class up in the
    // runtime's generic metadata cache, under a lock, each time.
    private var spares = ContiguousArray<Spare>()
    /// Whether models of the class may be kept, found out from the first one offered.
    private var classAllowsReuse: Bool?

    /// A spare model of `layout`'s class and its backing data, out of its context's registry
    /// and without a row; `nil` when there is none.
    mutating func take(for layout: ModelLayout) -> (state: ModelState, model: any PersistentModel)? {
        guard let spare = spares.last, spare.state.layout === layout else { return nil }
        spares.removeLast()
        return (spare.state, spare.model)
    }

    /// Keeps `model`, whose backing data `state` its context has just let go of, when nothing
    /// else holds it and its class allows it; `false` when it is not kept.
    mutating func keep<T: PersistentModel>(_ model: inout T, state: ModelState) -> Bool {
        if classAllowsReuse == nil { classAllowsReuse = Self.storesOnlyPersistedProperties(model, layout: state.layout) }
        guard classAllowsReuse == true, isKnownUniquelyReferenced(&model) else { return false }
        spares.append(Spare(state: state, model: model))
        return true
    }

    /// Whether every stored property of `model`'s class, superclasses included, is one `@Model`
    /// generates: the backing data, the observation registrar, and a placeholder per persisted
    /// property. Found by reflection, once per transform and class.
    private static func storesOnlyPersistedProperties(_ model: any PersistentModel, layout: ModelLayout) -> Bool {
        let generated = Set(["_$backingData", "_$observationRegistrar"] + layout.properties.map { "_" + $0.name })
        var mirror: Mirror? = Mirror(reflecting: model)
        while let current = mirror {
            if current.children.contains(where: { !generated.contains($0.label ?? "") }) { return false }
            mirror = current.superclassMirror
        }
        return true
    }
}
