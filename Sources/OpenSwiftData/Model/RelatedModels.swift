/// Conversions between a relationship property's value, held as `Any` in backing data, and the
/// models it holds.
enum RelatedModels {
    /// The models a to-one (`M`, `M?`) or to-many (`[M]`, `[M]?`) value holds.
    static func models(in value: Any?) -> [any PersistentModel] {
        guard let value else { return [] }
        if let optional = value as? any OptionalProtocol {
            return models(in: optional.wrappedValue)
        }
        if let model = value as? any PersistentModel { return [model] }
        if let array = value as? [any PersistentModel] { return array }
        return []
    }

    /// A to-many value of the property's type holding `models`.
    static func toManyValue(_ models: [any PersistentModel], of destination: any PersistentModel.Type) -> Any {
        destination.typedArray(models)
    }
}

extension PersistentModel {
    /// `models` as an array of this model type, boxed.
    static func typedArray(_ models: [any PersistentModel]) -> Any {
        models.map { $0 as! Self }
    }
}
