/// A `#Unique` or `#Index` declaration, seen without its generic model type so the schema
/// builder can turn its key paths into property names.
protocol KeyPathConstraint {
    var keyPathGroups: [[AnyKeyPath]] { get }
    var constraintKind: KeyPathConstraintKind { get }
}

enum KeyPathConstraintKind {
    case unique, index
}
