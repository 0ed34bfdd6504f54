import Foundation
import SwiftDataSync
import Testing
import TestSupport

/// The merge functions alone, proven as sync engines are: random operations on random
/// replicas (devices with clocks hours apart, and a server that merges models made twice with
/// one unique value), each change delivered to every other replica in a random order, some
/// twice, some bundled with others, some lost and sent again later. At the end every replica
/// holds the same states, and those states, and what a store would show from them, are what a
/// reference model of the documented rules says, computed from the log of operations instead of
/// by merging.
///
/// SYNC_MERGE_SEED repeats a run; SYNC_MERGE_CASES sets how many cases it has.
@Suite struct SyncMergePropertyTests {
    static let cases = Int(ProcessInfo.processInfo.environment["SYNC_MERGE_CASES"] ?? "") ?? 3000

    @Test func everyReplicaConvergesToTheDocumentedRulesWhateverTheDelivery() {
        let seed = ProcessInfo.processInfo.environment["SYNC_MERGE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("SyncMergePropertyTests: seed \(seed) (SYNC_MERGE_SEED=\(seed) repeats the run)")
        var random = SplitMix(seed: seed)
        var checked = (links: 0, removals: 0, concurrentKept: 0, merges: 0)
        for index in 0..<Self.cases {
            var simulation = MergeSimulation(seed: random.next())
            simulation.run()
            let problems = simulation.problems()
            if !problems.isEmpty {
                Issue.record("seed \(seed), case \(index): \(problems.prefix(4).joined(separator: "; "))\n\(simulation.log.joined(separator: "\n"))")
                return
            }
            checked.links += simulation.reference.adds.count
            checked.removals += simulation.reference.removes.count
            checked.concurrentKept += simulation.reference.additionsARemovalDidNotSee
            checked.merges += simulation.reference.merges.count
        }
        // The runs exercise what they are about.
        #expect(checked.links > Self.cases && checked.removals > Self.cases / 3 && checked.concurrentKept > Self.cases / 50 && checked.merges > Self.cases / 10, "seed \(seed): \(checked)")
    }

    /// The documented rules by example: a removal takes only the additions its device had
    /// seen, so an addition made concurrently elsewhere stays.
    @Test func aRemovalTakesOnlyTheAdditionsItSaw() {
        typealias State = SyncedModelState<String>
        func at(_ milliseconds: Int64, _ node: String) -> SyncTimestamp { SyncTimestamp(milliseconds: milliseconds, counter: 0, node: node) }
        var phone = State(entity: "Journey"), laptop = State(entity: "Journey")
        phone.add("labels", member: "work", at: at(1, "phone"))
        laptop.merge(phone)
        // The laptop removes the label at 5; the phone, offline, removes and adds it again at 3.
        laptop.remove("labels", member: "work", observed: laptop.liveAdditions(of: "labels", to: "work"))
        phone.remove("labels", member: "work", observed: phone.liveAdditions(of: "labels", to: "work"))
        phone.add("labels", member: "work", at: at(3, "phone"))
        #expect(laptop.merging(phone).members(of: "labels") == ["work"])
        #expect(phone.merging(laptop).members(of: "labels") == ["work"])
        // Once the laptop has seen the new addition, its removal takes it.
        var seen = laptop.merging(phone)
        seen.remove("labels", member: "work", observed: seen.liveAdditions(of: "labels", to: "work"))
        #expect(seen.merging(phone).members(of: "labels").isEmpty)
    }

    /// A link to a model merged away leads to the model that stayed, however the merge chain runs.
    @Test func linksToMergedModelsLeadToTheSurvivor() {
        let mergedInto = ["b": "a", "c": "b", "x": "y", "y": "x"]
        #expect(SyncSurvivors.survivor(of: "c") { mergedInto[$0] } == "a")
        #expect(SyncSurvivors.survivor(of: "a") { mergedInto[$0] } == "a")
        #expect(SyncSurvivors.survivor(of: "z") { mergedInto[$0] } == "z")
        // A loop only crafted states make ends at one place on every node.
        #expect(SyncSurvivors.survivor(of: "x") { mergedInto[$0] } == "x")
        #expect(SyncSurvivors.survivor(of: "y") { mergedInto[$0] } == "x")
    }
}

/// One case: replicas, their operations and the network between them.
struct MergeSimulation {
    typealias State = SyncedModelState<String>

    /// A change as it travels: a partial (or whole) state of one model, and the operations
    /// whose effects it carries.
    struct Message {
        var model: String
        var state: State
        var operations: Set<Int>
    }

