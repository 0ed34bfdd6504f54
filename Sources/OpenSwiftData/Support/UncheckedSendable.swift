/// Carries a value into a closure that runs on the actor the value belongs to, where the
/// compiler cannot see that isolation.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
