/// A model's persisted values in declaration order, each slot holding its property's declared
/// type (``ValueSlots``), in one allocation.
///
/// Read and written as `Any` by index, as an array of them would be, with ``ModelState/noValue``
/// standing for a slot that holds no value; ``value(at:as:)`` reads a slot as its own type
/// without boxing it. A value type: copies share the storage until one of them changes.
package struct ModelValues {
    /// `nil` until room is made (``isEmpty``).
    private var storage: Storage?

    /// No room for values yet.
    init() {}

    /// Room for a value of every property `slots` lays out, none of them set.
    init(_ slots: ValueSlots) {
        storage = Storage.make(slots)
    }

    /// Whether there is no room for values yet.
    var isEmpty: Bool { storage == nil }

    /// The slots the values were made for; `nil` before room is made.
    var valueSlots: ValueSlots? { storage?.header.layout }

    var indices: Range<Int> { 0..<(storage?.slots.count ?? 0) }

    /// Whether the slot at `index` holds a value.
    func holdsValue(at index: Int) -> Bool {
        storage.unsafelyUnwrapped.isPresent(index)
    }

    /// The slot at `index` when it holds a value of exactly `type`, to be read as that type
    /// without boxing; `nil` otherwise (no value, or a slot that keeps an `Any`). A raw pointer:
    /// an optional of a generic type would have its metadata looked up in the runtime each time.
    func slot(at index: Int, holding type: Any.Type) -> UnsafeMutableRawPointer? {
        let storage = storage.unsafelyUnwrapped
        let slot = storage.slots[index]
        guard slot.type == type, storage.isPresent(index) else { return nil }
        return storage.slot(at: slot.offset)
    }

    /// Puts `value` in the slot at `index`: as it is when the slot holds a `Value`, boxed
    /// otherwise. `value` is a property's value (never ``ModelState/noValue``).
    mutating func set<Value>(_ value: consuming Value, at index: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.unsafelyUnwrapped.copy() }
        let storage = storage.unsafelyUnwrapped
        let slot = storage.slots[index]
        if slot.type == Value.self, Value.self != Any.self {
            storage.store(value, at: index, offset: slot.offset)
        } else {
            storage.set(value, at: index)
        }
    }

    /// Puts `value` in the empty slot at `index`, which holds a `Value` `offset` bytes in, of
    /// values just made: no copy shares their storage, so it is not checked for one.
    func initializeUnshared<Value>(_ value: consuming Value, at index: Int, offset: Int) {
        storage.unsafelyUnwrapped.store(value, at: index, offset: offset)
    }

    /// The slot at `index`: its value boxed, or ``ModelState/noValue``.
    package subscript(index: Int) -> Any {
        get {
            let storage = storage.unsafelyUnwrapped
            guard storage.isPresent(index) else { return ModelState.noValue }
            let slot = storage.slots[index]
            return slot.kind.load(storage.slot(at: slot.offset))
        }
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.unsafelyUnwrapped.copy() }
            storage.unsafelyUnwrapped.set(newValue, at: index)
        }
    }
}

extension ModelValues {
    /// The slots' storage: a header naming their layout, then words of bits saying which slots
    /// hold a value, then the slots. Reached through pointers only: a stored property of the
    /// header would be read and written through the runtime's exclusivity checks, two calls
    /// per access, for every value a fetch stores.
    final class Storage: ManagedBuffer<Storage.Header, UInt64> {
        struct Header {
            // The value slots (a `ValueSlots`, not a `ModelLayout`) live as long as the process
            // (`ModelLayout.of` keeps every model layout, which keeps its value slots), so the
            // storage does not retain them.
            unowned(unsafe) let layout: ValueSlots
            /// `layout.slots`, kept here so finding a value's slot does not go through the
            /// layout object.
            let slots: UnsafeMutableBufferPointer<ValueSlots.Slot>
        }

        static func make(_ layout: ValueSlots) -> Storage {
            let header = Header(layout: layout, slots: layout.slots)
            let storage = unsafeDowncast(create(minimumCapacity: layout.words) { _ in header }, to: Storage.self)
            storage.words.initialize(repeating: 0, count: layout.presenceWords)
            return storage
        }

        /// The slots' layout.
        var layout: ValueSlots {
            withUnsafeMutablePointerToHeader { $0.pointee.layout }
        }

        var slots: UnsafeMutableBufferPointer<ValueSlots.Slot> {
            withUnsafeMutablePointerToHeader { $0.pointee.slots }
        }

        private var words: UnsafeMutablePointer<UInt64> {
            withUnsafeMutablePointerToElements { $0 }
        }

        /// Whether the slot at `index` holds a value.
        func isPresent(_ index: Int) -> Bool {
            words[index >> 6] & (1 << UInt64(index & 63)) != 0
        }

        /// The slot at `offset` bytes into the storage.
        func slot(at offset: Int) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(words) + offset
        }

        /// Puts `value` in the slot at `index`, destroying what it held; ``ModelState/noValue``
        /// empties it.
        func set(_ value: consuming Any, at index: Int) {
            let slot = slots[index]
            let pointer = self.slot(at: slot.offset)
            let bit: UInt64 = 1 << UInt64(index & 63)
            if words[index >> 6] & bit != 0 {
                slot.kind.destroy(pointer)
                words[index >> 6] &= ~bit
            }
            guard ModelState.holdsValue(value) else { return }
            slot.kind.initialize(pointer, with: value)
            words[index >> 6] |= bit
        }

        /// Puts `value` in the slot at `index`, which holds a `Value` `offset` bytes in.
        func store<Value>(_ value: consuming Value, at index: Int, offset: Int) {
            let pointer = slot(at: offset).assumingMemoryBound(to: Value.self)
            let bit: UInt64 = 1 << UInt64(index & 63)
            if words[index >> 6] & bit != 0 {
                pointer.pointee = value
            } else {
                pointer.initialize(to: value)
                words[index >> 6] |= bit
            }
        }

        /// A new storage holding copies of these values.
        func copy() -> Storage {
            let layout = layout
            let copy = Storage.make(layout)
            for (index, slot) in slots.enumerated() where isPresent(index) {
                slot.kind.copy(from: self.slot(at: slot.offset), to: copy.slot(at: slot.offset))
            }
            copy.words.update(from: words, count: layout.presenceWords)
            return copy
        }

        deinit {
            guard !layout.isTrivial else { return }
            for (index, slot) in slots.enumerated() where isPresent(index) && !slot.isTrivial {
                slot.kind.destroy(self.slot(at: slot.offset))
            }
        }
    }
}
