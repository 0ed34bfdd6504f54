import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// The recorded schema is read from the file, which may come from anywhere: a metadata table
/// that is huge, deeply nested, not JSON, of other types, or names tables the file lacks gives
/// an error naming the problem, never a crash, and the file is left as it was.
@Suite struct CraftedMetadataTests {
    /// A store of two receipts whose metadata `sql` then changes, as another tool would.
    private func store(changing sql: String, arguments: StatementArguments = []) throws -> URL {
        let url = temporaryStoreURL()
        try writeStore(url, for: Receipt.self) { context in
            context.insert(Receipt(title: "a", amount: 1))
            context.insert(Receipt(title: "b", amount: 2))
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: sql, arguments: arguments) }
        try queue.close()
        return url
    }

    /// The refusal of a container whose models are not the store's (so the recorded schema is
    /// read to plan a migration), after checking that `osd inspect`'s reading refuses too and
    /// that neither wrote anything.
    private func refusal(_ url: URL) throws -> String {
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: LaterReceipts.Receipt.self, configurations: ModelConfiguration(url: url))
        }
        #expect(try storeFiles(url) == before)
        #expect(throws: SwiftDataError.self) { try StoreInspection(storeAt: url) }
        #expect(try storeFiles(url) == before)
        return error.description
    }

    @Test func aSchemaThatIsNotJSONIsNamed() throws {
        let url = try store(changing: "UPDATE _osd_metadata SET value = 'not json at all' WHERE key = 'schema'")
        #expect(try refusal(url).contains("records cannot be read"))
    }

    @Test func aDeeplyNestedSchemaIsRefusedInBoundedTime() throws {
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let url = try store(changing: "UPDATE _osd_metadata SET value = ? WHERE key = 'schema'", arguments: [nested])
        let started = Date()
        #expect(try refusal(url).contains("records cannot be read"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aSchemaOfTheWrongShapeSaysWhere() throws {
        let url = try store(changing: #"UPDATE _osd_metadata SET value = '{"encodingVersion":{"major":1,"minor":0,"patch":0},"version":{"major":1,"minor":0,"patch":0},"entities":[{"name":42}]}' WHERE key = 'schema'"#)
        let message = try refusal(url)
        #expect(message.contains("records cannot be read"))
        #expect(message.contains("entities.0"))
    }

    @Test func aHugeValueIsNotLoaded() throws {
        // 80 MB, beyond the 64 MB a value may have: SQLite refuses it as it is read.
        let url = try store(changing: "UPDATE _osd_metadata SET value = CAST(zeroblob(80000000) AS TEXT) WHERE key = 'schema'")
        #expect(try refusal(url).contains("holds a value of more than 64 MB"))
    }

    @Test func valuesThatAreNotTextAndTooManyRowsAreRefused() throws {
        let blob = try store(changing: "UPDATE _osd_metadata SET value = x'00ff' WHERE key = 'fingerprint'")
        #expect(try refusal(blob).contains("not text"))
        let blobKey = try store(changing: "INSERT INTO _osd_metadata (key, value) VALUES (x'07', 'seven')")
        #expect(try refusal(blobKey).contains("not text"))
        let many = try store(changing: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO _osd_metadata (key, value) SELECT 'extra' || i, 'x' FROM n")
        #expect(try refusal(many).contains("has 105 rows"))
    }

    @Test func aRecordedEntityWithoutItsTableIsNamed() throws {
        let url = try store(changing: #"CREATE TABLE "Gone" AS SELECT * FROM "Receipt"; DROP TABLE "Receipt""#)
        let before = try storeFiles(url)
        // The models' own structure: the recorded schema is trusted, and the file's tables are not
        // what it names.
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains(#"table "Gone""#))
        let dropped = try store(changing: #"DROP TABLE "Receipt""#)
        let missing = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: dropped))
        }
        #expect(missing.description.contains(#"records a schema whose tables it does not have: "Receipt""#))
        #expect(try StoreInspection.problems(inStoreAt: dropped).contains("entity Receipt has no table"))
        #expect(try storeFiles(url) == before)
    }

    @Test func aStoreWhoseRecordedSchemaIsDamagedStillOpensWithItsOwnModels() throws {
        // The models' structure is the recorded fingerprint's, so the damaged snapshot is not
        // read; what the tables hold is read through the models.
        let url = try store(changing: "UPDATE _osd_metadata SET value = 'not json' WHERE key = 'schema'")
        let context = ModelContext(try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetchCount(FetchDescriptor<Receipt>()) == 2)
    }
}

enum LaterReceipts {
    @Model final class Receipt {
        var title: String
        var amount: Int
        var note: String?
        init(title: String, amount: Int) {
            self.title = title
            self.amount = amount
        }
    }
}
