#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Darwin
#endif

/// Hands the backing data of a model a context is loading to that model's own initial value of
/// `_$backingData`, so loading a row does not build backing data only to replace it.
///
/// A loaded model is created with `init(backingData:)`, but Swift first runs the initial value
/// `@Model` gives `_$backingData`, `createBackingData()`. While ``loading(_:_:)`` runs, that call
/// takes the loaded row's backing data instead of making a new one. The offer is per thread, so
/// contexts on other threads never see it; the DocC article Internals gives its invariants.
enum BackingDataHandoff {
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `create` (which calls `init(backingData: state)`) with `state` offered to the
    /// first `createBackingData()` of its model type.
    static func loading<R>(_ state: ModelState, _ create: () -> R) -> R {
        pthread_setspecific(slot, Unmanaged.passUnretained(state).toOpaque())
        defer { pthread_setspecific(slot, nil) }
        return create()
    }

    /// The backing data on offer, taken, when it is of type `S`.
    static func take<S: ModelState>(_: S.Type) -> S? {
        guard let offered = pthread_getspecific(slot),
              let state = Unmanaged<ModelState>.fromOpaque(offered).takeUnretainedValue() as? S
        else { return nil }
        pthread_setspecific(slot, nil)
        return state
    }
}
