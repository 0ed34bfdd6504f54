import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// Every connection OpenSwiftData opens is defensive: a file's schema cannot call the library's
/// SQL functions, the schema table cannot be written, extensions cannot be loaded.
@Suite struct DefensiveConnectionTests {
    @Test func aStoresConnectionsRefuseSchemaTricks() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Receipt.self) { $0.insert(Receipt(title: "a", amount: 1)) }
        let container = try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url))
        let store = try #require(container.stores.first as? SQLiteStore)
        let trusted = try store.read { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") }
        #expect(trusted == 0)
        let loaded = Result { try store.read { db in try db.execute(sql: "SELECT load_extension('libm.so.6')") } }
        #expect(throws: (any Error).self) { try loaded.get() }
        // Defensive mode ignores writable_schema, so the schema table stays read-only.
        let rewritten = Result {
            try store.write { db in
                try db.execute(sql: "PRAGMA writable_schema = ON")
                try db.execute(sql: "UPDATE sqlite_master SET sql = 'CREATE TABLE x (y)' WHERE name = 'Receipt'")
            }
        }
        #expect(throws: (any Error).self) { try rewritten.get() }
    }

    @Test func aViewInTheFileCannotCallTheLibrarysFunctions() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Receipt.self) { $0.insert(Receipt(title: "a", amount: 1)) }
        let container = try ModelContainer(for: Receipt.self, configurations: ModelConfiguration(url: url))
        let store = try #require(container.stores.first as? SQLiteStore)
        // The function works in the connection's own queries...
        let count = try store.read { db in try Int.fetchOne(db, sql: #"SELECT osd_character_count("title") FROM "Receipt""#) }
        #expect(count == 1)
        // ...but not from the file's schema (a view a crafted file could hold).
        let throughView = Result {
            try store.write { db in
                try db.execute(sql: #"CREATE VIEW "crafted" AS SELECT osd_character_count("title") AS n FROM "Receipt""#)
                defer { try? db.execute(sql: #"DROP VIEW "crafted""#) }
                return try Int.fetchOne(db, sql: #"SELECT n FROM "crafted""#)
            }
        }
        let error = try #require(throws: DatabaseError.self) { try throughView.get() }
        #expect(error.message?.contains("unsafe use of osd_character_count") == true, "\(error)")
    }
}
