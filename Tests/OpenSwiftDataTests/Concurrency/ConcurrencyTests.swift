import Foundation
import GRDB
import Synchronization
import Testing
@testable import OpenSwiftData

// MARK: - Models and actors

@Model
final class SensorReading {
    var sensor: String
    var sequence: Int
    var value: Double
    var note: String?

    init(sensor: String, sequence: Int, value: Double, note: String? = nil) {
        self.sensor = sensor
        self.sequence = sequence
        self.value = value
        self.note = note
    }
}

/// A background importer, written the SwiftData way.
@ModelActor
actor ReadingImporter {
    private var counter = 0

    /// Inserts `batches` × `batchSize` readings, saving after each batch and letting other work
    /// run in between.
    func importBatches(sensor: String, batches: Int, batchSize: Int) async throws -> [PersistentIdentifier] {
        var ids: [PersistentIdentifier] = []
        for batch in 0..<batches {
            var readings: [SensorReading] = []
            for index in 0..<batchSize {
                let reading = SensorReading(sensor: sensor, sequence: batch * batchSize + index, value: Double(index))
                modelContext.insert(reading)
                readings.append(reading)
            }
            try modelContext.save()
            ids += readings.map(\.persistentModelID)
            // A pause between batches, so a reader polling meanwhile sees the store part-way.
            try await Task.sleep(for: .milliseconds(5))
        }
        return ids
    }

    func allReadings() throws -> [ReadingValues] {
        try modelContext.fetch(FetchDescriptor<SensorReading>()).map(ReadingValues.init)
    }

    func values(of id: PersistentIdentifier) -> ReadingValues? {
        self[id, as: SensorReading.self].map(ReadingValues.init)
    }

    func resolvesAsMovie(_ id: PersistentIdentifier) -> Bool {
        self[id, as: Movie.self] != nil
    }

    func resolvesToTheSameObjectTwice(_ id: PersistentIdentifier) -> Bool {
        guard let first = self[id, as: SensorReading.self], let second = self[id, as: SensorReading.self] else { return false }
        return first === second
    }

    /// Changes each reading, saving every `batchSize` readings.
    func update(
        _ ids: [PersistentIdentifier], batchSize: Int, _ change: @Sendable (SensorReading) -> Void
    ) async throws {
        for (index, id) in ids.enumerated() {
            if let reading = self[id, as: SensorReading.self] { change(reading) }
            if (index + 1) % batchSize == 0 {
                try modelContext.save()
                await Task.yield()
            }
        }
        try modelContext.save()
    }

    func update(_ id: PersistentIdentifier, value: Double, andDelete deleted: PersistentIdentifier) throws {
        self[id, as: SensorReading.self]?.value = value
        if let reading = self[deleted, as: SensorReading.self] { modelContext.delete(reading) }
        try modelContext.save()
    }

    func insertOne(sensor: String) throws -> PersistentIdentifier {
        let reading = SensorReading(sensor: sensor, sequence: 0, value: 0)
        modelContext.insert(reading)
        try modelContext.save()
        return reading.persistentModelID
    }

    /// Inserts one reading and does not save: its identifier is temporary.
    func insertUnsaved() -> PersistentIdentifier {
        let reading = SensorReading(sensor: "unsaved", sequence: 0, value: 0)
        modelContext.insert(reading)
        return reading.persistentModelID
    }

    func contextIdentifier() -> ObjectIdentifier { ObjectIdentifier(modelContext) }
    func autosaves() -> Bool { modelContext.autosaveEnabled }
    func runsOnTheMainThread() -> Bool { Thread.isMainThread }

    /// A read-modify-write with a pause in the middle: loses increments unless jobs run one at
    /// a time.
    func increment() -> Int {
        let value = counter
        usleep(50)
        counter = value + 1
        return counter
    }
}

/// An actor whose own initializer sets up its context.
@ModelActor
actor AuthoredWriter {
    let label: String

    init(modelContainer: ModelContainer, label: String) {
        let context = ModelContext(modelContainer)
        context.author = label
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: context)
        self.modelContainer = modelContainer
        self.label = label
    }

    func author() -> String? { modelContext.author }

    func insert(sensor: String) throws -> PersistentIdentifier {
        let reading = SensorReading(sensor: sensor, sequence: 1, value: 1)
        modelContext.insert(reading)
        try modelContext.save()
        return reading.persistentModelID
    }
}

/// An actor conforming by hand, without the macro.
actor HandWrittenModelActor: ModelActor {
    nonisolated let modelContainer: ModelContainer
    nonisolated let modelExecutor: any ModelExecutor

    init(modelContainer: ModelContainer) {
        self.modelContainer = modelContainer
        modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
    }

    func sensor(of id: PersistentIdentifier) -> String? {
        self[id, as: SensorReading.self]?.sensor
    }
}

