import ThreadLocalOffer

/// Hands the backing data of a model a context is loading to that model's own initial value of
/// `_$backingData`, so loading a row does not build backing data only to replace it.
///
/// A loaded model is created with `init(backingData:)`, but Swift first runs the initial value
/// `@Model` gives `_$backingData`, `createBackingData()`. While ``loading(_:_:)`` runs, that call
/// takes the loaded row's backing data instead of making a new one. The offer is per thread (a
/// C thread-local pointer), so contexts on other threads never see it; the DocC article
/// Internals gives its invariants.
enum BackingDataHandoff {
    /// Runs `create` (which calls `init(backingData: state)`) with `state` offered to the
    /// first `createBackingData()` of its model type.
    static func loading<R>(_ state: ModelState, _ create: () -> R) -> R {
        osd_set_thread_local_offer(Unmanaged.passUnretained(state).toOpaque())
        defer { osd_set_thread_local_offer(nil) }
        return create()
    }

    /// The backing data on offer, taken, when it is of type `S`.
    static func take<S: ModelState>(_: S.Type) -> S? {
        guard let offered = osd_thread_local_offer_value() else { return nil }
        let state = Unmanaged<ModelState>.fromOpaque(offered).takeUnretainedValue()
        // The class compared first: a cast through the runtime costs more than the rest of
        // the handoff.
        let taken = ObjectIdentifier(type(of: state)) == ObjectIdentifier(S.self) ? unsafeDowncast(state, to: S.self) : state as? S
        guard let taken else { return nil }
        osd_set_thread_local_offer(nil)
        return taken
    }
}
