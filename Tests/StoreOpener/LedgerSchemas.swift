import Foundation
import OpenSwiftData

// A ledger of 60,000 entries whose version 2 adds each entry's amount in units, filled from its
// cents by a custom stage: an opener that stepped over the stage would leave every amount 0.

enum LedgerV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var title: String
        var cents: Int
        init(title: String, cents: Int) {
            self.title = title
            self.cents = cents
        }
    }
}

enum LedgerV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var title: String
        var cents: Int
        var units: Double = 0
        init(title: String, cents: Int) {
            self.title = title
            self.cents = cents
        }
    }
}

enum LedgerPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LedgerV1.self, LedgerV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: LedgerV1.self, toVersion: LedgerV2.self, willMigrate: { _ in
                say("willMigrate")
            }, didMigrate: { context in
                say("didMigrate")
                // A migration that lasts until the test says, so that it can start another
                // process meanwhile, or kill this one in the middle, whatever the machine's load.
                if ProcessInfo.processInfo.environment["STORE_OPENER_HOLD_IN_STAGE"] != nil {
                    say("holding")
                    _ = readLine()
                }
                // A stage that refuses the store, as a plan's own check of the rows would.
                if ProcessInfo.processInfo.environment["STORE_OPENER_FAIL_IN_STAGE"] != nil {
                    throw LedgerStageFailure()
                }
                for entry in try context.fetch(FetchDescriptor<LedgerV2.Entry>()) {
                    entry.units = Double(entry.cents) / 100
                }
                try context.save()
            }),
        ]
    }
}

/// Writes a line to standard output at once, for the test reading it as the process runs.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What the ledger's stage throws when told to fail.
struct LedgerStageFailure: Error, CustomStringConvertible {
    var description: String { "the ledger's stage found entries it cannot convert" }
}