/// A reading's values, `Sendable`, to compare across actors.
struct ReadingValues: Sendable, Equatable {
    let id: PersistentIdentifier
    let sensor: String
    let sequence: Int
    let value: Double
    let note: String?

    init(_ reading: SensorReading) {
        id = reading.persistentModelID
        sensor = reading.sensor
        sequence = reading.sequence
        value = reading.value
        note = reading.note
    }
}

/// One save notification, as an observer saw it.
struct SaveRecord: Sendable {
    let name: Notification.Name
    let context: ObjectIdentifier?
    let inserted: [PersistentIdentifier]
    let updated: [PersistentIdentifier]
    let deleted: [PersistentIdentifier]
    let onMainThread: Bool
}

/// Raised once, by one task, and seen by another.
private final class Flag: Sendable {
    private let raised = Mutex(false)
    var isRaised: Bool { raised.withLock { $0 } }
    func raise() { raised.withLock { $0 = true } }
}

private func fileContainer(_ url: URL = temporaryStoreURL()) throws -> ModelContainer {
    try ModelContainer(for: SensorReading.self, Movie.self, configurations: ModelConfiguration(url: url))
}

/// Opens another connection to the store file, takes its write lock and keeps it until the
/// returned semaphore is signalled, as another process's long write would.
private func holdWriteLock(_ url: URL) throws -> DispatchSemaphore {
    let connection = try DatabaseQueue(path: url.path)
    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        try? connection.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            locked.signal()
            release.wait()
            try db.execute(sql: "ROLLBACK")
        }
    }
    locked.wait()
    return release
}

// MARK: - Tests

