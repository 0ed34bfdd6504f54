/// Where each of a model's values sits in its ``ModelValues``: one value slot per property,
/// worked out once per model class (the DocC article Internals, "A model's values").
///
/// A typed slot holds exactly its property's declared type; relationships, externally stored
/// and optional attributes, and types a typed slot cannot hold keep an `Any`.
final class ValueSlots: @unchecked Sendable {
    /// One slot. Plain data (its kind is a metatype), so reading one retains nothing.
    struct Slot {
        /// Bytes from the start of the storage.
        let offset: Int
        /// The type the slot holds (its kind's), kept here for the typed read's comparison.
        let type: Any.Type
        let kind: any SlotKind.Type
        /// The kind's `isTrivial`, read without a call.
        let isTrivial: Bool
    }

    /// The slots in declaration order, read by pointer: an array's elements are reached through
    /// its buffer, retained and released around each read.
    let slots: UnsafeMutableBufferPointer<Slot>
    /// The words of bits, one bit a slot, that start the storage and say which slots hold a
    /// value; the slots follow them.
    let presenceWords: Int
    /// The storage every model's values need, in 8-byte words.
    let words: Int
    /// Whether no slot holds a value that needs destroying, so letting the values go is
    /// freeing their storage and nothing more.
    let isTrivial: Bool

    init(_ properties: [ModelLayout.Property]) {
        var slots: [Slot] = []
        presenceWords = (properties.count + 63) / 64
        var end = presenceWords * 8
        for property in properties {
            // An optional attribute keeps an `Any` too: the runtime destroys an `Optional` of a
            // type it knows only at run time through a generic witness that looks its metadata
            // up, and a value read from the store comes unwrapped.
            let keepsAny = property.isRelationship || property.isExternallyStored || property.codec == nil || property.isOptional
            var kind: any SlotKind.Type = keepsAny ? AnySlotKind.self : Self.kind(holding: property.valueType)
            // Storage is 8-byte aligned; a type that asks for more (a SIMD vector) is boxed.
            if kind.alignment > 8 { kind = AnySlotKind.self }
            let offset = (end + kind.alignment - 1) / kind.alignment * kind.alignment
            slots.append(Slot(offset: offset, type: kind.type, kind: kind, isTrivial: kind.isTrivial))
            end = offset + kind.size
        }
        self.slots = .allocate(capacity: slots.count)
        _ = self.slots.initialize(from: slots)
        words = (end + 7) / 8
        isTrivial = slots.allSatisfy(\.isTrivial)
    }

    deinit {
        slots.deallocate()
    }

    private static func kind<Value>(holding _: Value.Type) -> any SlotKind.Type {
        TypedSlotKind<Value>.self
    }

}

/// How the values of one type are put into a slot, read from it and destroyed, for code that
/// does not know the type at compile time. Used as a metatype: nothing is made of it, and a
/// slot holds the kind without reference counting.
protocol SlotKind {
    /// The type the slot holds.
    static var type: Any.Type { get }
    static var size: Int { get }
    static var alignment: Int { get }
    /// Copying the value is copying its bytes, and destroying it is nothing.
    static var isTrivial: Bool { get }

    /// Initializes the uninitialized slot at `slot` with `value`.
    static func initialize(_ slot: UnsafeMutableRawPointer, with value: consuming Any)
    /// A copy of the value in the slot at `slot`, boxed.
    static func load(_ slot: UnsafeRawPointer) -> Any
    /// Initializes the uninitialized slot at `target` with a copy of the value at `source`.
    static func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer)
    /// Destroys the value in the slot at `slot`, leaving it uninitialized.
    static func destroy(_ slot: UnsafeMutableRawPointer)
}

/// Slots holding a `Value`.
enum TypedSlotKind<Value>: SlotKind {
    static var type: Any.Type { Value.self }
    static var size: Int { MemoryLayout<Value>.size }
    static var alignment: Int { MemoryLayout<Value>.alignment }
    static var isTrivial: Bool { _isPOD(Value.self) }

    static func initialize(_ slot: UnsafeMutableRawPointer, with value: consuming Any) {
        slot.initializeMemory(as: Value.self, to: unbox(value, as: Value.self))
    }

    static func load(_ slot: UnsafeRawPointer) -> Any {
        slot.assumingMemoryBound(to: Value.self).pointee
    }

    static func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        target.initializeMemory(as: Value.self, to: source.assumingMemoryBound(to: Value.self).pointee)
    }

    static func destroy(_ slot: UnsafeMutableRawPointer) {
        _ = slot.assumingMemoryBound(to: Value.self).move()
    }
}

/// Slots holding an `Any` as it is: a relationship's value or fault, or an externally stored
/// or optional attribute's. Not `TypedSlotKind<Any>`: its generic code would cast each value to
/// `Any` on the way in and box it in a second `Any` on the way out.
enum AnySlotKind: SlotKind {
    static var type: Any.Type { Any.self }
    static var size: Int { MemoryLayout<Any>.size }
    static var alignment: Int { MemoryLayout<Any>.alignment }
    static var isTrivial: Bool { false }

    static func initialize(_ slot: UnsafeMutableRawPointer, with value: consuming Any) {
        slot.initializeMemory(as: Any.self, to: value)
    }

    static func load(_ slot: UnsafeRawPointer) -> Any {
        slot.assumingMemoryBound(to: Any.self).pointee
    }

    static func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        target.initializeMemory(as: Any.self, to: source.assumingMemoryBound(to: Any.self).pointee)
    }

    static func destroy(_ slot: UnsafeMutableRawPointer) {
        _ = slot.assumingMemoryBound(to: Any.self).move()
    }
}
