import Testing

@testable import OpenSwiftData

/// The set of a context's changed models, which keeps each model's position in the model's own
/// state: whatever order models join and leave it in, it must hold exactly those that joined
/// and did not leave.
@Suite struct ChangedModelsTests {
    @Test func holdsExactlyTheModelsThatJoinedAndDidNotLeave() {
        let layout = ModelLayout.of(Movie.self)
        let states = (0..<40).map { _ in ModelState(layout: layout) }
        var changed = ChangedModels()
        var expected = Set<ObjectIdentifier>()
        var random: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        for step in 0..<4000 {
            let state = states[next(states.count)]
            switch next(20) {
            case 0..<10:
                changed.insert(state)
                expected.insert(ObjectIdentifier(state))
            case 10..<19:
                // Leaving from anywhere moves the last model into the gap: its position must follow.
                changed.remove(state)
                expected.remove(ObjectIdentifier(state))
            default:
                changed.removeAll()
                expected.removeAll()
            }
            #expect(changed.count == expected.count, "step \(step)")
            #expect(Set(changed.states.map(ObjectIdentifier.init)) == expected, "step \(step)")
            for candidate in states where changed.contains(candidate) != expected.contains(ObjectIdentifier(candidate)) {
                Issue.record("step \(step): contains is wrong for a model at position \(candidate.changedPosition)")
            }
        }
    }

    @Test func keepsTheOrderModelsFirstChangedIn() {
        let layout = ModelLayout.of(Movie.self)
        let states = (0..<5).map { _ in ModelState(layout: layout) }
        var changed = ChangedModels()
        for state in states { changed.insert(state) }
        changed.insert(states[1])    // already there: stays where it was
        #expect(changed.states.map(ObjectIdentifier.init) == states.map(ObjectIdentifier.init))
    }
}
