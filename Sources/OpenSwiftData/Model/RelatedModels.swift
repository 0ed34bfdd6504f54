/// Conversions between a relationship property's value, held as `Any` in backing data, and the
/// models it holds.
enum RelatedModels {
    /// The models a to-one (`M`, `M?`) or to-many (`[M]`, `[M]?`) value of a relationship to
    /// `destination` holds.
    static func models(in value: Any?, of destination: any PersistentModel.Type) -> [any PersistentModel] {
        guard let value else { return [] }
        return destination.relatedModels(in: value)
    }

    /// A to-many value of the property's type holding `models`.
    static func toManyValue(_ models: [any PersistentModel], of destination: any PersistentModel.Type) -> Any {
        destination.typedArray(models)
    }
}

extension PersistentModel {
    /// The models a relationship value of this model type holds.
    ///
    /// The value is almost always of exactly the type its property declares, so it is recognized
    /// by comparing type pointers. The runtime's general cast, the fallback, costs far more on
    /// Linux: casting a model to a protocol it does not conform to first tries unboxing it from
    /// Foundation's value box, and casting an array to `[any PersistentModel]` tries bridging it
    /// to an `NSArray`. Linking each of a school's students into its to-many relationship paid
    /// that for every member.
    static func relatedModels(in value: Any) -> [any PersistentModel] {
        func project<Held>(_ held: Held) -> [any PersistentModel] {
            if Held.self == Self.self { return [unsafeBitCast(held, to: Self.self)] }
            if Held.self == Optional<Self>.self { return unsafeBitCast(held, to: Optional<Self>.self).map { [$0] } ?? [] }
            if Held.self == [Self].self { return unsafeBitCast(held, to: [Self].self).map { $0 } }
            if Held.self == Optional<[Self]>.self { return unsafeBitCast(held, to: Optional<[Self]>.self)?.map { $0 } ?? [] }
            if let model = held as? Self { return [model] }
            if let models = held as? [Self] { return models.map { $0 } }
            return []
        }
        return project(value)
    }

    /// `models` as an array of this model type, boxed.
    static func typedArray(_ models: [any PersistentModel]) -> Any {
        models.map { $0 as! Self }
    }
}
