/// `value` as a `T`.
///
/// A model's values are kept as `Any`, and the value in a slot is almost always exactly of the
/// type its property declares. For that case this compares two type pointers and copies the
/// value out, where `as!` goes through the runtime's general cast. Anything else (an optional's wrapped value, a subclass) takes `as!`, which traps
/// like any forced cast when `value` cannot be a `T`.
@inline(__always)
func unbox<T>(_ value: Any, as _: T.Type) -> T {
    func project<Held>(_ held: Held) -> T {
        if Held.self == T.self { return unsafeBitCast(held, to: T.self) }
        return held as! T
    }
    return project(value)
}
