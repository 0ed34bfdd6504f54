/// One context's weak reference to itself, which each backing data it holds keeps instead of a
/// weak reference of its own.
///
/// Forming a weak reference finds the context's side table and counts the reference there, and
/// letting it go counts it off again: one of each for every model a fetch loads. Retaining this
/// object is an increment in its own header. A model outliving its context reads `nil`, as it
/// would through a weak reference of its own.
final class ContextReference {
    weak var context: ModelContext?
}
