import Foundation

/// One link of a to-many relationship, as an element of an observed-remove set: the additions
/// made (each tagged with its change's timestamp) and the additions removed. The link is there
/// while an addition is not removed.
///
/// Merging takes the union of both, so it is order-free, grouping-free and idempotent; a
/// removal names the additions it saw, so it never removes one it did not see. A removal may
/// arrive before the addition it names: the addition then arrives removed.
public struct SyncedLink: Hashable, Codable, Sendable {
    /// The timestamps of the changes that added the link.
    public internal(set) var additions: Set<SyncTimestamp> = []
    /// The additions removed.
    public internal(set) var removals: Set<SyncTimestamp> = []

    public init() {}

    /// Whether an addition is not removed.
    public var isPresent: Bool { !additions.isSubset(of: removals) }

    /// The additions not removed.
    public var liveAdditions: Set<SyncTimestamp> { additions.subtracting(removals) }

    mutating func merge(_ other: SyncedLink) {
        additions.formUnion(other.additions)
        removals.formUnion(other.removals)
    }

    private enum CodingKeys: String, CodingKey {
        case added, removed
        // The form before links were observed-remove sets: a last-writer-wins flag.
        case value, timestamp
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.added) || container.contains(.removed) {
            additions = Set(try container.decodeIfPresent([SyncTimestamp].self, forKey: .added) ?? [])
            removals = Set(try container.decodeIfPresent([SyncTimestamp].self, forKey: .removed) ?? [])
            return
        }
        // A state kept by an earlier version: a link added at a time is one addition; a link
        // removed at a time is an addition at that time, removed.
        let isAdded = try container.decode(Bool.self, forKey: .value)
        let timestamp = try container.decode(SyncTimestamp.self, forKey: .timestamp)
        additions = [timestamp]
        if !isAdded { removals = [timestamp] }
    }

    /// Both sets in order, so that equal links encode to equal text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(additions.sorted(), forKey: .added)
        if !removals.isEmpty { try container.encode(removals.sorted(), forKey: .removed) }
    }
}
