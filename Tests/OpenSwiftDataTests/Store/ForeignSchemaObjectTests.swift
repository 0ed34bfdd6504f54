import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

@Model final class Receipt {
    var title: String
    var amount: Int
    init(title: String, amount: Int) {
        self.title = title
        self.amount = amount
    }
}

/// Store files that hold schema objects OpenSwiftData did not make (added with the `sqlite3`
/// tool, say, to a store sent for support): refused by containers, reported by `osd`, with every
/// file left as it was.
@Suite struct ForeignSchemaObjectTests {
    /// A store of five receipts, to which `sql` adds objects as another tool would.
    private func store(adding sql: String) throws -> URL {
        let url = temporaryStoreURL()
        try writeStore(url, for: Receipt.self) { context in
            for index in 1...5 { context.insert(Receipt(title: "receipt \(index)", amount: index * 100)) }
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        return url
    }

    static let kinds: [(sql: String, object: String)] = [
        (#"CREATE TRIGGER "vanish" AFTER INSERT ON "Receipt" BEGIN DELETE FROM "Receipt" WHERE "_pk" = NEW."_pk"; END"#, #"trigger "vanish" on "Receipt""#),
        (#"CREATE TRIGGER "zero" AFTER UPDATE ON "Receipt" BEGIN UPDATE "Receipt" SET "amount" = 0 WHERE "_pk" = NEW."_pk"; END"#, #"trigger "zero" on "Receipt""#),
        (#"CREATE VIEW "Totals" AS SELECT SUM("amount") AS total FROM "Receipt""#, #"view "Totals""#),
        (#"CREATE TABLE "Notes" ("text" TEXT)"#, #"table "Notes""#),
        (#"CREATE INDEX "Receipt_by_amount" ON "Receipt" ("amount")"#, #"index "Receipt_by_amount" on "Receipt""#),
        // The store's own table, redefined so that saving an amount another receipt has deletes
        // that receipt.
        (#"""
        CREATE TABLE "R2" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "amount" INTEGER NOT NULL UNIQUE ON CONFLICT REPLACE);
        INSERT INTO "R2" SELECT * FROM "Receipt"; DROP TABLE "Receipt"; ALTER TABLE "R2" RENAME TO "Receipt"
        """#, #"table "Receipt" (defined with an ON CONFLICT clause)"#),
    ]

    @Test(arguments: 0..<kinds.count)
    func aContainerRefusesTheStoreNamingTheObject(kind: Int) throws {
        let (sql, object) = Self.kinds[kind]
        let url = try store(adding: sql)
        let before = try storeFiles(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("holds schema objects OpenSwiftData did not make: \(object)"), "\(error)")
        #expect(error.description.contains(object.hasPrefix("table \"Receipt\"") ? "rebuild table" : "DROP "))
        #expect(try storeFiles(url) == before)
        // Read-only too: reads would see what a view or an unknown table stands for.
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func quotedNamesThatSpellClausesAreNotClauses() {
        #expect(ForeignSchemaObjects.actingClauses(
            in: #"CREATE TABLE "Check" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "check" TEXT NOT NULL, "on conflict" INTEGER DEFAULT 'COLLATE')"#,
            allowingReferences: false).isEmpty)
        #expect(ForeignSchemaObjects.actingClauses(
            in: #"CREATE TABLE "T" ("a" INTEGER CHECK (a > 0), "b" TEXT COLLATE NOCASE REFERENCES "U"("_pk"), "c" INTEGER AS (a * 2))"#,
            allowingReferences: false) == ["a CHECK constraint", "a collation", "a generated column", "a foreign key"])
    }

    @Test func theStoreOpensOnceTheObjectsAreRemoved() throws {
        let url = try store(adding: Self.kinds[0].sql)
        #expect(throws: SwiftDataError.self) { try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url)) }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: #"DROP TRIGGER "vanish""#) }
        try queue.close()
        let context = ModelContext(try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url)))
        context.insert(Receipt(title: "kept", amount: 1))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Receipt>()) == 6)
    }

    @Test func aTriggerAddedWhileAContainerIsOpenStopsItsNextSave() throws {
        let url = try store(adding: "SELECT 1")
        let context = ModelContext(try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetchCount(FetchDescriptor<Receipt>()) == 5)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: Self.kinds[0].sql) }
        try queue.close()
        context.insert(Receipt(title: "new", amount: 1))
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        #expect(error.description.contains(#"trigger "vanish" on "Receipt""#))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM Receipt")[0] as Int == 5)
    }

    @Test func osdReportsOrRefusesEveryKindAndChangesNothing() async throws {
        try #require(OSDProcess.isBuilt, "osd is built beside the tests")
        for (sql, object) in Self.kinds {
            let url = try store(adding: sql)
            let before = try storeFiles(url)
            let check = try await OSDProcess.capture(["check", url.path])
            #expect(check.status == 1 && check.output.contains("\(object) was not made by OpenSwiftData"), "\(check)")
            let inspect = try await OSDProcess.capture(["inspect", url.path])
            #expect(inspect.status == 0 && inspect.output.contains("Schema objects OpenSwiftData did not make") && inspect.output.contains(object), "\(inspect)")
            let json = try await OSDProcess.capture(["inspect", "--json", url.path])
            #expect(json.output.contains("foreignObjects"))
            let export = try await OSDProcess.capture(["export", url.path, "--entity", "Receipt"])
            #expect(export.status != 0 && export.errors.contains(object), "\(export)")
            let copy = url.deletingLastPathComponent().appendingPathComponent("copy.store")
            let backup = try await OSDProcess.capture(["backup", url.path, copy.path])
            #expect(backup.status != 0 && backup.errors.contains(object), "\(backup)")
            #expect(!FileManager.default.fileExists(atPath: copy.path))
            // A backup holding the object is not restored over a sound store.
            let sound = url.deletingLastPathComponent().appendingPathComponent("sound.store")
            try writeStore(sound, for: Receipt.self) { $0.insert(Receipt(title: "mine", amount: 1)) }
            let soundBefore = try storeFiles(sound)
            let restore = try await OSDProcess.capture(["restore", url.path, sound.path])
            #expect(restore.status != 0 && restore.errors.contains(object), "\(restore)")
            #expect(try storeFiles(sound) == soundBefore)
            #expect(try storeFiles(url) == before)
        }
    }
}
