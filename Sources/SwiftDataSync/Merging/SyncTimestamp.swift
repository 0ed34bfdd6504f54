import Foundation

/// A moment in a sync's order of changes: a reading of a ``HybridLogicalClock``.
///
/// Readings order by their time, then their counter, then their node, so no two readings of
/// different nodes are equal and every node orders them alike. The time is close to the wall
/// clock of whoever made the reading, but never goes backwards on a node, and never falls
/// behind a reading the node has received: a device whose clock is behind still orders its
/// new edits after what it has seen.
public struct SyncTimestamp: Hashable, Comparable, Codable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// Milliseconds since 1970: the latest physical time the clock had seen.
    public let milliseconds: Int64
    /// Orders readings made within one millisecond, or after a reading from the future.
    public let counter: UInt32
    /// The device or server that made the reading.
    public let node: String

    public init(milliseconds: Int64, counter: UInt32, node: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.node = node
    }

    public static func < (lhs: SyncTimestamp, rhs: SyncTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.node) < (rhs.milliseconds, rhs.counter, rhs.node)
    }

    /// Text that sorts as the readings do: `<15-digit milliseconds>-<8 hex digits>-<node>`.
    public var description: String {
        let time = String(milliseconds)
        let counter = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 15 - time.count)) + time + "-"
            + String(repeating: "0", count: 8 - counter.count) + counter + "-" + node
    }

    /// The reading ``description`` wrote, or `nil` for other text.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 15, parts[1].count == 8,
              let milliseconds = Int64(parts[0]), milliseconds >= 0, let counter = UInt32(parts[1], radix: 16)
        else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, node: String(parts[2]))
    }
}
