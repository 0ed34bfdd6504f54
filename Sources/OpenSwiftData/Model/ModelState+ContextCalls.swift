// The seam between a model and its context: every call from the Model layer up into Context
// goes through this file, and only these. A model with no context (not inserted yet, or its
// context gone) skips them, except a fault, which only a context can resolve.
extension ModelState {
    /// Resolves a relationship fault through the context; `nil` when there is no context.
    func resolveThroughContext(_ fault: RelationshipFault, at index: Int) -> Any?? {
        guard let context else { return nil }
        return .some(context.resolve(fault, of: self, at: index))
    }

    /// Has the context keep the saved value of the property at `index`, for rollback.
    func recordSavedValueInContext(at index: Int) {
        context?.savedValues.record(values[index], at: index, of: self)
    }

    /// Tells the context that one of the model's values changed.
    func reportChangeToContext() {
        context?.modelDidChange(self)
    }

    /// Whether a migration's context exists anywhere in the process; while none does, no model
    /// need ask its context whether it is observed.
    static var anyMigrationRunning: Bool {
        ModelContainer.migratingCount.load(ordering: .relaxed) > 0
    }

    /// Whether the model was read by a migration's context, whose models nothing observes.
    var isReadByMigration: Bool {
        context?.container.isMigrating == true
    }
}