@Suite struct ConcurrencyTests {
    @MainActor @Test func anImporterSavesBatchesWhileTheMainContextReads() async throws {
        let container = try fileContainer()
        let importer = ReadingImporter(modelContainer: container)
        let ended = Flag()
        let importing = Task {
            defer { ended.raise() }
            return try await importer.importBatches(sensor: "a", batches: 20, batchSize: 50)
        }

        // The reader looks until the importer has ended, however long that takes on a loaded
        // machine: after its last save, one more look sees every row.
        var counts: [Int] = []
        while true {
            let importerEnded = ended.isRaised
            let count = try container.mainContext.fetchCount(FetchDescriptor<SensorReading>())
            counts.append(count)
            if count == 1000 || importerEnded { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        let ids = try await importing.value

        // Each batch is one transaction: the main context sees whole batches, never fewer rows
        // than before.
        #expect(counts.last == 1000)
        #expect(counts.contains { 0 < $0 && $0 < 1000 })
        #expect(counts == counts.sorted())
        #expect(counts.allSatisfy { $0 % 50 == 0 })
        let readings = try container.mainContext.fetch(FetchDescriptor<SensorReading>())
        #expect(readings.count == 1000)
        #expect(Set(readings.map(\.persistentModelID)) == Set(ids))
        #expect(Set(readings.map(\.sequence)) == Set(0..<1000))
    }

    @Test func twoImportersOnOneContainerLoseNoWrites() async throws {
        let container = try fileContainer()
        let first = ReadingImporter(modelContainer: container)
        let second = ReadingImporter(modelContainer: container)
        async let firstIDs = first.importBatches(sensor: "first", batches: 25, batchSize: 40)
        async let secondIDs = second.importBatches(sensor: "second", batches: 25, batchSize: 40)
        let (a, b) = try await (firstIDs, secondIDs)

        #expect(a.count == 1000 && b.count == 1000)
        #expect(Set(a).isDisjoint(with: Set(b)))
        let readings = try ModelContext(container).fetch(FetchDescriptor<SensorReading>())
        #expect(readings.count == 2000)
        #expect(readings.filter { $0.sensor == "first" }.count == 1000)
        #expect(Set(readings.filter { $0.sensor == "second" }.map(\.sequence)) == Set(0..<1000))
    }

    @Test func importersOnTwoContainersOfOneFileLoseNoWrites() async throws {
        let url = temporaryStoreURL()
        let firstContainer = try fileContainer(url)
        let first = ReadingImporter(modelContainer: firstContainer)
        async let firstIDs = first.importBatches(sensor: "first", batches: 30, batchSize: 40)

        // The second container opens the file while the first one writes to it.
        let secondContainer = try fileContainer(url)
        let second = ReadingImporter(modelContainer: secondContainer)
        async let secondIDs = second.importBatches(sensor: "second", batches: 30, batchSize: 40)
        let (a, b) = try await (firstIDs, secondIDs)

        #expect(Set(a).isDisjoint(with: Set(b)))
        let fresh = try fileContainer(url)
        let readings = try ModelContext(fresh).fetch(FetchDescriptor<SensorReading>())
        #expect(readings.count == 2400)
        #expect(Set(readings.map(\.persistentModelID)) == Set(a + b))
        #expect(readings.filter { $0.sensor == "first" }.count == 1200)
    }

    @Test func concurrentUpdatesOfDifferentPropertiesFromTwoContainersBothStay() async throws {
        let url = temporaryStoreURL()
        let seeder = ReadingImporter(modelContainer: try fileContainer(url))
        let ids = try await seeder.importBatches(sensor: "s", batches: 4, batchSize: 50)

        let valueWriter = ReadingImporter(modelContainer: try fileContainer(url))
        let noteWriter = ReadingImporter(modelContainer: try fileContainer(url))
        async let values: Void = valueWriter.update(ids, batchSize: 10) { $0.value = 42 }
        async let notes: Void = noteWriter.update(ids.reversed(), batchSize: 10) { $0.note = "checked" }
        _ = try await (values, notes)

        let readings = try ModelContext(try fileContainer(url)).fetch(FetchDescriptor<SensorReading>())
        #expect(readings.count == 200)
        #expect(readings.allSatisfy { $0.value == 42 })
        #expect(readings.allSatisfy { $0.note == "checked" })
    }

    @MainActor @Test func identifiersPassedBetweenActorsResolveOnEachSide() async throws {
        let container = try fileContainer()
        let importer = ReadingImporter(modelContainer: container)
        let editor = ReadingImporter(modelContainer: container)
        let ids = try await importer.importBatches(sensor: "shared", batches: 1, batchSize: 3)

        // Another actor resolves them with self[id, as:], from its own store reads.
        let seen = await editor.values(of: ids[1])
        #expect(seen?.sensor == "shared")
        #expect(seen?.sequence == 1)
        #expect(await editor.resolvesToTheSameObjectTwice(ids[1]))
        try await editor.update(ids[1], value: 7.5, andDelete: ids[2])

        // The main context resolves them with model(for:) and registeredModel(for:).
        let main = container.mainContext
        #expect(main.registeredModel(for: ids[0]) as SensorReading? == nil)
        let reading = try #require(main.model(for: ids[1]) as? SensorReading)
        #expect(reading.value == 7.5)
        #expect(main.registeredModel(for: ids[1]) as SensorReading? === reading)

        // The importer still holds its object for ids[1], with the value it saw; the editor's
        // save shows once a fetch reads the row again.
        #expect(await importer.values(of: ids[1])?.value == 1)
        #expect(try await importer.allReadings().first { $0.id == ids[1] }?.value == 7.5)

        // An identifier survives being encoded, as apps store them.
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(ids[0]))
        #expect(await editor.values(of: decoded)?.sequence == 0)

        // No object for: a deleted row, another entity, an unsaved model of another context,
        // another container's store.
        #expect(await editor.values(of: ids[2]) == nil)
        #expect(await ReadingImporter(modelContainer: container).values(of: ids[2]) == nil)
        // ...but a context that held the object before another one deleted its row keeps it.
        #expect(await importer.values(of: ids[2])?.sequence == 2)
        #expect(await editor.resolvesAsMovie(ids[0]) == false)
        let temporary = await importer.insertUnsaved()
        #expect(await editor.values(of: temporary) == nil)
        let elsewhere = try ModelContainer(
            for: SensorReading.self, Movie.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let foreign = try await ReadingImporter(modelContainer: elsewhere).insertOne(sensor: "elsewhere")
        #expect(await editor.values(of: foreign) == nil)
    }

    @Test func saveNotificationsCarryTheIdentifiersAcrossActors() async throws {
        let container = try fileContainer()
        let importer = ReadingImporter(modelContainer: container)
        let contextID = await importer.contextIdentifier()
        let records = Mutex<[SaveRecord]>([])
        let observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { notification in
                let context = (notification.object as AnyObject?).map(ObjectIdentifier.init)
                guard context == contextID else { return }
                let info = notification.userInfo ?? [:]
                func ids(_ key: ModelContext.NotificationKey) -> [PersistentIdentifier] {
                    info[key.rawValue] as? [PersistentIdentifier] ?? []
                }
                let record = SaveRecord(
                    name: notification.name, context: context,
                    inserted: ids(.insertedIdentifiers), updated: ids(.updatedIdentifiers),
                    deleted: ids(.deletedIdentifiers), onMainThread: Thread.isMainThread)
                records.withLock { $0.append(record) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }

        let ids = try await importer.importBatches(sensor: "n", batches: 1, batchSize: 3)
        try await importer.update(ids[0], value: 9, andDelete: ids[1])

        let seen = records.withLock { $0 }
        #expect(seen.map(\.name) == [ModelContext.willSave, ModelContext.didSave, ModelContext.willSave, ModelContext.didSave])
        #expect(Set(seen[1].inserted) == Set(ids))
        #expect(seen[1].updated.isEmpty && seen[1].deleted.isEmpty)
        #expect(seen[3].inserted.isEmpty)
        #expect(seen[3].updated == [ids[0]])
        #expect(seen[3].deleted == [ids[1]])
        // Posted where the actor saves: on its executor, not the main thread.
        #expect(seen.allSatisfy { !$0.onMainThread })
    }

    @Test func whatAContextSeesOfAnotherActorsSave() async throws {
        let url = temporaryStoreURL()
        let container = try fileContainer(url)
        let writer = ReadingImporter(modelContainer: container)
        let ids = try await writer.importBatches(sensor: "r", batches: 1, batchSize: 4)

        let context = ModelContext(container)
        let held = try context.fetch(FetchDescriptor<SensorReading>())
        let byID = Dictionary(uniqueKeysWithValues: held.map { ($0.persistentModelID, $0) })
        let (r0, r1, r3) = (byID[ids[0]]!, byID[ids[1]]!, byID[ids[3]]!)

        // The other actor changes r0 and r1, deletes r3 and inserts a new reading.
        try await writer.update(ids[0], value: 10, andDelete: ids[3])
        try await writer.update([ids[1]], batchSize: 1) { $0.value = 20 }
        let added = try await writer.insertOne(sensor: "added")

        // No background merge: held objects keep their values until a fetch reads their rows.
        #expect(r0.value == 0 && r1.value == 1)
        #expect(context.model(for: ids[0]) as? SensorReading === r0)
        #expect(r0.value == 0)

        // r1 gets an unsaved change here; then a fetch refreshes everything else it reads.
        r1.note = "mine"
        let fetched = try context.fetch(FetchDescriptor<SensorReading>())
        #expect(Set(fetched.map(\.persistentModelID)) == Set([ids[0], ids[1], ids[2], added]))
        #expect(r0.value == 10)
        #expect(fetched.first { $0.persistentModelID == ids[0] } === r0)
        #expect(r1.value == 1)                 // unsaved changes: not refreshed at all
        #expect(r3.sensor == "r")              // deleted elsewhere: keeps its last values
        #expect(r3.value == 3)
        #expect(added != ids[3])               // and its identifier is never reused

        // Saving r1 writes only the property it changed: the other actor's value stays.
        try context.save()
        let fresh = try ModelContext(try fileContainer(url)).fetch(FetchDescriptor<SensorReading>())
        let stored = try #require(fresh.first { $0.persistentModelID == ids[1] })
        #expect(stored.value == 20)
        #expect(stored.note == "mine")
    }

    @MainActor @Test func theExecutorRunsJobsOneAtATimeOffTheMainThread() async throws {
        let container = try fileContainer()
        let importer = ReadingImporter(modelContainer: container)   // created on the main actor
        #expect(await importer.runsOnTheMainThread() == false)
        #expect(await importer.autosaves() == false)

        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { await importer.increment() }
            }
            var results: [Int] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.sorted() == Array(1...200))
    }

    @Test func aUserWrittenInitAndAHandWrittenConformanceWork() async throws {
        let container = try fileContainer()
        let writer = AuthoredWriter(modelContainer: container, label: "sync")
        #expect(await writer.author() == "sync")
        #expect(writer.label == "sync")
        let id = try await writer.insert(sensor: "authored")

        let manual = HandWrittenModelActor(modelContainer: container)
        #expect(await manual.sensor(of: id) == "authored")
        #expect(manual.modelContainer === container)
    }

    @Test func aSaveWaitsForAnotherConnectionsWrite() async throws {
        let url = temporaryStoreURL()
        let importer = ReadingImporter(modelContainer: try fileContainer(url))
        let release = try holdWriteLock(url)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { release.signal() }
        let start = Date()
        _ = try await importer.insertOne(sensor: "waited")
        #expect(Date().timeIntervalSince(start) > 0.5)
        #expect(try await importer.allReadings().map(\.sensor) == ["waited"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aSaveFailsClearlyWhenTheBusyTimeoutPasses() async throws {
        let url = temporaryStoreURL()
        let importer = ReadingImporter(modelContainer: try fileContainer(url))
        let release = try holdWriteLock(url)

        let start = Date()
        let error = try await #require(throws: SwiftDataError.self) {
            try await importer.insertOne(sensor: "blocked")
        }
        #expect(Date().timeIntervalSince(start) >= SQLiteStore.busyTimeout - 1)
        #expect(error == SwiftDataError.modelValidationFailure)
        #expect(error.explanation?.contains("busy timeout") == true)
        #expect(error.explanation?.contains("nothing was written") == true)

        release.signal()
        // The context kept its changes: saving again writes them.
        _ = try await importer.insertOne(sensor: "after")
        #expect(Set(try await importer.allReadings().map(\.sensor)) == ["blocked", "after"])
    }
}
