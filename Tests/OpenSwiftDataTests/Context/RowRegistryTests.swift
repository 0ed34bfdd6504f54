import Testing

@testable import OpenSwiftData
import TestSupport

/// The registry a context keeps of the models it holds, by row key: it must find every
/// registered row and no other, through growth and removals, whatever pattern the keys follow.
@Suite struct RowRegistryTests {
    /// Row keys in the patterns a context meets: in sequence, spaced by a power of two (which
    /// piles onto few slots while homes are the keys' low bits, until the registry scrambles
    /// them), half in sequence and half spaced (the switch made with rows registered), and
    /// scattered.
    enum KeyPattern: CaseIterable, Sendable {
        case inSequence, every1024th, every2To20th, inSequenceThenEvery4096th, scattered

        func key(_ index: Int) -> Int64 {
            switch self {
            case .inSequence: Int64(index + 1)
            case .every1024th: Int64(index) * 1024
            case .every2To20th: Int64(index) << 20
            case .inSequenceThenEvery4096th: index < 1500 ? Int64(index + 1) : Int64(index - 1499) * 4096
            case .scattered: Int64(truncatingIfNeeded: UInt64(index + 1) &* 0xD6E8_FEB8_6659_FD93)
            }
        }
    }

    @Test(arguments: KeyPattern.allCases)
    func findsEveryRowThroughInsertsUpdatesAndRemovals(pattern: KeyPattern) {
        let key = pattern.key
        let layout = ModelLayout.of(Movie.self)
        var registry = RowRegistry()
        var expected: [Int64: ModelState] = [:]
        var order: [Int64] = []
        var random = SplitMix(seed: UInt64(KeyPattern.allCases.firstIndex(of: pattern)!))
        for step in 0..<6000 {
            let rowID = key(Int(random.next() % 3000))
            switch random.next() % 4 {
            case 0:
                // Removing: the rows after it in its probe must stay reachable.
                #expect(registry.removeValue(forKey: rowID) === expected.removeValue(forKey: rowID))
                order.removeAll { $0 == rowID }
            case 1 where expected[rowID] != nil:
                // Replacing keeps the row's place in the order.
                let state = ModelState(layout: layout)
                #expect(registry.updateValue(state, forKey: rowID) === expected.updateValue(state, forKey: rowID))
            default:
                let state = ModelState(layout: layout)
                if expected.updateValue(state, forKey: rowID) == nil { order.append(rowID) }
                registry[rowID] = state
            }
            if step % 500 == 0 || step == 5999 {
                #expect(registry.count == expected.count)
                for candidate in 0..<3000 {
                    let rowID = key(candidate)
                    #expect(registry[rowID] === expected[rowID], "row \(rowID) after \(step + 1) steps")
                }
            }
        }
        var states: [ModelState] = []
        registry.moveStates(to: &states)
        #expect(states.map(ObjectIdentifier.init) == order.map { ObjectIdentifier(expected[$0]!) })
        #expect(registry.isEmpty)
        #expect(registry[key(0)] == nil)
    }

    @Test func reservingRoomKeepsEveryRow() {
        let layout = ModelLayout.of(Movie.self)
        var registry = RowRegistry()
        let states = (0..<100).map { _ in ModelState(layout: layout) }
        for (offset, state) in states.prefix(50).enumerated() { registry[Int64(offset)] = state }
        registry.reserveCapacity(10_000)
        for (offset, state) in states.enumerated().dropFirst(50) { registry[Int64(offset)] = state }
        #expect(registry.count == 100)
        for (offset, state) in states.enumerated() { #expect(registry[Int64(offset)] === state) }
    }
}
