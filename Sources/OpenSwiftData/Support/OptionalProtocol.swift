/// Lets code that holds a value or a type as `Any` see through `Optional`.
protocol OptionalProtocol {
    /// The type `Wrapped` of `Optional<Wrapped>`.
    static var wrappedType: Any.Type { get }
    /// `Optional<Wrapped>.none`, boxed.
    static var noneValue: Any { get }
    /// The wrapped value, or `nil`, boxed.
    var wrappedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noneValue: Any { Optional<Wrapped>.none as Any }
    var wrappedValue: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
