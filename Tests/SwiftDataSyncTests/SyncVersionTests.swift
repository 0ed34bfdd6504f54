import Foundation
import SwiftData
import Testing
@testable import SwiftDataSync

/// Version 1 of a trip planner's models.
enum TripsV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        var stops: Int
        init(name: String, stops: Int) {
            self.name = name
            self.stops = stops
        }
    }
}

/// Version 2 adds a defaulted attribute and an entity: an expand step.
enum TripsV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Guide.self] }

    @Model final class Trip {
        var name: String
        var stops: Int
        var packingNote: String = ""
        init(name: String, stops: Int) {
            self.name = name
            self.stops = stops
        }
    }

    @Model final class Guide {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// Version 3 renames an attribute: a contract step, which devices of version 2 cannot follow.
enum TripsV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, Guide.self] }

    @Model final class Trip {
        var name: String
        @Attribute(originalName: "stops") var stopCount: Int
        var packingNote: String = ""
        init(name: String, stopCount: Int) {
            self.name = name
            self.stopCount = stopCount
        }
    }

    @Model final class Guide {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum TripsToV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self)] }
}

enum TripsToV3: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: TripsV1.self, toVersion: TripsV2.self), .lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self)]
    }
}

/// Devices running different versions of an app, syncing through one server.
@Suite struct SyncVersionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-versions-\(UUID().uuidString)")

    private func server<Plan: SchemaMigrationPlan>(_ version: any VersionedSchema.Type, plan: Plan.Type) throws -> (SyncServer, ModelContainer) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let container = try ModelContainer(
            for: Schema(versionedSchema: version), migrationPlan: plan,
            configurations: ModelConfiguration(url: folder.appendingPathComponent("server.store")))
        let ledger = try ModelContainer(for: SyncServer.ledgerSchema, configurations: ModelConfiguration(url: folder.appendingPathComponent("server-sync.store")))
        return (try SyncServer(container: container, models: version.models, ledger: ledger, migrationPlan: plan), container)
    }

    private func device<Plan: SchemaMigrationPlan>(_ name: String, _ version: any VersionedSchema.Type, plan: Plan.Type, server: SyncServer) throws -> (SyncEngine, ModelContainer) {
        let container = try ModelContainer(
            for: Schema(versionedSchema: version), migrationPlan: plan,
            configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
        let engine = try SyncEngine(
            container: container, models: version.models, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
            transport: LoopbackTransport(server: server), node: name)
        return (engine, container)
    }

    @Test func anOldDeviceAndANewOneEditTheSameModelsAndTheOldOneNeverClearsWhatItDoesNotKnow() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, serverContainer) = try server(TripsV2.self, plan: TripsToV2.self)
        var (old, oldContainer) = try device("old", TripsV1.self, plan: TripsToV2.self, server: server)
        let (new, newContainer) = try device("new", TripsV2.self, plan: TripsToV2.self, server: server)
        #expect(old.schemaVersion == "1.0.0" && new.schemaVersion == "2.0.0")

        do {
            let context = ModelContext(oldContainer)
            context.insert(TripsV1.Trip(name: "Lisbon", stops: 2))
            try context.save()
        }
        try await old.sync()
        try await new.sync()
        do {
            let context = ModelContext(newContainer)
            let trip = try #require(try context.fetch(FetchDescriptor<TripsV2.Trip>()).first)
            #expect(trip.name == "Lisbon" && trip.stops == 2 && trip.packingNote == "")
            trip.packingNote = "pack light"
            trip.stops = 3
            context.insert(TripsV2.Guide(name: "Ana"))
            try context.save()
        }
        try await new.sync()
        try await old.sync()
        do {
            let context = ModelContext(oldContainer)
            let trip = try #require(try context.fetch(FetchDescriptor<TripsV1.Trip>()).first)
            #expect(trip.stops == 3)
            trip.name = "Lisboa"
            try context.save()
        }
        // What the old device was sent holds nothing of version 2's.
        let oldView = try await old.snapshot()
        #expect(oldView.values.map(\.entity) == ["Trip"])
        #expect(oldView.values.first?.values["packingNote"] == nil)
        try await old.sync()
        try await new.sync()
        do {
            let context = ModelContext(newContainer)
            let trip = try #require(try context.fetch(FetchDescriptor<TripsV2.Trip>()).first)
            #expect(trip.name == "Lisboa" && trip.stops == 3 && trip.packingNote == "pack light")
        }
        do {
            let context = ModelContext(serverContainer)
            let trip = try #require(try context.fetch(FetchDescriptor<TripsV2.Trip>()).first)
            #expect(trip.name == "Lisboa" && trip.packingNote == "pack light")
        }

        // The old device edits offline, then its app is updated: its store migrates to version 2
        // and its sync state (identifiers, the change not yet sent, the cursor) carries over.
        do {
            let context = ModelContext(oldContainer)
            let trip = try #require(try context.fetch(FetchDescriptor<TripsV1.Trip>()).first)
            trip.stops = 4
            try context.save()
        }
        old = try await { () async throws -> SyncEngine in
            await oldContainer.close()
            let updated = try device("old", TripsV2.self, plan: TripsToV2.self, server: server)
            oldContainer = updated.1
            return updated.0
        }()
        #expect(try await old.pendingChangeCount() == 1)
        try await old.sync()
        try await new.sync()
        do {
            let context = ModelContext(oldContainer)
            let trips = try context.fetch(FetchDescriptor<TripsV2.Trip>())
            #expect(trips.count == 1)
            #expect(trips.first.map { "\($0.name) \($0.stops) \($0.packingNote)" } == "Lisboa 4 pack light")
            #expect(try context.fetch(FetchDescriptor<TripsV2.Guide>()).map(\.name) == ["Ana"])
        }
        let serverView = try server.snapshot()
        #expect(try await old.snapshot() == serverView)
        #expect(try await new.snapshot() == serverView)
        #expect(serverView.count == 2)
    }

    @Test func aDeviceNewerThanTheServerIsRefusedWithAMessageForItsUser() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _) = try server(TripsV2.self, plan: TripsToV2.self)
        let (newer, _) = try device("newer", TripsV3.self, plan: TripsToV3.self, server: server)
        let refusal = try #require(await #expect(throws: SyncRefusal.self) { try await newer.sync() })
        #expect(refusal.status == 409)
        #expect(refusal.message.contains("newer than its server (2.0.0)"), "\(refusal.message)")
        let shown = await MainActor.run { newer.status.lastError }
        #expect(shown?.contains("must be updated") == true, "\(shown ?? "nil")")
    }

    @Test func aDeviceOlderThanAContractStepIsRefusedSayingWhy() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _) = try server(TripsV3.self, plan: TripsToV3.self)
        let (older, _) = try device("older", TripsV2.self, plan: TripsToV3.self, server: server)
        let refusal = try #require(await #expect(throws: SyncRefusal.self) { try await older.sync() })
        #expect(refusal.status == 426)
        #expect(refusal.message.contains("data version 2.0.0") && refusal.message.contains("stops"), "\(refusal.message)")
        // The device's own version syncs.
        let (current, container) = try device("current", TripsV3.self, plan: TripsToV3.self, server: server)
        let context = ModelContext(container)
        context.insert(TripsV3.Trip(name: "Porto", stopCount: 1))
        try context.save()
        #expect(try await current.sync().pushed == 1)
    }
}
