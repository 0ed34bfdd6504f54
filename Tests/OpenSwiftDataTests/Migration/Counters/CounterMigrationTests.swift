import Foundation
import Testing
@testable import OpenSwiftData

extension MigrationTests {
    @Test func aRebuiltTableNeverReusesADeletedRowsKey() throws {
        let url = temporaryStoreURL()
        var deletedID: PersistentIdentifier?
        do {
            let context = ModelContext(try ModelContainer(for: CounterSchemaV1.Tally.self, configurations: ModelConfiguration(url: url)))
            let keep = CounterSchemaV1.Tally(name: "keep", count: 1)
            let drop = CounterSchemaV1.Tally(name: "drop", count: 2)
            context.insert(keep)
            context.insert(drop)
            try context.save()
            deletedID = drop.persistentModelID
            context.delete(drop)
            try context.save()
        }
        // An optional becoming non-optional cannot be done with ALTER TABLE: the table is rebuilt.
        let context = ModelContext(try ModelContainer(for: CounterSchemaV2.Tally.self, configurations: ModelConfiguration(url: url)))
        let migrationSQL: String = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0]
        #expect(migrationSQL.contains("ALTER TABLE \"_osd_new_Tally\" RENAME TO \"Tally\""))
        let tally = CounterSchemaV2.Tally(name: "new")
        context.insert(tally)
        try context.save()
        #expect(try #require(tally.persistentModelID.rowID) > (try #require(deletedID?.rowID)))
    }

    @Test func anOptionalBecomesNonOptionalWithItsDefaultFillingNils() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: CounterSchemaV1.Tally.self) { context in
            context.insert(CounterSchemaV1.Tally(name: "a", count: 3))
            context.insert(CounterSchemaV1.Tally(name: "b", count: nil))
        }
        let refused = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: CounterSchemaV2WithoutDefault.Tally.self, configurations: ModelConfiguration(url: url))
        }
        #expect(refused.description.contains("Tally.count becomes non-optional"))
        #expect(refused.description.contains("1 row has no value"))

        let container = try ModelContainer(for: CounterSchemaV2.Tally.self, configurations: ModelConfiguration(url: url))
        let tallies = try ModelContext(container).fetch(FetchDescriptor<CounterSchemaV2.Tally>(sortBy: [SortDescriptor(\.name)]))
        #expect(tallies.map(\.count) == [3, 7])
    }
}
