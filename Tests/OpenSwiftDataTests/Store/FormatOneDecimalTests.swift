import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

@Model final class FormatOneLedgerLine {
    var label: String
    var amount: Decimal
    var refund: Decimal?

    init(label: String, amount: Decimal, refund: Decimal? = nil) {
        self.label = label
        self.amount = amount
        self.refund = refund
    }
}

/// `Tests/Fixtures/format1-decimals.store` was written by the build before store format 2, with
/// these lines: each `Decimal` stored as its `description`, which SQL cannot compare as numbers.
/// Opening it for writing rewrites them once, as the first step of a migration.
@Suite struct FormatOneDecimalTests {
    static let lines: [(label: String, amount: String, refund: String?)] = [
        ("zero", "0", nil),
        ("one", "1", "-1"),
        ("price", "9.99", "1.50"),
        ("half", "12.5", nil),
        ("thousandth", "-0.001", "0.001"),
        ("long", "12345678901234567890.123456789012345678", nil),
        ("huge", "1e100", "-1e100"),
        ("tiny", "-1e-100", "1e-120"),
        ("hundred", "100", "100.00"),
    ]

    /// A copy of the fixture, alone in a folder of its own.
    func fixtureCopy() throws -> URL {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/format1-decimals.store")
        let url = temporaryStoreURL("format1")
        try FileManager.default.copyItem(at: fixture, to: url)
        return url
    }

    @Test func openingForWritingRewritesTheDecimalsOnceAndKeepsEveryValue() throws {
        let url = try fixtureCopy()
        #expect(try rawRow(url, sql: "SELECT amount FROM FormatOneLedgerLine WHERE label = 'half'")[0] as String == "12.5")
        let container = try ModelContainer(for: FormatOneLedgerLine.self, configurations: ModelConfiguration(url: url))
        let report = try #require(container.migrationReports.first)
        let step = try #require(report.steps.first)
        #expect(report.steps.count == 1)
        #expect(step.fromVersion == "store format 1" && step.toVersion == "store format 2" && step.kind == .lightweight)
        #expect(step.rowChanges.map(\.updated) == [Self.lines.count + Self.lines.filter { $0.refund != nil }.count])
        #expect(report.backupURL == nil)

        let context = ModelContext(container)
        let read = try context.fetch(FetchDescriptor<FormatOneLedgerLine>(sortBy: [SortDescriptor(\.amount)]))
        let expected = Self.lines.sorted { Decimal(string: $0.amount)! < Decimal(string: $1.amount)! }
        #expect(read.map(\.label) == expected.map(\.label))
        for (line, fixture) in zip(read, expected) {
            #expect(line.amount == Decimal(string: fixture.amount)!)
            #expect(line.refund == fixture.refund.map { Decimal(string: $0)! })
        }
        let ten = Decimal(10)
        let above = try context.fetch(FetchDescriptor(predicate: #Predicate<FormatOneLedgerLine> { $0.amount > ten }, sortBy: [SortDescriptor(\.label)]))
        #expect(above.map(\.label) == ["huge", "hundred", "long", "half"].sorted())
        let hundred = Decimal(100)
        let refunds = try context.fetch(FetchDescriptor(predicate: #Predicate<FormatOneLedgerLine> { $0.refund == hundred }))
        #expect(refunds.map(\.label) == ["hundred"])

        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'formatVersion'")[0] as String == "2")
        #expect(try rawRow(url, sql: "SELECT amount FROM FormatOneLedgerLine WHERE label = 'half'")[0] as String == "P501125")
        let history = try rawRow(url, sql: "SELECT fromVersion, toVersion FROM _osd_migrations")
        #expect(history[0] as String == "store format 1" && history[1] as String == "store format 2")
        let reopened = try ModelContainer(for: FormatOneLedgerLine.self, configurations: ModelConfiguration(url: url))
        #expect(reopened.migrationReports.isEmpty)
    }

    @Test func aReadOnlyOpenIsRefusedAndTouchesNothing() throws {
        let url = try fixtureCopy()
        let before = try storeFiles(url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: FormatOneLedgerLine.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        }
        let message = "\(error!)"
        #expect(message.contains("FormatOneLedgerLine.amount, FormatOneLedgerLine.refund"))
        #expect(message.contains("Open it once with a configuration that allows saving"))
        #expect(try storeFiles(url) == before)
    }

    @Test func aValueThatIsNoDecimalStopsTheRewriteAndTouchesNothing() throws {
        let url = try fixtureCopy()
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "UPDATE FormatOneLedgerLine SET refund = 'twelve' WHERE label = 'half'") }
        try queue.close()
        let before = try storeFiles(url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: FormatOneLedgerLine.self, configurations: ModelConfiguration(url: url))
        }
        let message = "\(error!)"
        #expect(message.contains("FormatOneLedgerLine.refund"))
        #expect(message.contains(#"the stored text "twelve" is not a Decimal"#))
        #expect(message.contains("rolled back"))
        #expect(try storeFiles(url) == before)
    }

    /// `osd export` writes a decimal's digits, from a store of either format.
    @Test func exportWritesTheDigitsInEitherFormat() throws {
        let url = try fixtureCopy()
        func exported() throws -> String {
            var lines = ""
            try StoreExport.export(storeAt: url, entity: "FormatOneLedgerLine", format: .csv) { lines += $0 }
            return lines
        }
        let before = try exported()
        #expect(before.contains("half,12.5,"))
        _ = try ModelContainer(for: FormatOneLedgerLine.self, configurations: ModelConfiguration(url: url))
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'formatVersion'")[0] as String == "2")
        #expect(try exported() == before)
    }
}
