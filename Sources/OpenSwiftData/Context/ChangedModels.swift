/// The saved models of a context that have unsaved changes, in the order they first changed.
///
/// Each model's position here is kept in its backing data (``ModelState/changedPosition``),
/// so adding, removing and asking need no hashing. The invariant that makes this work: a
/// backing data is in at most one context's set, the one it is registered with, and its
/// `changedPosition` is its index here or -1.
struct ChangedModels {
    /// The changed states. Removing one moves the last into its place, so after removals the
    /// order is only mostly the order of the first changes.
    private(set) var states = ContiguousArray<ModelState>()

    var isEmpty: Bool { states.isEmpty }
    var count: Int { states.count }

    func contains(_ state: ModelState) -> Bool {
        let position = Int(state.changedPosition)
        return position >= 0 && position < states.count && states[position] === state
    }

    mutating func insert(_ state: ModelState) {
        guard !contains(state) else { return }
        state.changedPosition = Int32(states.count)
        states.append(state)
    }

    mutating func remove(_ state: ModelState) {
        guard contains(state) else { return }
        let position = Int(state.changedPosition)
        let last = states.removeLast()
        if last !== state {
            states[position] = last
            last.changedPosition = Int32(position)
        }
        state.changedPosition = -1
    }

    mutating func removeAll() {
        for state in states { state.changedPosition = -1 }
        states.removeAll()
    }
}
