import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// A store records the version of the plan its models match, so that an older build of the app
/// refuses it instead of taking it for its own version and dropping what it does not know.
@Suite struct StoreVersionIdentityTests {
    private func recordedVersion(_ url: URL) throws -> String {
        try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'")[0]
    }

    private func writeShopV2Store(_ url: URL) throws {
        let container = try ModelContainer(
            for: ShopV2.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(ShopV2.Order(customer: "Ada", total: 12.5))
        try context.save()
    }

    @Test func aStoreCreatedWithAPlanRecordsTheVersionItsModelsMatch() throws {
        let url = temporaryStoreURL()
        try writeShopV2Store(url)
        #expect(try recordedVersion(url) == "2.0.0")
    }

    @Test func aStoreMigratedByAPlanRecordsTheVersionItReached() throws {
        let url = temporaryStoreURL()
        let context = ModelContext(try ModelContainer(
            for: ShopV1.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url)))
        context.insert(ShopV1.Order(customer: "Ada"))
        try context.save()
        #expect(try recordedVersion(url) == "1.0.0")
        let migrated = try ModelContainer(for: ShopV2.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try recordedVersion(url) == "2.0.0")
        #expect(try ModelContext(migrated).fetch(FetchDescriptor<ShopV2.Order>()).map(\.customer) == ["Ada"])
    }

    @Test func anOlderAppRefusesANewerStoreAndLeavesItsFilesAsTheyWere() throws {
        let url = temporaryStoreURL()
        try writeShopV2Store(url)
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(
                for: ShopV1.Order.self, migrationPlan: ShopV1OnlyPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("2.0.0"))
        #expect(error.description.contains("ShopV1 (1.0.0)"))
        #expect(error.description.contains("left untouched"))
        #expect(try storeFiles(url) == before)
        // The newer app still finds every total.
        let container = try ModelContainer(
            for: ShopV2.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(container).fetch(FetchDescriptor<ShopV2.Order>()).map(\.total) == [12.5])
    }

    @Test func anOlderAppWithoutAPlanRefusesANewerStore() throws {
        let url = temporaryStoreURL()
        try writeShopV2Store(url)
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: ShopV1.self), configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("2.0.0"))
        #expect(try storeFiles(url) == before)
    }

    /// A store that records 1.0.0 with a total (written by models without a plan) opened by the
    /// build whose version 1 has no total: the edited-version repair drops `total` only after
    /// copying the store beside itself.
    @Test func repairingAnEditedVersionKeepsWhatItDropsInTheBackup() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: ShopV2.Order.self) { context in
            context.insert(ShopV2.Order(customer: "Ada", total: 12.5))
        }
        #expect(try recordedVersion(url) == "1.0.0")
        let container = try ModelContainer(
            for: ShopV1.Order.self, migrationPlan: ShopV1OnlyPlan.self, configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(container).fetch(FetchDescriptor<ShopV1.Order>()).map(\.customer) == ["Ada"])
        let backup = MigrationConnection.backupURL(of: url)
        #expect(try rawRow(backup, sql: "SELECT total FROM \"Order\"")[0] as Double == 12.5)
    }

    @Test func repairingAnEditedVersionThatDropsValuesIsRefusedWithoutBackups() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: ShopV2.Order.self) { context in
            context.insert(ShopV2.Order(customer: "Ada", total: 12.5))
        }
        let before = try storeFiles(url)
        var configuration = ModelConfiguration(url: url)
        configuration.backsUpBeforeMigrating = false
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: ShopV1.Order.self, migrationPlan: ShopV1OnlyPlan.self, configurations: configuration)
        }
        #expect(error.description.contains("Order.total removed"))
        #expect(error.description.contains("backsUpBeforeMigrating"))
        #expect(try storeFiles(url) == before)
    }
}
