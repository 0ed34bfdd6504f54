/// The backing data a context holds for one entity's stored rows, by row key, in the order
/// they were registered: a registry of the context's identity map (the DocC article
/// Internals says why it is not a `Dictionary`).
///
/// Entries sit in an array in registration order; the hash table (open addressing, linear
/// probing) holds their positions. A context going away lets go of its models in that order.
///
/// A key's home slot is the key itself, modulo the table's size, while that keeps every probe
/// short: row keys mostly come in sequence, and then each row's slot is next to the last one's,
/// where scattered slots made every registration of a large fetch a cache miss. Keys that
/// collide (a stride that is a multiple of the table's size) make a probe long; the first probe
/// longer than ``longestUnscrambledProbe`` switches the registry to scrambled homes for good
/// (the key multiplied by 2⁶⁴/φ, Fibonacci hashing) and rebuilds the table.
struct RowRegistry {
    private struct Entry {
        var rowID: Int64
        /// `nil` once removed, until the entries are compacted.
        var state: ModelState?
    }

    private var entries: ContiguousArray<Entry> = []
    /// For each slot, 1 + the position in `entries` of the entry whose probe passes through it;
    /// 0 for an empty slot. A power of two in length, and never more than three quarters full
    /// of entries, removed ones included, so a probe always ends at an empty slot.
    private var slots: ContiguousArray<UInt32> = []
    /// How many entries hold a state.
    private(set) var count = 0
    /// Whether keys are scrambled before they pick their home slot.
    private var scrambles = false
    /// The furthest any entry sits from its home slot: a probe for a key that has gone further
    /// has passed every slot the key could be in. Removals only move entries closer.
    private var longestProbe = 0

    /// The longest probe unscrambled homes may need before the registry scrambles them.
    static let longestUnscrambledProbe = 64

    var isEmpty: Bool { count == 0 }

    /// The state registered for `rowID`; setting `nil` removes it.
    subscript(rowID: Int64) -> ModelState? {
        get {
            guard let slot = find(rowID) else { return nil }
            return entries[Int(slots[slot]) - 1].state
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: rowID)
            } else {
                removeValue(forKey: rowID)
            }
        }
    }

    /// Registers `state` for `rowID`; returns the state it replaces, if any.
    @discardableResult
    mutating func updateValue(_ state: ModelState, forKey rowID: Int64) -> ModelState? {
        if (entries.count + 1) * 4 > slots.count * 3 { rebuild(toHold: count + 1) }
        // One probe: it ends at the row's entry, or at the empty slot the new entry takes.
        var slot = home(of: rowID, inTableOf: slots.count)
        var distance = 0
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if distance <= longestProbe, entries[position].rowID == rowID {
                defer { entries[position].state = state }
                return entries[position].state
            }
            slot = (slot + 1) & (slots.count - 1)
            distance += 1
        }
        if !scrambles, distance > Self.longestUnscrambledProbe {
            scrambles = true
            rebuild(toHold: count + 1)
            return updateValue(state, forKey: rowID)
        }
        longestProbe = max(longestProbe, distance)
        entries.append(Entry(rowID: rowID, state: state))
        slots[slot] = UInt32(entries.count)
        count += 1
        return nil
    }

    /// Removes and returns the state registered for `rowID`, if any.
    @discardableResult
    mutating func removeValue(forKey rowID: Int64) -> ModelState? {
        guard let slot = find(rowID) else { return nil }
        let position = Int(slots[slot]) - 1
        let removed = entries[position].state.take()
        vacate(slot)
        count -= 1
        return removed
    }

    /// Makes room for `capacity` states without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        // Doubling at least: `ContiguousArray.reserveCapacity` allocates exactly what it is asked
        // for, and a save reserves once per run of one entity's inserts, which in an object graph
        // is a few rows long. Asked for exactly, every run copied every entry.
        if capacity > entries.capacity { entries.reserveCapacity(max(capacity, entries.capacity * 2)) }
        if (entries.count - count + capacity) * 4 > slots.count * 3 { rebuild(toHold: capacity) }
    }

    /// Moves every registered state to the end of `states`, in the order they were
    /// registered, and leaves the registry empty.
    mutating func moveStates(to states: inout [ModelState]) {
        entries.withUnsafeMutableBufferPointer { entries in
            for position in entries.indices {
                if let state = entries[position].state.take() { states.append(state) }
            }
        }
        self = RowRegistry()
    }

    /// The slot a probe for `rowID` starts at in a table of `size` slots: the key's low bits,
    /// or, once the registry scrambles keys, the top bits of the key multiplied by 2⁶⁴/φ.
    private func home(of rowID: Int64, inTableOf size: Int) -> Int {
        guard scrambles else { return Int(truncatingIfNeeded: rowID) & (size - 1) }
        let mixed = UInt64(bitPattern: rowID) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - size.trailingZeroBitCount))
    }

    /// The slot holding the position of `rowID`'s entry, if it has one.
    private func find(_ rowID: Int64) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var slot = home(of: rowID, inTableOf: slots.count)
        var distance = 0
        while slots[slot] != 0, distance <= longestProbe {
            if entries[Int(slots[slot]) - 1].rowID == rowID { return slot }
            slot = (slot + 1) & mask
            distance += 1
        }
        return nil
    }

    /// Empties `slot`, moving back any later position of the same run whose probe would
    /// otherwise stop at the gap and miss it. An entry more than ``longestProbe`` slots past
    /// the gap has its home past the gap too, so the walk stops there: keys in sequence make
    /// one run as long as the table is full.
    private mutating func vacate(_ slot: Int) {
        let mask = slots.count - 1
        var gap = slot
        var next = (slot + 1) & mask
        while slots[next] != 0, (next - gap) & mask <= longestProbe {
            // The entry at `next` may fill the gap when its probe passes the gap on its way
            // there: the gap is no further from `next` than the entry's home is.
            let home = home(of: entries[Int(slots[next]) - 1].rowID, inTableOf: slots.count)
            if (next - gap) & mask <= (next - home) & mask {
                slots[gap] = slots[next]
                gap = next
            }
            next = (next + 1) & mask
        }
        slots[gap] = 0
    }

    /// Drops removed entries and rebuilds the table with room for `capacity` states.
    private mutating func rebuild(toHold capacity: Int) {
        if count < entries.count { entries.removeAll { $0.state == nil } }
        var size = max(slots.count, 8)
        while max(capacity, entries.count + 1) * 4 > size * 3 { size *= 2 }
        while !place(inTableOf: size) { scrambles = true }
    }

    /// Puts every entry's position in a new table of `size` slots; `false`, leaving the table
    /// unfinished, when unscrambled homes make a probe too long.
    private mutating func place(inTableOf size: Int) -> Bool {
        slots = ContiguousArray(repeating: 0, count: size)
        longestProbe = 0
        let mask = size - 1
        for position in entries.indices {
            var slot = home(of: entries[position].rowID, inTableOf: size)
            var distance = 0
            while slots[slot] != 0 {
                slot = (slot + 1) & mask
                distance += 1
            }
            if !scrambles, distance > Self.longestUnscrambledProbe { return false }
            longestProbe = max(longestProbe, distance)
            slots[slot] = UInt32(position + 1)
        }
        return true
    }
}
