#if !canImport(Darwin)
import Foundation

/// Converts a value to another representation and back, for attributes declared
/// `@Attribute(.transformable(by:))`.
///
/// Foundation has this class on Apple platforms only; OpenSwiftData declares it elsewhere so
/// that models naming a transformer compile unchanged.
open class ValueTransformer {
    public init() {}

    /// The class of values `transformedValue(_:)` returns.
    open class func transformedValueClass() -> AnyClass { ValueTransformer.self }

    /// Whether `reverseTransformedValue(_:)` is supported.
    open class func allowsReverseTransformation() -> Bool { false }

    /// The stored representation of `value`.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The value a stored representation stands for.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }
}
#endif
