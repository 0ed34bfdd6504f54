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
/// `@Model` gives `_$backingData`, `createBackingData()`. While ``loading(_:observable:_:)``
/// runs, that call takes the loaded row's backing data instead of making a new one. The slots
/// are per thread, so contexts on other threads never see them.
enum BackingDataHandoff {
    private static let slot = makeSlot()
    /// Set while a model nothing can observe is being loaded; see ``isLoadingUnobservedModel``.
    private static let unobservedSlot = makeSlot()

    private static func makeSlot() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }

    /// Runs `create` (which calls `init(backingData: state)`) with `state` offered to the
    /// first `createBackingData()` of its model type. With `observable` false (a migration's
    /// models) the model shares one observation registrar instead of making its own.
    static func loading<R>(_ state: ModelState, observable: Bool, _ create: () -> R) -> R {
        pthread_setspecific(slot, Unmanaged.passUnretained(state).toOpaque())
        if !observable { pthread_setspecific(unobservedSlot, Unmanaged.passUnretained(state).toOpaque()) }
        defer {
            pthread_setspecific(slot, nil)
            if !observable { pthread_setspecific(unobservedSlot, nil) }
        }
        return create()
    }

    /// Whether the model whose registrar is being initialized is one no one can observe: a
    /// migration runs inside the container's opening, before any view or observer exists.
    static var isLoadingUnobservedModel: Bool {
        pthread_getspecific(unobservedSlot) != nil
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
