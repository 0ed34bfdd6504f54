import Synchronization

/// The property index of each key path object a model's accessors have passed, looked up by
/// the object's address without taking a lock (the DocC article Internals, "Reading and
/// writing a property").
///
/// New key paths are added under a lock, each time into a new snapshot. The invariant that
/// lets readers skip both the lock and a retain: no snapshot is ever freed, and no key path
/// remembered is ever freed, so its address never comes to name another.
final class KeyPathIndexCache: @unchecked Sendable {
    /// The key paths known when it was published, in an open-addressing table keyed by the
    /// key path object's address; never changed after.
    private final class Snapshot {
        let slots: [(identity: UInt, index: Int)]
        let mask: UInt

        init(_ entries: [(identity: UInt, index: Int)]) {
            var capacity = 8
            while capacity < 2 * entries.count { capacity *= 2 }
            var slots = Array(repeating: (identity: UInt(0), index: 0), count: capacity)
            mask = UInt(capacity - 1)
            for entry in entries {
                var slot = Self.home(of: entry.identity, mask)
                while slots[slot].identity != 0 { slot = (slot + 1) & Int(mask) }
                slots[slot] = entry
            }
            self.slots = slots
        }

        /// Objects are 16-byte aligned, so the address without its low bits spreads well.
        static func home(of identity: UInt, _ mask: UInt) -> Int {
            Int((identity >> 4) & mask)
        }

        func index(of identity: UInt) -> Int? {
            var slot = Self.home(of: identity, mask)
            while true {
                let entry = slots[slot]
                if entry.identity == identity { return entry.index }
                if entry.identity == 0 { return nil }
                slot = (slot + 1) & Int(mask)
            }
        }
    }

    /// The latest snapshot, which readers load without a lock.
    private let latest = Atomic<UnsafeRawPointer?>(nil)
    /// Every snapshot published, kept so that none a reader may still hold is freed, and the
    /// key paths themselves, kept so that their addresses never come to name other key paths.
    private let published = Mutex<(snapshots: [Snapshot], keyPaths: [(keyPath: AnyKeyPath, index: Int)])>(([], []))
    /// How many key paths it remembers; key paths built at run time are looked up the slow way.
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The index remembered for this very key path object.
    func index(of keyPath: AnyKeyPath) -> Int? {
        guard let pointer = latest.load(ordering: .acquiring) else { return nil }
        // Not retained for the lookup: no snapshot is ever freed (`published` keeps them all),
        // and a retain and release cost more than the probe on every property read and write.
        return Unmanaged<Snapshot>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
            $0.index(of: UInt(bitPattern: ObjectIdentifier(keyPath)))
        }
    }

    /// Remembers the index of a key path object, while there is room.
    func remember(_ keyPath: AnyKeyPath, index: Int) {
        published.withLock { published in
            guard published.keyPaths.count < capacity, !published.keyPaths.contains(where: { $0.keyPath === keyPath }) else { return }
            published.keyPaths.append((keyPath, index))
            let snapshot = Snapshot(published.keyPaths.map { (UInt(bitPattern: ObjectIdentifier($0.keyPath)), $0.index) })
            published.snapshots.append(snapshot)
            latest.store(UnsafeRawPointer(Unmanaged.passUnretained(snapshot).toOpaque()), ordering: .releasing)
        }
    }
}
