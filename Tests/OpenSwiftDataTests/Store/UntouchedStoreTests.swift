import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// An open that migrates nothing and saves nothing leaves every file of the store as it was,
/// and a refused open or migration leaves no trace.
@Suite struct UntouchedStoreTests {
    private func writeMovies(_ url: URL) throws {
        try writeStore(url, for: Movie.self) { context in
            context.insert(Movie(title: "Up", year: 2009, rating: 8.3))
            context.insert(Movie(title: "Coco", year: 2017, rating: 8.4))
        }
    }

    @Test func reopeningAnUpToDateStoreAndFetchingWritesNothing() throws {
        let url = temporaryStoreURL()
        try writeMovies(url)
        let before = try storeFiles(url)
        #expect(before.keys.sorted() == [""])
        for _ in 0..<2 {
            let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            #expect(try context.fetch(FetchDescriptor<Movie>(sortBy: [SortDescriptor(\.year)])).map(\.title) == ["Up", "Coco"])
            #expect(try context.fetchCount(FetchDescriptor<Movie>()) == 2)
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func reopeningAnUpToDateStoreWithAPlanWritesNothing() throws {
        let url = temporaryStoreURL()
        do {
            let context = ModelContext(
                try ModelContainer(for: ShopV2.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url)))
            context.insert(ShopV2.Order(customer: "Ada", total: 3))
            try context.save()
        }
        let before = try storeFiles(url)
        do {
            let container = try ModelContainer(for: ShopV2.Order.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url))
            #expect(try ModelContext(container).fetch(FetchDescriptor<ShopV2.Order>()).map(\.customer) == ["Ada"])
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func openingAStoreReadOnlyWritesNothing() throws {
        let url = temporaryStoreURL()
        try writeMovies(url)
        let before = try storeFiles(url)
        do {
            let container = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url, allowsSave: false))
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<Movie>()) == 2)
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func savingAfterReopeningStillWorksAndIsSeenByOthers() throws {
        let url = temporaryStoreURL()
        try writeMovies(url)
        let first = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let second = try ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(first)
        context.insert(Movie(title: "Luca", year: 2021, rating: 7.4))
        try context.save()
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<Movie>()) == 3)
        #expect(try rawRow(url, sql: "PRAGMA journal_mode")[0] as String == "wal")
    }

    @Test func openingADamagedStoreWritesNothingToIt() throws {
        let url = temporaryStoreURL()
        try writeMovies(url)
        // A page of the movies' table garbled, the header and the metadata's pages intact.
        var bytes = try Data(contentsOf: url)
        let pageSize = 4096
        for index in (bytes.count - pageSize)..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: url)
        let before = try storeFiles(url)
        if let container = try? ModelContainer(for: Movie.self, configurations: ModelConfiguration(url: url)) {
            _ = try? ModelContext(container).fetch(FetchDescriptor<Movie>())
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func aRefusedOpenOfAnotherSchemaLeavesNoTrace() throws {
        let url = temporaryStoreURL()
        try writeMovies(url)
        let before = try storeFiles(url)
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Movie.self, migrationPlan: ShopPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: ShopV1.Order.self, migrationPlan: ShopV1OnlyPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(try storeFiles(url) == before)
    }

    @Test func aRefusedMigrationLeavesNoBackup() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: CounterSchemaV1.Tally.self) { context in
            context.insert(CounterSchemaV1.Tally(name: "b", count: nil))
        }
        let before = try storeFiles(url)
        let refused = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: CounterSchemaV2WithoutDefault.Tally.self, configurations: ModelConfiguration(url: url))
        }
        #expect(refused.description.contains("1 row has no value"))
        #expect(try storeFiles(url) == before)
    }

    @Test func aFailedMigrationKeepsTheEarlierBackup() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: CounterSchemaV1.Tally.self) { context in
            context.insert(CounterSchemaV1.Tally(name: "b", count: nil))
        }
        let earlierBackup = Data("an earlier backup".utf8)
        try earlierBackup.write(to: MigrationConnection.backupURL(of: url))
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: CounterSchemaV2WithoutDefault.Tally.self, configurations: ModelConfiguration(url: url))
        }
        #expect(try Data(contentsOf: MigrationConnection.backupURL(of: url)) == earlierBackup)
    }
}
