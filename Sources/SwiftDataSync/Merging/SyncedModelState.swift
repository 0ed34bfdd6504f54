import Foundation

/// What every node knows of one synced model, and how two nodes' knowledge merges: the same
/// state whichever order changes arrive in, however often, from whichever node.
///
/// - Each property is a last-writer-wins register: its value from the change with the latest
///   ``SyncTimestamp`` (a hybrid logical clock's, never a wall clock's alone). A to-one
///   relationship is a property whose value names the model it links to.
/// - A to-many or many-to-many relationship is an observed-remove set of links
///   (``SyncedLink``): each addition is tagged with the timestamp of the change that made it,
///   and a removal removes the additions its node had seen, no others. Two devices adding
///   different members both keep theirs, and a member added on one device while another
///   removed it stays: the removal never saw that addition.
/// - A deletion wins over every edit, concurrent or later: once deleted, a model stays deleted
///   on every node (a model made again is a new model).
/// - Two models made on two nodes with the same unique values are one model: the server merges
///   the later into the earlier (``mergedInto``), property by property, and every node keeps
///   the earlier one; a link naming the later model is a link to the earlier
///   (``SyncSurvivors``).
public struct SyncedModelState<Value: Hashable & Codable & Sendable>: Hashable, Codable, Sendable {
    /// A value and the timestamp of the change that set it: a property's value.
    public struct Stamped<Content: Hashable & Codable & Sendable>: Hashable, Codable, Sendable {
        public var value: Content
        public var timestamp: SyncTimestamp

        public init(_ value: Content, at timestamp: SyncTimestamp) {
            self.value = value
            self.timestamp = timestamp
        }
    }

    /// The entity the model is of.
    public let entity: String
    /// Each property's register, by name.
    public private(set) var properties: [String: Stamped<Value>] = [:]
    /// Each to-many relationship's links, by relationship name, then by the global identifier
    /// of the model linked to.
    public private(set) var links: [String: [String: SyncedLink]] = [:]
    /// When the model was deleted; `nil` while it is not.
    public private(set) var deletion: SyncTimestamp?
    /// The global identifier of the model this one was merged into (it was made with the same
    /// unique values), which a node holding this model's row keeps it as; the model itself is
    /// deleted.
    public private(set) var mergedInto: String?

    public init(entity: String) {
        self.entity = entity
    }

    public var isDeleted: Bool { deletion != nil }

    /// The property's value, as the latest change set it.
    public func value(of property: String) -> Value? {
        properties[property]?.value
    }

    /// The global identifiers of the models the relationship links to.
    public func members(of relationship: String) -> Set<String> {
        Set((links[relationship] ?? [:]).compactMap { $0.value.isPresent ? $0.key : nil })
    }

    /// The additions of a link not yet removed: what a removal made with this state removes.
    public func liveAdditions(of relationship: String, to member: String) -> Set<SyncTimestamp> {
        links[relationship]?[member]?.liveAdditions ?? []
    }

    /// Sets a property, when `timestamp` is later than the change that set it last; returns
    /// whether the value is now `value`'s.
    @discardableResult
    public mutating func set(_ property: String, to value: Value, at timestamp: SyncTimestamp) -> Bool {
        if let current = properties[property], current.timestamp >= timestamp { return current.timestamp == timestamp }
        properties[property] = Stamped(value, at: timestamp)
        return true
    }

    /// Adds a link to `member`, tagged with the change's timestamp.
    public mutating func add(_ relationship: String, member: String, at timestamp: SyncTimestamp) {
        links[relationship, default: [:]][member, default: SyncedLink()].additions.insert(timestamp)
    }

    /// Removes the additions `observed` of the link to `member` (those the removing node had
    /// seen: ``liveAdditions(of:to:)`` of its state); an addition it had not seen stays.
    public mutating func remove(_ relationship: String, member: String, observed: Set<SyncTimestamp>) {
        guard !observed.isEmpty else { return }
        links[relationship, default: [:]][member, default: SyncedLink()].removals.formUnion(observed)
    }

    /// Adds a link (`isAdded`), tagged with `timestamp`, or removes it: the removal takes the
    /// additions this state has seen (``remove(_:member:observed:)`` with its
    /// ``liveAdditions(of:to:)``), so it is made on the removing node's whole state.
    public mutating func link(_ relationship: String, to member: String, isAdded: Bool, at timestamp: SyncTimestamp) {
        if isAdded {
            add(relationship, member: member, at: timestamp)
        } else {
            remove(relationship, member: member, observed: liveAdditions(of: relationship, to: member))
        }
    }

    /// Deletes the model; the earliest deletion is kept, so every node keeps the same one.
    public mutating func delete(at timestamp: SyncTimestamp) {
        deletion = min(deletion ?? timestamp, timestamp)
    }

    /// Marks the model merged into the model `survivor` (and so deleted); of two marks, every
    /// node keeps the same one.
    public mutating func markMerged(into survivor: String, at timestamp: SyncTimestamp) {
        mergedInto = min(mergedInto ?? survivor, survivor)
        delete(at: timestamp)
    }

    /// This state's properties and links, as another model's: what a merged model brings to
    /// the one it was merged into.
    public func contents(as entity: String) -> SyncedModelState {
        var contents = SyncedModelState(entity: entity)
        contents.properties = properties
        contents.links = links
        return contents
    }

    /// This state with only the properties and relationships named in `names`: what a device
    /// of an older version of the models, which declares only those, is sent.
    public func projected(onto names: Set<String>) -> SyncedModelState {
        var projected = self
        projected.properties = properties.filter { names.contains($0.key) }
        projected.links = links.filter { names.contains($0.key) }
        return projected
    }

    /// Takes in everything `other` knows of the same model. States of two entities never
    /// merge: `other` is left out, and `false` returned.
    @discardableResult
    public mutating func merge(_ other: SyncedModelState) -> Bool {
        guard other.entity == entity else { return false }
        for (property, register) in other.properties { set(property, to: register.value, at: register.timestamp) }
        for (relationship, members) in other.links {
            for (member, link) in members { links[relationship, default: [:]][member, default: SyncedLink()].merge(link) }
        }
        if let deletion = other.deletion { delete(at: deletion) }
        if let survivor = other.mergedInto { mergedInto = min(mergedInto ?? survivor, survivor) }
        return true
    }

    /// This state with everything `other` knows merged in.
    public func merging(_ other: SyncedModelState) -> SyncedModelState {
        var merged = self
        merged.merge(other)
        return merged
    }
}
