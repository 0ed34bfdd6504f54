import Foundation
import Synchronization
import Testing
@testable import OpenSwiftData

/// `container.perform`: synchronous context work from async code, on the container's own
/// threads.
@Suite struct PerformTests {
    @Test func workRunsOnTheContainersThreadsAndItsSavesAreSeen() async throws {
        let url = temporaryStoreURL()
        let container = try ModelContainer(for: SensorReading.self, configurations: ModelConfiguration(url: url))
        let threadNames = ThreadNames()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for sensor in 0..<8 {
                let name = "s\(sensor)"
                group.addTask {
                    try await container.perform { context in
                        threadNames.record()
                        for sequence in 0..<25 { context.insert(SensorReading(sensor: name, sequence: sequence, value: 1)) }
                        try context.save()
                        return try context.fetchCount(FetchDescriptor<SensorReading>(predicate: #Predicate { $0.sensor == name }))
                    }
                }
            }
            for try await count in group { #expect(count == 25) }
        }
        #expect(threadNames.seen.allSatisfy { $0.label == "osd-perform" })
        #expect(threadNames.seen.count <= container.workerThreads.count)
        let reopened = ModelContext(try ModelContainer(for: SensorReading.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetchCount(FetchDescriptor<SensorReading>()) == 200)
    }

    @Test func whatTheWorkThrowsReachesTheCaller() async throws {
        let container = try ModelContainer(for: SensorReading.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        await #expect(throws: SwiftDataError.self) {
            try await container.perform { context in
                try context.fetch(FetchDescriptor<Sketch>()).count
            }
        }
    }
}

/// The threads work ran on (which worker threads' label, if any), from any thread.
private final class ThreadNames: Sendable {
    private let threads = Mutex<[ObjectIdentifier: String?]>([:])

    func record() {
        let thread = ObjectIdentifier(Thread.current)
        let label = WorkerThreads.currentLabel
        threads.withLock { $0[thread] = label }
    }

    var seen: [(thread: ObjectIdentifier, label: String?)] { threads.withLock { $0.map { ($0.key, $0.value) } } }
}
