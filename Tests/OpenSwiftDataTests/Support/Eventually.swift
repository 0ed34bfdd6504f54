/// Waits, yielding the caller's actor between looks, until `condition` holds or `timeout` has
/// passed; returns whether it held. For what happens asynchronously (an observer's refresh),
/// never to time anything.
func eventually(
    timeout: Duration = .seconds(10), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
