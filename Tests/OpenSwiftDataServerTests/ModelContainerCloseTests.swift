import Foundation
import OpenSwiftData
import Testing
import TestSupport

/// `close()` lets the work in flight finish, then refuses new work, saying why.
@Suite struct ModelContainerCloseTests {
    @Test func closeWaitsForTheWorkInFlightThenRefusesNewWork() async throws {
        let container = try serverTestContainer()
        let started = AsyncStream<Void>.makeStream()
        let inFlight = Task {
            try await container.perform { context -> Int in
                started.continuation.yield()
                Thread.sleep(forTimeInterval: 0.3)
                context.insert(Note(slug: "late", title: "Saved while closing"))
                try context.save()
                return try context.fetchCount(FetchDescriptor<Note>())
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        await container.close()
        // close() returned only after the save in flight was done.
        #expect(try await inFlight.value == 1)
        let error = await #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try await container.perform { try $0.fetchCount(FetchDescriptor<Note>()) }
        }
        #expect(error?.description.contains("closed") == true)
        // Closing again does nothing more; on PostgreSQL, a context made directly finds its
        // store's connections closed (an SQLite file closes when released).
        await container.close()
        if PostgresTestServer.isAvailable {
            #expect(throws: SwiftDataError.loadIssueModelContainer) { try ModelContext(container).fetchCount(FetchDescriptor<Note>()) }
        }
    }
}
