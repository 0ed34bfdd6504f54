/// Waits, yielding the caller's actor between looks, until `condition` holds or `timeout` has
/// passed; returns whether it held. For what happens asynchronously (an observer's refresh),
/// never to time anything: the timeout only ends a wait for what never comes, so it is long
/// enough for a machine whose every thread is busy with other tests.
public func eventually(
    timeout: Duration = .seconds(120), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
