// What the members `@Model` generates for a subclass of a `@Model` class call. Public for the
// generated code only, as `BackingData` is.

/// Moves the values a subclass's initial values put in its own backing data (`own`, made when
/// the subclass's stored properties were, before `super.init`) into the model's backing data,
/// which takes the layout of the model's class. Called once, by the first read of the
/// subclass's `persistentBackingData`.
public func _moveSubclassInitialValues<Subclass: PersistentModel, Root: PersistentModel>(
    _ own: any BackingData<Subclass>, into backingData: any BackingData<Root>, of model: Subclass
) {
    guard let state = backingData as AnyObject as? ModelState else { return }
    let values = own as AnyObject as? ModelState
    state.moveSubclassValues(of: type(of: model), from: values ?? state)
}

/// The value of the `let` property at `key` of a subclass in `backingData`, its root class's
/// (whose `getValue(forKey:)` takes the root's key paths): what the subclass's
/// `init(backingData:)` sets it to.
public func _subclassValue<Subclass: PersistentModel, Root: PersistentModel, Value>(
    forKey key: KeyPath<Subclass, Value>, in backingData: any BackingData<Root>
) -> Value {
    guard let state = backingData as AnyObject as? ModelState, let index = state.layout.index(of: key) else {
        fatalError("\(Subclass.self) was created over backing data OpenSwiftData did not make")
    }
    return state.value(at: index)
}
