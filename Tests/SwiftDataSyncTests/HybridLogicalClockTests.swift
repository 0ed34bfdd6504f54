import Foundation
import SwiftDataSync
import Testing

/// The clock that orders a sync's changes: after everything it made or saw, whatever the wall
/// clock says.
@Suite struct HybridLogicalClockTests {
    let noon = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func readingsFollowTheWallClockAndNeverGoBack() {
        var clock = HybridLogicalClock(node: "phone")
        let first = clock.now(physical: noon)
        #expect(first.milliseconds == 1_800_000_000_000)
        #expect(first.counter == 0)
        let sameMillisecond = clock.now(physical: noon)
        #expect(sameMillisecond > first)
        #expect(sameMillisecond.counter == 1)
        // The wall clock set back an hour: readings still go forward.
        let setBack = clock.now(physical: noon - 3_600)
        #expect(setBack > sameMillisecond)
        // And follow the wall clock again once it is past them.
        let later = clock.now(physical: noon + 1)
        #expect(later.milliseconds == 1_800_000_001_000)
        #expect(later.counter == 0)
    }

    @Test func aReceivedReadingFromTheFutureOrdersTheNextEditAfterIt() {
        var behind = HybridLogicalClock(node: "tablet")
        var ahead = HybridLogicalClock(node: "laptop")
        // The laptop's clock is five hours fast.
        let remote = ahead.now(physical: noon + 5 * 3_600)
        _ = behind.now(physical: noon)
        behind.receive(remote, physical: noon)
        let edit = behind.now(physical: noon + 1)
        #expect(edit > remote)
        #expect(edit.node == "tablet")
        // A reading from the past changes nothing.
        var clock = HybridLogicalClock(node: "watch")
        let own = clock.now(physical: noon)
        clock.receive(SyncTimestamp(milliseconds: 5, counter: 9, node: "old"), physical: noon)
        #expect(clock.last == own)
    }

    @Test func aSpentCounterMovesToTheNextMillisecond() {
        var clock = HybridLogicalClock(node: "n", last: SyncTimestamp(milliseconds: 2_000_000_000_000, counter: .max, node: "n"))
        let next = clock.now(physical: noon)
        #expect(next == SyncTimestamp(milliseconds: 2_000_000_000_001, counter: 0, node: "n"))
    }

    @Test func textSortsAsReadingsDoAndReadsBack() {
        var generator = SystemRandomNumberGenerator()
        let readings = (0..<200).map { _ in
            SyncTimestamp(
                milliseconds: Int64.random(in: 0...9_999_999_999_999, using: &generator), counter: UInt32.random(in: 0...5, using: &generator),
                node: ["a", "b", "a-b"].randomElement(using: &generator)!)
        }
        #expect(readings.sorted().map(\.description) == readings.map(\.description).sorted())
        for reading in readings { #expect(SyncTimestamp(reading.description) == reading) }
        #expect(SyncTimestamp("12-00000000-a") == nil)
        #expect(SyncTimestamp("000000000000012-0000000g-a") == nil)
    }
}
