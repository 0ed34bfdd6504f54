/// What ``ModelContext/model(for:)`` returns for an identifier whose entity no model class of
/// the process has: a model with no properties that belongs to no context. Casting it to the
/// class the caller expected fails, where SwiftData would trap.
@Model
final class UnresolvedModel {
    init() {}
}
