/// The value as last saved of each property a context's models changed since, recorded at the
/// property's first change so ``ModelContext/rollback()`` can put it back.
///
/// One list for the context rather than an array per model: a bulk edit or a migration's
/// transform that changes a property of each of a million models records a million entries
/// in one growing allocation instead of making a million small ones.
struct SavedValues {
    private var entries: [(state: ModelState, index: Int, value: Any)] = []

    /// Keeps `value`, a slot of `state`'s values (``ModelState/noValue`` for none).
    mutating func record(_ value: consuming Any, at index: Int, of state: ModelState) {
        entries.append((state, index, value))
    }

    /// Puts every recorded value back into its model, and forgets them.
    mutating func restoreAll() {
        for entry in entries { entry.state.values[entry.index] = entry.value }
        entries.removeAll()
    }

    /// Forgets the values of models a save wrote: those with no unsaved change left.
    mutating func forgetSaved() {
        entries.removeAll { $0.state.changedProperties.isEmpty }
    }

    /// Forgets every value: a save wrote every change.
    mutating func removeAll() {
        entries.removeAll()
    }
}
