import Foundation
import OpenSwiftData
import Testing

// A Swift 6 plan as SwiftData apps write it: a custom stage in a `static let`, whose
// `willMigrate` keeps what it read in a captured local (not `Sendable`) for `didMigrate`.

enum LedgerV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var memo: String
        var cents: Int
        init(memo: String, cents: Int) {
            self.memo = memo
            self.cents = cents
        }
    }
}

enum LedgerV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var memo: String
        var amount: Decimal = 0
        init(memo: String) { self.memo = memo }
    }
}

enum LedgerPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2: MigrationStage = {
        var centsByMemo: [String: Int] = [:]
        return MigrationStage.custom(
            fromVersion: LedgerV1.self, toVersion: LedgerV2.self,
            willMigrate: { context in
                for entry in try context.fetch(FetchDescriptor<LedgerV1.Entry>()) {
                    centsByMemo[entry.memo] = entry.cents
                }
            },
            didMigrate: { context in
                for entry in try context.fetch(FetchDescriptor<LedgerV2.Entry>()) {
                    entry.amount = Decimal(centsByMemo[entry.memo] ?? 0) / 100
                }
                try context.save()
            })
    }()
}

@Suite struct Swift6MigrationPlanTests {
    @Test func aStageCarriesDataFromWillMigrateToDidMigrateInACapturedLocal() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenSwiftDataSwift6Tests-\(UUID().uuidString)").appendingPathComponent("ledger.store")
        do {
            let context = ModelContext(try ModelContainer(for: LedgerV1.Entry.self, configurations: ModelConfiguration(url: url)))
            context.insert(LedgerV1.Entry(memo: "rent", cents: 120_050))
            try context.save()
        }
        let container = try ModelContainer(
            for: LedgerV2.Entry.self, migrationPlan: LedgerPlan.self, configurations: ModelConfiguration(url: url))
        let entries = try ModelContext(container).fetch(FetchDescriptor<LedgerV2.Entry>())
        #expect(entries.map(\.amount) == [Decimal(string: "1200.5")!])
    }
}
