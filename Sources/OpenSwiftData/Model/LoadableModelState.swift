/// Backing data a context can create a model over, for a row it loads, without knowing the
/// model's type at compile time.
///
/// ``ModelLayout`` keeps the concrete type (`DefaultBackingData<M>`) as `any
/// LoadableModelState.Type`, so loading a row allocates straight from that metatype instead of
/// looking up the generic class's metadata for every row.
protocol LoadableModelState: ModelState {
    init(layout: ModelLayout, values: ModelValues)

    /// Creates the model over these values, as a context does for a row it loads.
    func makeModel() -> any PersistentModel
}
