import Foundation
import SwiftData
import Testing
@testable import SwiftDataSync
import SyncTestModels

/// A device whose process died between its two saves, then restarted.
@Suite struct SyncRecoveryTests {
    /// The merge that died had deleted the newest journey; the app, started again, saves a new
    /// journey before the sync runs. The deletion holds, and the new journey is the app's own:
    /// it stays, and reaches the server. (OpenSwiftData's stores and Core Data's never give a
    /// deleted model's row to another; a store that did would find the deleted model's record
    /// let go of it before the app's save is read.)
    @Test func aDeletionAnInterruptedMergeSavedHoldsAndAModelSavedBeforeTheNextSyncStays() async throws {
        let world = try SyncTestWorld()
        let phone = try world.device("phone")
        do {
            let context = phone.context
            context.insert(Journey(title: "kept", departure: .now))
            context.insert(Journey(title: "doomed", departure: .now))
            try context.save()
        }
        try await phone.engine.sync()
        do {
            let server = ModelContext(world.serverContainer)
            for journey in try server.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == "doomed" })) { server.delete(journey) }
            try server.save()
        }
        await phone.engine.simulateFaults(interruption: { _ in throw SimulatedFault.crashed })
        await #expect(throws: SimulatedFault.self) { try await phone.engine.sync() }

        // The process starts again; the app saves before the sync runs.
        await phone.container.close()
        let restarted = try world.device("phone")
        let context = restarted.context
        #expect(try context.fetch(FetchDescriptor<Journey>()).map(\.title) == ["kept"])
        let fresh = Journey(title: "made after the restart", departure: .now)
        context.insert(fresh)
        try context.save()
        try await restarted.engine.sync()

        #expect(Set(try context.fetch(FetchDescriptor<Journey>()).map(\.title)) == ["kept", "made after the restart"])
        let server = ModelContext(world.serverContainer)
        #expect(Set(try server.fetch(FetchDescriptor<Journey>()).map(\.title)) == ["kept", "made after the restart"])
        #expect(try await restarted.engine.snapshot() == world.server.snapshot())
    }
}
