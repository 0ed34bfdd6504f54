import Foundation

/// A hybrid logical clock (Kulkarni et al., 2014): a node's source of ``SyncTimestamp``s, which
/// follow its wall clock where they can and its history where they must.
///
/// Every reading is after the node's previous one and after every reading the node has
/// received, whatever its wall clock says: a clock set back, or hours behind another device's,
/// cannot make a new edit lose to an older one it has already seen. A clock ahead of the
/// others carries their readings along with it once they receive its changes.
public struct HybridLogicalClock: Sendable {
    /// The node whose readings these are.
    public let node: String
    /// The last reading made or received; `nil` before the first.
    public private(set) var last: SyncTimestamp?

    /// A clock for `node`, going on from `last` (the last reading it made or received, kept
    /// across launches).
    public init(node: String, last: SyncTimestamp? = nil) {
        self.node = node
        self.last = last
    }

    /// A new reading, after every earlier one.
    public mutating func now(physical: Date = Date()) -> SyncTimestamp {
        let wall = Self.milliseconds(physical)
        let reading: SyncTimestamp
        if let last, last.milliseconds >= wall {
            reading = Self.after(last.milliseconds, counter: last.counter, node: node)
        } else {
            reading = SyncTimestamp(milliseconds: wall, counter: 0, node: node)
        }
        last = reading
        return reading
    }

    /// Takes in a reading another node made: the clock's next reading comes after it.
    public mutating func receive(_ remote: SyncTimestamp, physical: Date = Date()) {
        let wall = Self.milliseconds(physical)
        let latest = [last, remote].compactMap { $0 }.max()!
        guard latest.milliseconds >= wall else { return }
        // Keep the later of the two, under this node's name, so that `now` counts on from it.
        last = SyncTimestamp(milliseconds: latest.milliseconds, counter: latest.counter, node: node)
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The reading just after `milliseconds` and `counter`: the next counter, or the next
    /// millisecond when the counter is spent.
    private static func after(_ milliseconds: Int64, counter: UInt32, node: String) -> SyncTimestamp {
        counter == .max
            ? SyncTimestamp(milliseconds: milliseconds + 1, counter: 0, node: node)
            : SyncTimestamp(milliseconds: milliseconds, counter: counter + 1, node: node)
    }
}
