import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// One store opened by an app with its plan and by processes without it (extensions), and a
/// migration meeting another connection that holds the store's write lock. The same with real
/// processes is in SeveralProcessesTests.
@Suite struct SharedStoreMigrationTests {
    private func writeJournalV1(_ url: URL) throws {
        try writeStore(url, for: Schema(versionedSchema: JournalV1.self)) { context in
            context.insert(JournalV1.Note(text: "buy milk"))
            context.insert(JournalV1.Draft(body: "a letter to Ada"))
        }
    }

    @Test func aContainerWithoutThePlanNeverMigratesAVersionedStore() throws {
        let url = temporaryStoreURL()
        try writeJournalV1(url)
        let before = try storeFiles(url)
        // An extension with the newest models and no plan.
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: JournalV3.Note.self, JournalV3.Draft.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("records version 1.0.0 of versioned models"))
        #expect(error.description.contains("Note.isPinned added"))
        #expect(error.description.contains("Open it with the app's SchemaMigrationPlan"))
        #expect(try storeFiles(url) == before)
        // The same with the version's schema and no plan.
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: JournalV3.self), configurations: ModelConfiguration(url: url))
        }
        #expect(try storeFiles(url) == before)

        // Once the app has migrated it (its stage counting words), the extension opens it.
        _ = try ModelContainer(
            for: Schema(versionedSchema: JournalV3.self), migrationPlan: JournalPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(try ModelContainer(for: JournalV3.Note.self, JournalV3.Draft.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<JournalV3.Draft>()).map(\.words) == [4])
    }

    @Test func aStoreNeverVersionedStillMigratesWithoutAPlan() throws {
        // Seed 002: a property with a default added, no version and no plan.
        let url = temporaryStoreURL()
        try writeStore(url, for: JournalV1.Note.self) { $0.insert(JournalV1.Note(text: "call Bob")) }
        let context = ModelContext(try ModelContainer(for: JournalV2.Note.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<JournalV2.Note>()).map(\.isPinned) == [false])
    }

    /// Holds the store's write lock from another connection, as a process migrating it would,
    /// until `release` is called.
    private final class LockHolder: @unchecked Sendable {
        let queue: DatabaseQueue
        init(_ url: URL) throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        }
        func release() {
            try? queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            try? queue.close()
        }
    }

    @Test func anOpenerWaitsForTheLockSayingSoThenMigrates() throws {
        let url = temporaryStoreURL()
        try writeJournalV1(url)
        let holder = try LockHolder(url)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { holder.release() }
        let phases = Recorder<[MigrationProgress.Phase]>([])
        let lock = NSLock()
        let container = try ModelContainer(
            for: Schema(versionedSchema: JournalV2.self), migrationPlan: JournalPlan.self, configurations: [ModelConfiguration(url: url)]
        ) { progress in
            lock.withLock { phases.value.append(progress.phase) }
        }
        let seen = lock.withLock { phases.value }
        #expect(seen.first == .waitingForAnotherProcess)
        #expect(seen.filter { $0 == .waitingForAnotherProcess }.count >= 1)
        #expect(seen.last == .finished)
        #expect(container.migrationReports.count == 1)
        #expect(try ModelContext(container).fetch(FetchDescriptor<JournalV2.Note>()).map(\.isPinned) == [false])
    }

    @Test func anOpenerWithoutThePlanWaitsForTheLockThenLooksAgain() throws {
        let url = temporaryStoreURL()
        try writeJournalV1(url)
        // Held as the app's migration holds it; here nothing changes meanwhile.
        let holder = try LockHolder(url)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { holder.release() }
        let phases = Recorder<[MigrationProgress.Phase]>([])
        let lock = NSLock()
        let started = Date()
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema([JournalV3.Note.self, JournalV3.Draft.self]), configurations: [ModelConfiguration(url: url)]) { progress in
                lock.withLock { phases.value.append(progress.phase) }
            }
        }
        #expect(Date().timeIntervalSince(started) >= 0.9)
        #expect(lock.withLock { phases.value.contains(.waitingForAnotherProcess) })
        #expect(error.description.contains("Open it with the app's SchemaMigrationPlan"))
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0] as String == "1.0.0")
        #expect(try rawColumns(url, table: "Note") == ["_pk", "text"])
    }

    @Test func anOpenerGivesUpAfterItsWaitAndLeavesTheStoreAsItWas() throws {
        let url = temporaryStoreURL()
        try writeJournalV1(url)
        let holder = try LockHolder(url)
        defer { holder.release() }
        var configuration = ModelConfiguration(url: url)
        configuration.migrationWaitTimeout = 0.5
        let started = Date()
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: JournalV2.self), migrationPlan: JournalPlan.self, configurations: configuration)
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(error.description.contains("stayed locked by another connection"))
        #expect(error.description.contains("migrationWaitTimeout"))
        holder.release()
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0] as String == "1.0.0")
        #expect(try rawColumns(url, table: "Note") == ["_pk", "text"])
    }
}