    struct Replica {
        let name: String
        var clock: HybridLogicalClock
        let skew: TimeInterval
        var states: [String: State] = [:]
        /// The operations whose effects each model's state holds here.
        var operations: [String: Set<Int>] = [:]
        var inbox: [Message] = []

        mutating func take(_ message: Message, now: TimeInterval) {
            let state = message.state
            for timestamp in state.properties.values.map(\.timestamp) + state.links.values.flatMap(\.values).flatMap({ $0.additions.union($0.removals) })
                + [state.deletion].compactMap({ $0 }) {
                clock.receive(timestamp, physical: Date(timeIntervalSince1970: now + skew))
            }
            states[message.model, default: State(entity: "Journey")].merge(state)
            operations[message.model, default: []].formUnion(message.operations)
        }
    }

    static let models = ["m0", "m1", "m2", "m3", "m4"]
    var random: SplitMix
    var replicas: [Replica]
    var reference = MergeReference()
    var log: [String] = []
    /// The wall clock the operations happen at, in seconds, moving on a little each step.
    var now: TimeInterval = 1_000_000

    init(seed: UInt64) {
        random = SplitMix(seed: seed)
        // Replica 0 is the server: the one that merges models made twice.
        replicas = zip(["server", "phone", "tablet", "laptop"], [0, 3 * 3600, -5 * 3600, 0.25] as [TimeInterval]).map {
            Replica(name: $0, clock: HybridLogicalClock(node: $0), skew: $1)
        }
        log.append("case seed \(seed)")
    }

    mutating func run() {
        let steps = Int.random(in: 5...40, using: &random)
        for _ in 0..<steps {
            now += Double.random(in: 0...2, using: &random)
            if Int.random(in: 0..<3, using: &random) == 0 {
                deliverSome()
            } else {
                operate(at: Int.random(in: 0..<replicas.count, using: &random))
            }
        }
        // Whatever was lost is sent again until it arrives: every message reaches everyone.
        while replicas.contains(where: { !$0.inbox.isEmpty }) { deliverSome(losing: false) }
    }

    private mutating func tick(_ replica: Int) -> SyncTimestamp {
        replicas[replica].clock.now(physical: Date(timeIntervalSince1970: now + replicas[replica].skew))
    }

    /// One operation at a replica, made from the state it holds as the capture makes changes.
    private mutating func operate(at index: Int) {
        let model = Self.models.randomElement(using: &random)!
        let state = replicas[index].states[model] ?? State(entity: "Journey")
        let id = reference.nextOperation
        var change = State(entity: "Journey")
        switch Int.random(in: 0..<12, using: &random) {
        case 0...2:
            let value = "v\(Int.random(in: 0..<4, using: &random))"
            let timestamp = tick(index)
            change.set("title", to: value, at: timestamp)
            reference.sets.append(.init(id: id, model: model, property: "title", value: value, timestamp: timestamp))
            log.append("\(replicas[index].name) #\(id): \(model).title = \(value) at \(timestamp)")
        case 3...4:
            let value = Bool.random(using: &random) ? "null" : "\"\(Self.models.randomElement(using: &random)!)\""
            let timestamp = tick(index)
            change.set("country", to: value, at: timestamp)
            reference.sets.append(.init(id: id, model: model, property: "country", value: value, timestamp: timestamp))
            log.append("\(replicas[index].name) #\(id): \(model).country = \(value) at \(timestamp)")
        case 5...7:
            let member = Self.models.randomElement(using: &random)!
            // The capture adds a link the model does not show.
            guard !state.members(of: "labels").contains(member) else { return }
            let timestamp = tick(index)
            change.add("labels", member: member, at: timestamp)
            reference.adds.append(.init(id: id, model: model, member: member, tag: timestamp))
            log.append("\(replicas[index].name) #\(id): \(model).labels += \(member) at \(timestamp)")
        case 8...9:
            // The capture removes a link the model shows, taking the additions it has seen.
            guard let member = state.members(of: "labels").sorted().randomElement(using: &random) else { return }
            let observed = state.liveAdditions(of: "labels", to: member)
            change.remove("labels", member: member, observed: observed)
            reference.removes.append(.init(id: id, model: model, member: member, observed: observed))
            log.append("\(replicas[index].name) #\(id): \(model).labels -= \(member) seeing \(observed.sorted())")
        case 10:
            let timestamp = tick(index)
            change.delete(at: timestamp)
            reference.deletes.append(.init(id: id, model: model, timestamp: timestamp))
            log.append("\(replicas[index].name) #\(id): delete \(model) at \(timestamp)")
        default:
            // The server merges a model into another with the same unique value: the merged
            // model's contents join the survivor's, and it is marked merged (and deleted).
            guard index == 0 else { return }
            let survivor = Self.models.randomElement(using: &random)!
            guard survivor != model, !state.isDeleted, !(replicas[0].states[survivor]?.isDeleted ?? false) else { return }
            let timestamp = tick(index)
            let absorbed = replicas[0].operations[model] ?? []
            var merged = state
            merged.markMerged(into: survivor, at: timestamp)
            let survivorState = (replicas[0].states[survivor] ?? State(entity: "Journey")).merging(state.contents(as: "Journey"))
            reference.merges.append(.init(id: id, model: model, survivor: survivor, absorbed: absorbed, timestamp: timestamp))
            log.append("server #\(id): merge \(model) into \(survivor) at \(timestamp), taking \(absorbed.sorted())")
            reference.nextOperation += 1
            // Both states change, and both go everywhere: the survivor's carries the merge's
            // operation as what it absorbed.
            send(Message(model: model, state: merged, operations: [id]), from: 0)
            send(Message(model: survivor, state: survivorState, operations: (replicas[0].operations[survivor] ?? []).union(absorbed).union([id])), from: 0)
            return
        }
        reference.nextOperation += 1
        send(Message(model: model, state: change, operations: [id]), from: index)
    }

