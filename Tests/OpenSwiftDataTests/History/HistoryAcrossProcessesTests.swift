import Foundation
import Testing
import TestSupport
@testable import OpenSwiftData

/// History on a store several processes share: each process's saves are recorded with its own
/// identifiers, and a reader sees a save another process commits while it reads.
@Suite struct HistoryAcrossProcessesTests {
    @Test func anotherProcessesSavesAreRecordedWithItsIdentifiers() async throws {
        try #require(StoreOpenerProcess.isBuilt, "StoreOpener is built beside the tests")
        let url = temporaryStoreURL("ledger")
        let writer = try StoreOpenerProcess("write-v1", store: url, rows: 3)
        #expect(await writer.finish().status == 0)
        let holder = try StoreOpenerProcess("hold-v1", store: url)
        #expect(await holder.waitForLine(startingWith: "ready") != nil)

        let before = try StoreInspection.persistentHistory(ofStoreAt: url)
        #expect(before.map(\.changes) == [["insert Entry 1", "insert Entry 2", "insert Entry 3"]])
        #expect(before.first?.bundleIdentifier == "StoreOpener")
        #expect(before.first?.processIdentifier != String(ProcessInfo.processInfo.processIdentifier))

        holder.send("save")
        #expect(await holder.waitForLine(startingWith: "saved") != nil)
        #expect(await holder.finish().status == 0)
        let after = try StoreInspection.persistentHistory(ofStoreAt: url, since: before.first?.transaction)
        #expect(after.map(\.changes) == [["insert Entry 4"]])
        #expect(after.first?.processIdentifier != before.first?.processIdentifier)
        #expect(try StoreInspection(storeAt: url).historyTransactions == 2)
    }

    @Test func osdHistoryListsTheTransactions() async throws {
        let url = temporaryStoreURL("memos")
        try writeThreeSaves(into: ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url)))
        let listing = try await OSDProcess.capture(["history", url.path])
        #expect(listing.status == 0)
        #expect(listing.output.contains("by widget"))
        #expect(listing.output.contains("  update Memo 1 (body)"))
        #expect(listing.output.contains(#"  delete Memo 2 {code: "B2"}"#))
        let since = try await OSDProcess.capture(["history", url.path, "--since", "2"])
        #expect(!since.output.contains("update Memo"))
        #expect(since.output.contains("delete Memo 2"))
    }
}
