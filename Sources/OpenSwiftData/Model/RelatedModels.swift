/// Conversions between a relationship property's value, held as `Any` in backing data, and the
/// models it holds.
enum RelatedModels {
    /// The models a to-one (`M`, `M?`) or to-many (`[M]`, `[M]?`) value of a relationship holds.
    static func models(in value: Any?, heldAs types: RelatedValueTypes) -> [any PersistentModel] {
        guard let value else { return [] }
        return types.destination.relatedModels(in: value, heldAs: types)
    }

    /// A to-many value of the property's type holding `models`.
    static func toManyValue(_ models: [any PersistentModel], of destination: any PersistentModel.Type) -> Any {
        destination.typedArray(models)
    }

    /// Whether a relationship value holds `model`: a scan of its references, making no array.
    static func holds(_ model: any PersistentModel, in value: Any?, heldAs types: RelatedValueTypes) -> Bool {
        guard let value else { return false }
        return types.destination.holds(model, in: value, heldAs: types)
    }

    /// Adds `models` to a to-many value (none yet counts as empty), in place: an array that
    /// only the value holds grows without being copied, so a relationship built one member at
    /// a time does not copy its members at each step.
    static func append(_ models: [any PersistentModel], to value: inout Any?, heldAs types: RelatedValueTypes) {
        types.destination.append(models, to: &value, heldAs: types)
    }

    /// Takes `model` out of a to-many value, in place.
    static func remove(_ model: any PersistentModel, from value: inout Any?, heldAs types: RelatedValueTypes) {
        types.destination.remove(model, from: &value, heldAs: types)
    }
}

/// The types a relationship value to one model type is held as: the model, `M?`, `[M]` and
/// `[M]?`. Worked out once per property, since naming `[M]` where `M` is only known at run time
/// looks it up in the runtime's generic metadata cache, which costs more than reading the value.
struct RelatedValueTypes {
    let destination: any PersistentModel.Type
    let optional: Any.Type
    let array: Any.Type
    let optionalArray: Any.Type
}

extension PersistentModel {
    static var relatedValueTypes: RelatedValueTypes {
        RelatedValueTypes(destination: Self.self, optional: Self?.self, array: [Self].self, optionalArray: [Self]?.self)
    }

    /// The models a relationship value of this model type holds.
    ///
    /// The value is almost always of exactly the type its property declares, so it is recognized
    /// by comparing type pointers, and its references are read as `AnyObject`s. The runtime's
    /// general cast, the fallback, costs far more on Linux: casting a model to a protocol it does
    /// not conform to first tries unboxing it from Foundation's value box, and casting an array
    /// to `[any PersistentModel]` tries bridging it to an `NSArray`. Linking each of a school's
    /// students into its to-many relationship paid that for every member.
    static func relatedModels(in value: Any, heldAs types: RelatedValueTypes) -> [any PersistentModel] {
        func model(_ object: AnyObject) -> any PersistentModel { unsafeDowncast(object, to: Self.self) }
        func project<Held>(_ held: Held) -> [any PersistentModel] {
            let type = ObjectIdentifier(Held.self)
            if type == ObjectIdentifier(Self.self) {
                return [withUnsafePointer(to: held) { $0.withMemoryRebound(to: Self.self, capacity: 1) { $0.pointee } }]
            }
            if type == ObjectIdentifier(types.optional) { return unsafeBitCast(held, to: AnyObject?.self).map { [model($0)] } ?? [] }
            if type == ObjectIdentifier(types.array) { return unsafeBitCast(held, to: [AnyObject].self).map(model) }
            if type == ObjectIdentifier(types.optionalArray) { return unsafeBitCast(held, to: [AnyObject]?.self)?.map(model) ?? [] }
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

    /// Whether a relationship value of this model type holds `model`, compared by reference.
    static func holds(_ model: any PersistentModel, in value: Any, heldAs types: RelatedValueTypes) -> Bool {
        let address = UInt(bitPattern: ObjectIdentifier(model))
        func project<Held>(_ held: Held) -> Bool {
            let type = ObjectIdentifier(Held.self)
            if type == ObjectIdentifier(types.array) { return contains(address, in: unsafeBitCast(held, to: [AnyObject].self)) }
            if type == ObjectIdentifier(types.optionalArray) {
                return unsafeBitCast(held, to: [AnyObject]?.self).map { contains(address, in: $0) } ?? false
            }
            return relatedModels(in: held, heldAs: types).contains { $0 === model }
        }
        return project(value)
    }

    /// Whether `members` holds the object at `address`. Linking each new member into a to-many
    /// relationship scans it, so the scan compares plain addresses, eight to a group with one
    /// test per group, rather than references one by one.
    private static func contains(_ address: UInt, in members: [AnyObject]) -> Bool {
        members.withUnsafeBufferPointer { buffer in
            UnsafeRawBufferPointer(buffer).withMemoryRebound(to: UInt.self) { addresses in
                var start = 0
                while start + 8 <= addresses.count {
                    var found = false
                    for offset in start..<start + 8 { found = found || addresses[offset] == address }
                    if found { return true }
                    start += 8
                }
                return addresses[start...].contains(address)
            }
        }
    }

    /// Adds `models` to a to-many value of this model type, in place (see
    /// ``RelatedModels/append(_:to:heldAs:)``). The value's own reference to its array is
    /// dropped before the append, so an array nothing else holds is not copied.
    static func append(_ models: [any PersistentModel], to value: inout Any?, heldAs types: RelatedValueTypes) {
        var members = takeMembers(of: &value, heldAs: types)
        for model in models { members.append(unsafeDowncast(model, to: Self.self)) }
        value = members
    }

    /// Takes `model` out of a to-many value of this model type, in place.
    static func remove(_ model: any PersistentModel, from value: inout Any?, heldAs types: RelatedValueTypes) {
        var members = takeMembers(of: &value, heldAs: types)
        members.removeAll { $0 === model }
        value = members
    }

    /// The members of a to-many value of this model type, the value left empty.
    private static func takeMembers(of value: inout Any?, heldAs types: RelatedValueTypes) -> [Self] {
        func project<Held>(_ held: Held) -> [Self] {
            let type = ObjectIdentifier(Held.self)
            if type == ObjectIdentifier(types.array) { return unsafeBitCast(held, to: [Self].self) }
            if type == ObjectIdentifier(types.optionalArray) { return unsafeBitCast(held, to: [Self]?.self) ?? [] }
            return relatedModels(in: held, heldAs: types).map { unsafeDowncast($0, to: Self.self) }
        }
        guard let held = value else { return [] }
        value = nil
        return project(held)
    }
}
