#if !canImport(Darwin)
import Foundation

/// Converts a value to another representation and back, for attributes declared
/// `@Attribute(.transformable(by:))`.
///
/// Foundation has this class on Apple platforms only; OpenSwiftData declares it elsewhere so
/// that models naming a transformer compile unchanged.
open class ValueTransformer {
    /// A transformer that passes values through unchanged; subclasses transform them.
    public init() {}

    /// The class of values `transformedValue(_:)` returns.
    ///
    /// - Returns: `ValueTransformer` here; a subclass returns the class of its values.
    open class func transformedValueClass() -> AnyClass { ValueTransformer.self }

    /// Whether `reverseTransformedValue(_:)` is supported.
    ///
    /// - Returns: `false` here; a subclass that reverses its transformation returns `true`.
    open class func allowsReverseTransformation() -> Bool { false }

    /// The stored representation of `value`.
    ///
    /// - Parameter value: The value to transform.
    /// - Returns: `value` itself here; a subclass returns the stored representation.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The value a stored representation stands for.
    ///
    /// - Parameter value: A stored representation.
    /// - Returns: `value` itself here; a subclass returns the value it stands for.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }
}
#endif