    /// Applies a message at its replica and queues it for every other.
    private mutating func send(_ message: Message, from index: Int) {
        replicas[index].take(message, now: now)
        for other in replicas.indices where other != index { replicas[other].inbox.append(message) }
    }

    /// Delivers a few messages at a random replica: in a random order, some twice, some
    /// bundled with another of the same model (a batch), some lost (kept to send again).
    private mutating func deliverSome(losing: Bool = true) {
        let candidates = replicas.indices.filter { !replicas[$0].inbox.isEmpty }
        guard let index = candidates.randomElement(using: &random) else { return }
        replicas[index].inbox.shuffle(using: &random)
        let count = Int.random(in: 1...max(1, replicas[index].inbox.count), using: &random)
        var kept: [Message] = []
        var delivered: [Message] = []
        for message in replicas[index].inbox.prefix(count) {
            if losing && Int.random(in: 0..<6, using: &random) == 0 { kept.append(message); continue }
            if var bundle = delivered.last, bundle.model == message.model, Bool.random(using: &random) {
                bundle.state.merge(message.state)
                bundle.operations.formUnion(message.operations)
                delivered[delivered.count - 1] = bundle
            } else {
                delivered.append(message)
            }
            if Int.random(in: 0..<8, using: &random) == 0 { delivered.append(message) }
        }
        replicas[index].inbox = Array(replicas[index].inbox.dropFirst(count)) + kept
        for message in delivered { replicas[index].take(message, now: now) }
    }

    /// What differs between the replicas, or from the reference.
    func problems() -> [String] {
        var problems: [String] = []
        let first = replicas[0]
        for replica in replicas.dropFirst() {
            for model in Self.models where (replica.states[model] ?? State(entity: "Journey")) != (first.states[model] ?? State(entity: "Journey")) {
                problems.append("\(replica.name) and \(first.name) hold different states of \(model)")
            }
        }
        for model in Self.models {
            let state = first.states[model] ?? State(entity: "Journey")
            let operations = first.operations[model] ?? []
            let expected = reference.model(model, operations: operations)
            let found = MergeReference.Model(
                title: state.value(of: "title"), country: state.value(of: "country"), labels: state.members(of: "labels"),
                isDeleted: state.isDeleted, mergedInto: state.mergedInto)
            if found != expected { problems.append("\(model) is \(found), the rules say \(expected)") }
        }
        // What a store shows: links lead to survivors, and deleted models are gone.
        let shown = MergeReference.shown(Dictionary(uniqueKeysWithValues: Self.models.map { model in
            let state = first.states[model] ?? State(entity: "Journey")
            return (model, MergeReference.Model(
                title: state.value(of: "title"), country: state.value(of: "country"), labels: state.members(of: "labels"),
                isDeleted: state.isDeleted, mergedInto: state.mergedInto))
        })) { id in first.states[id].flatMap(\.mergedInto) }
        let expectedShown = MergeReference.shown(Dictionary(uniqueKeysWithValues: Self.models.map {
            ($0, reference.model($0, operations: first.operations[$0] ?? []))
        }), survivor: reference.survivorByWalking)
        if shown != expectedShown { problems.append("the store would show \(shown), the rules say \(expectedShown)") }
        return problems
    }
}

/// The documented rules, computed from the log of operations: a property's value is the one
/// set last by timestamp; a link is there while one of its additions was seen by no removal; a
/// model is deleted once deleted or merged; a model merged into several keeps the least.
struct MergeReference {
    struct Set_ { var id: Int; var model: String; var property: String; var value: String; var timestamp: SyncTimestamp }
    struct Add { var id: Int; var model: String; var member: String; var tag: SyncTimestamp }
    struct Remove { var id: Int; var model: String; var member: String; var observed: Set<SyncTimestamp> }
    struct Delete { var id: Int; var model: String; var timestamp: SyncTimestamp }
    /// The server merged `model` into `survivor`, taking the operations `absorbed` it had
    /// merged into `model` then.
    struct Merge { var id: Int; var model: String; var survivor: String; var absorbed: Set<Int>; var timestamp: SyncTimestamp }

