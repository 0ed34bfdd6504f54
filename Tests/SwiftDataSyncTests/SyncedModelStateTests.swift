import Foundation
import SwiftDataSync
import Testing
import TestSupport

/// Merging what nodes know of a model: every node ends with the same state whatever order,
/// grouping or repetition the changes arrive in, and the state is what users expect.
@Suite struct SyncedModelStateTests {
    typealias State = SyncedModelState<String>

    func at(_ milliseconds: Int64, _ node: String = "a") -> SyncTimestamp {
        SyncTimestamp(milliseconds: milliseconds, counter: 0, node: node)
    }

    @Test func theLatestWriteOfEachPropertyWins() {
        var phone = State(entity: "Note"), laptop = State(entity: "Note")
        phone.set("title", to: "Groceries", at: at(10, "phone"))
        phone.set("body", to: "milk", at: at(12, "phone"))
        laptop.set("title", to: "Shopping", at: at(11, "laptop"))
        let merged = phone.merging(laptop)
        #expect(merged.value(of: "title") == "Shopping")
        #expect(merged.value(of: "body") == "milk")
        #expect(laptop.merging(phone) == merged)
    }

    @Test func aDeletionWinsOverEditsConcurrentAndLater() {
        var phone = State(entity: "Note"), laptop = State(entity: "Note")
        phone.delete(at: at(10, "phone"))
        laptop.set("title", to: "edited after", at: at(20, "laptop"))
        #expect(phone.merging(laptop).isDeleted)
        #expect(laptop.merging(phone).isDeleted)
        // Two deletions keep the same one on every node.
        laptop.delete(at: at(30, "laptop"))
        #expect(phone.merging(laptop).deletion == at(10, "phone"))
        #expect(laptop.merging(phone).deletion == at(10, "phone"))
    }

    @Test func membershipsMergeAsAddedAndRemovedLinks() {
        var phone = State(entity: "Tag"), laptop = State(entity: "Tag")
        phone.add("notes", member: "n1", at: at(1, "phone"))
        laptop.merge(phone)
        // Concurrently: the phone adds n2, the laptop adds n3 and removes n1.
        phone.add("notes", member: "n2", at: at(5, "phone"))
        laptop.add("notes", member: "n3", at: at(5, "laptop"))
        laptop.remove("notes", member: "n1", observed: laptop.liveAdditions(of: "notes", to: "n1"))
        #expect(phone.merging(laptop).members(of: "notes") == ["n2", "n3"])
        // A removal loses to an addition it had not seen, even one stamped before it.
        phone.add("notes", member: "n1", at: at(3, "phone"))
        #expect(laptop.merging(phone).members(of: "notes") == ["n1", "n2", "n3"])
        #expect(phone.merging(laptop) == laptop.merging(phone))
    }

    /// `link(_:to:isAdded:at:)` adds a tagged link, or removes the additions the state has
    /// seen: a later removal on one node leaves an addition it had not seen.
    @Test func linkingAddsOrRemovesWhatTheStateHasSeen() {
        var phone = State(entity: "Tag"), laptop = State(entity: "Tag")
        phone.link("notes", to: "n1", isAdded: true, at: at(1, "phone"))
        laptop.merge(phone)
        phone.link("notes", to: "n1", isAdded: true, at: at(5, "phone"))
        laptop.link("notes", to: "n1", isAdded: false, at: at(9, "laptop"))
        #expect(laptop.members(of: "notes").isEmpty)
        #expect(laptop.merging(phone).members(of: "notes") == ["n1"])
        #expect(phone.merging(laptop) == laptop.merging(phone))
    }

    /// A state an earlier version kept, its links last-writer-wins flags, reads as the same
    /// members.
    @Test func linksKeptByAnEarlierVersionReadAsTheSameMembers() throws {
        let earlier = #"{"entity":"Tag","links":{"notes":{"n1":{"timestamp":{"counter":0,"milliseconds":5,"node":"a"},"value":true},"n2":{"timestamp":{"counter":0,"milliseconds":6,"node":"a"},"value":false}}},"properties":{}}"#
        let state = try JSONDecoder().decode(State.self, from: Data(earlier.utf8))
        #expect(state.members(of: "notes") == ["n1"])
        let again = try JSONDecoder().decode(State.self, from: JSONEncoder().encode(state))
        #expect(again == state)
    }

    /// Random changes from three nodes, merged in random orders and groupings, some twice:
    /// every way ends in the state of merging them all in one order.
    @Test func mergingIsOrderFreeGroupingFreeAndIdempotent() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix(seed: seed)
        for round in 0..<200 {
            let changes: [State] = (0..<12).map { index in
                var change = State(entity: "Note")
                let node = ["phone", "laptop", "tablet"].randomElement(using: &generator)!
                // A node never makes one reading twice: the counter tells the changes apart.
                let time = SyncTimestamp(milliseconds: Int64.random(in: 0..<20, using: &generator), counter: UInt32(index), node: node)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: change.delete(at: time)
                case 1...5: change.set(["title", "body"].randomElement(using: &generator)!, to: "v\(Int.random(in: 0..<5, using: &generator))", at: time)
                default:
                    let member = "t\(Int.random(in: 0..<4, using: &generator))"
                    if Bool.random(using: &generator) {
                        change.add("tags", member: member, at: time)
                    } else {
                        change.remove("tags", member: member, observed: [SyncTimestamp(milliseconds: Int64.random(in: 0..<20, using: &generator), counter: UInt32.random(in: 0..<12, using: &generator), node: node)])
                    }
                }
                return change
            }
            let inOrder = changes.reduce(State(entity: "Note")) { $0.merging($1) }
            let shuffled = (changes + changes.prefix(3)).shuffled(using: &generator)
            let split = Int.random(in: 0...shuffled.count, using: &generator)
            let left = shuffled[..<split].reduce(State(entity: "Note")) { $0.merging($1) }
            let right = shuffled[split...].reduce(State(entity: "Note")) { $0.merging($1) }
            #expect(right.merging(left) == inOrder, "seed \(seed), round \(round)")
            #expect(inOrder.merging(inOrder) == inOrder, "seed \(seed), round \(round)")
        }
    }

    @Test func aStateRoundTripsThroughJSON() throws {
        var state = State(entity: "Note")
        state.set("title", to: "Plan", at: at(3, "phone"))
        state.add("tags", member: "t1", at: at(4, "phone"))
        state.add("tags", member: "t2", at: at(5, "phone"))
        state.remove("tags", member: "t2", observed: [at(5, "phone")])
        let decoded = try JSONDecoder().decode(State.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
    }
}
