/// The points of a sync step where a process may die with one store saved and not the other:
/// tests make the step fail there, and check that what is left is recovered.
enum SyncInterruptionPoint: Sendable {
    /// The app's store has a merge's save; the ledger does not have the merge's outcome.
    case afterSavingModels
}