    struct Model: Equatable, CustomStringConvertible {
        var title: String?
        var country: String?
        var labels: Set<String>
        var isDeleted: Bool
        var mergedInto: String?

        var description: String {
            "(title \(title ?? "-"), country \(country ?? "-"), labels \(labels.sorted()), \(isDeleted ? "deleted" : "alive")\(mergedInto.map { ", merged into \($0)" } ?? ""))"
        }
    }

    var nextOperation = 0
    var sets: [Set_] = []
    var adds: [Add] = []
    var removes: [Remove] = []
    var deletes: [Delete] = []
    var merges: [Merge] = []

    /// The model as the operations `operations` (those its state took in, its own and those
    /// merges absorbed into it) make it.
    func model(_ model: String, operations: Set<Int>) -> Model {
        let reaching = reachingOperations(model, among: operations, depth: 0)
        let title = sets.filter { $0.property == "title" && reaching.contains($0.id) }.max { $0.timestamp < $1.timestamp }?.value
        let country = sets.filter { $0.property == "country" && reaching.contains($0.id) }.max { $0.timestamp < $1.timestamp }?.value
        var labels = Set<String>()
        for add in adds where reaching.contains(add.id) {
            let removed = removes.contains { reaching.contains($0.id) && $0.member == add.member && $0.observed.contains(add.tag) }
            if !removed { labels.insert(add.member) }
        }
        let merged = merges.filter { $0.model == model && operations.contains($0.id) }
        let deleted = !merged.isEmpty || deletes.contains { $0.model == model && operations.contains($0.id) }
        return Model(title: title, country: country, labels: labels, isDeleted: deleted, mergedInto: merged.map(\.survivor).min())
    }

    /// The operations of `operations` whose effects reach `model`: those made on it, and, for
    /// each merge into it, those the merged model had taken in when the server merged it.
    private func reachingOperations(_ model: String, among operations: Set<Int>, depth: Int) -> Set<Int> {
        var reaching = Set(operations.filter { id in
            sets.contains { $0.id == id && $0.model == model } || adds.contains { $0.id == id && $0.model == model }
                || removes.contains { $0.id == id && $0.model == model }
        })
        guard depth < Self.maximumChain else { return reaching }
        for merge in merges where merge.survivor == model && operations.contains(merge.id) {
            reaching.formUnion(reachingOperations(merge.model, among: merge.absorbed.intersection(operations), depth: depth + 1))
        }
        return reaching
    }

    private static let maximumChain = 10

    /// Additions of a link that a removal of the same link did not see: the case last writer
    /// wins would get wrong.
    var additionsARemovalDidNotSee: Int {
        adds.filter { add in
            let removals = removes.filter { $0.model == add.model && $0.member == add.member }
            return !removals.isEmpty && removals.allSatisfy { !$0.observed.contains(add.tag) }
        }.count
    }

    /// Where a link to `model` leads by walking the merges of the log.
    func survivorByWalking(_ model: String) -> String? {
        merges.filter { $0.model == model }.map(\.survivor).min()
    }

    /// What a store shows of the models: each model not deleted, its to-one link and its
    /// members as the models they lead to, links to deleted models gone.
    static func shown(_ models: [String: Model], survivor mergedInto: (String) -> String?) -> [String: String] {
        func leadsTo(_ id: String) -> String? {
            var current = id
            var seen: Set<String> = [id]
            while let next = mergedInto(current), seen.insert(next).inserted { current = next }
            return models[current]?.isDeleted == false ? current : nil
        }
        var shown: [String: String] = [:]
        for (id, model) in models where !model.isDeleted && model.title != nil {
            let country = model.country.flatMap { $0 == "null" ? nil : String($0.dropFirst().dropLast()) }.flatMap(leadsTo)
            let labels = Set(model.labels.compactMap(leadsTo)).sorted()
            shown[id] = "\(model.title ?? "") country \(country ?? "none") labels \(labels)"
        }
        return shown
    }
}
