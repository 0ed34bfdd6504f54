import Foundation
import GRDB
import Testing
@testable import OpenSwiftData

/// An app, its widget and its extensions (or several servers) opening one store at once, each a
/// real process: a migration runs once, under the store's write lock, by a process that has the
/// plan; the others wait and open what it left, or refuse with an explanation; nobody reads or
/// writes the store with the wrong structure. Every scenario runs 20 times, on a ledger of
/// 60,000 entries whose custom stage fills each entry's units from its cents.
@Suite(.serialized) struct SeveralProcessesTests {
    static let trials = 20
    static let entries = 60_000

    /// A version 1 ledger, written once by a process and copied for each trial.
    static let seeding = Task<URL?, Never> {
        guard StoreOpenerProcess.isBuilt else { return nil }
        let url = temporaryStoreURL("ledger-seed")
        guard let writer = try? StoreOpenerProcess("write-v1", store: url, rows: entries), await writer.finish().status == 0 else { return nil }
        return url
    }

    /// A fresh copy of the seeded ledger, alone in a folder of its own.
    private func trialStore() async throws -> URL {
        let seeded = try #require(await Self.seeding.value, "StoreOpener is built beside the tests and wrote the seed")
        let url = temporaryStoreURL("ledger")
        try FileManager.default.copyItem(at: seeded, to: url)
        return url
    }

    /// What the store holds once every process has ended: its recorded version, the migrations
    /// its history records, the entries whose units are not their cents in units, its entries,
    /// and the files of its folder.
    private func outcome(_ url: URL) throws -> (version: String, migrations: Int, wrong: Int, entries: Int, files: [String]) {
        let queue = try DatabaseQueue(path: url.path, configuration: SQLiteStore.queryOnly())
        defer { try? queue.close() }
        let (version, migrations, wrong, entries) = try queue.read { db in
            let version = try String.fetchOne(db, sql: "SELECT value FROM _osd_metadata WHERE key = 'versionIdentifier'") ?? ""
            let migrations = try db.tableExists("_osd_migrations") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM _osd_migrations") ?? 0 : 0
            let hasUnits = try db.columns(in: "Entry").contains { $0.name == "units" }
            let wrong = hasUnits ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Entry WHERE units != cents / 100.0") ?? 0 : -1
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Entry") ?? 0
            return (version, migrations, wrong, entries)
        }
        try queue.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
        return (version, migrations, wrong, entries, files)
    }

    private func expectMigratedOnce(_ url: URL, trial: Int) throws {
        let store = try outcome(url)
        #expect(store.version == "2.0.0", "trial \(trial)")
        #expect(store.migrations == 1, "trial \(trial): the custom stage's step committed \(store.migrations) times")
        #expect(store.wrong == 0, "trial \(trial): \(store.wrong) entries lack their units")
        #expect(store.entries == Self.entries, "trial \(trial)")
        let name = url.lastPathComponent
        #expect(store.files == [name, name + ".backup"], "trial \(trial): \(store.files)")
    }

    private static let widgetRefusal = "Open it with the app's SchemaMigrationPlan"

    @Test func fourAppProcessesAndAWidgetOpenAtOnce() async throws {
        var waited = 0, widgetOpened = 0, widgetRefused = 0
        var milliseconds: [Int] = []
        for trial in 1...Self.trials {
            let url = try await trialStore()
            let apps = try (1...4).map { _ in try StoreOpenerProcess("open-app", store: url) }
            try await Task.sleep(for: .milliseconds(30))
            let widget = try StoreOpenerProcess("open-widget", store: url)
            var stages = 0
            for app in apps {
                let (status, lines) = await app.finish()
                #expect(status == 0, "trial \(trial): \(lines)")
                #expect(lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(lines)")
                stages += lines.filter { $0 == "didMigrate" }.count
                if lines.contains("waiting") { waited += 1 }
                if let line = lines.first(where: { $0.hasPrefix("migrated in ") }) {
                    milliseconds.append(Int(line.split(separator: " ")[2]) ?? 0)
                }
            }
            #expect(stages == 1, "trial \(trial): the custom stage ran in \(stages) processes")
            let (status, lines) = await widget.finish()
            if status == 0 {
                #expect(lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(lines)")
                widgetOpened += 1
            } else {
                #expect(status == 3 && lines.last?.contains(Self.widgetRefusal) == true, "trial \(trial): \(lines)")
                widgetRefused += 1
            }
            try expectMigratedOnce(url, trial: trial)
        }
        #expect(widgetOpened + widgetRefused == Self.trials)
        // Long enough for the others to meet it: at least 200 ms each time.
        #expect(milliseconds.count == Self.trials && milliseconds.allSatisfy { $0 >= 200 }, "\(milliseconds)")
        #expect(waited >= Self.trials, "at least one app process waited for another in each trial (\(waited) waits)")
        print("4 apps + widget, \(Self.trials) trials: every app opened the migrated store; migrations took \(milliseconds.min() ?? 0)-\(milliseconds.max() ?? 0) ms; \(waited) app openings waited for another process; the widget opened \(widgetOpened) times and refused \(widgetRefused) times")
    }

    @Test func aWidgetOpeningWhileTheAppMigratesWaitsAndOpensWhatItLeaves() async throws {
        for trial in 1...Self.trials {
            let url = try await trialStore()
            // The stage holds until the widget is seen waiting for the store's lock.
            let app = try StoreOpenerProcess("open-app", store: url, holdingInStage: true)
            #expect(await app.waitForLine(startingWith: "holding") != nil, "trial \(trial): \(app.lines)")
            // The app holds the store's write lock, migrating it; the widget has no plan.
            let widget = try StoreOpenerProcess("open-widget", store: url)
            #expect(await widget.waitForLine(startingWith: "waiting") != nil, "trial \(trial): the widget did not wait: \(widget.lines)")
            app.send("go")
            let (widgetStatus, widgetLines) = await widget.finish()
            #expect(widgetStatus == 0 && widgetLines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(widgetLines)")
            let (status, lines) = await app.finish()
            #expect(status == 0 && lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(lines)")
            try expectMigratedOnce(url, trial: trial)
        }
        print("app first, widget while it migrates, \(Self.trials) trials: the widget waited and opened the migrated store every time")
    }

    @Test func aWidgetThatOpensFirstNeverMigrates() async throws {
        var widgetOpened = 0, widgetRefused = 0
        for trial in 1...Self.trials {
            let url = try await trialStore()
            let widget = try StoreOpenerProcess("open-widget", store: url)
            try await Task.sleep(for: .milliseconds(30))
            let app = try StoreOpenerProcess("open-app", store: url)
            let (widgetStatus, widgetLines) = await widget.finish()
            if widgetStatus == 0 {
                // The app took the write lock between the widget's first look and its second,
                // so the widget waited for the migration and opened what it left.
                #expect(widgetLines.last == "opened 2.0.0 \(Self.entries) 0" && widgetLines.contains("waiting"), "trial \(trial): \(widgetLines)")
                widgetOpened += 1
            } else {
                #expect(widgetStatus == 3 && widgetLines.last?.contains(Self.widgetRefusal) == true, "trial \(trial): \(widgetLines)")
                widgetRefused += 1
            }
            let (status, lines) = await app.finish()
            #expect(status == 0 && lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(lines)")
            #expect(lines.contains("didMigrate"), "trial \(trial): the app ran the stage")
            try expectMigratedOnce(url, trial: trial)
            // Once the app has migrated the store, the widget opens it.
            let again = try await StoreOpenerProcess("open-widget", store: url).finish()
            #expect(again.status == 0 && again.lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(again.lines)")
        }
        #expect(widgetRefused + widgetOpened == Self.trials)
        print("widget first, then app, \(Self.trials) trials: the widget refused \(widgetRefused) times and opened \(widgetOpened) times after waiting; the app migrated every time")
    }

    @Test func anOpenerWaitingForAKilledMigrationMigratesTheStoreItself() async throws {
        var migratedByWaiter = 0
        for trial in 1...Self.trials {
            let url = try await trialStore()
            let first = try StoreOpenerProcess("open-app", store: url, holdingInStage: true)
            #expect(await first.waitForLine(startingWith: "holding") != nil, "trial \(trial): \(first.lines)")
            let second = try StoreOpenerProcess("open-app", store: url)
            #expect(await second.waitForLine(startingWith: "waiting") != nil, "trial \(trial): \(second.lines)")
            first.kill()
            _ = await first.finish()
            let (status, lines) = await second.finish()
            #expect(status == 0 && lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(lines)")
            if lines.contains("didMigrate") { migratedByWaiter += 1 }
            try expectMigratedOnce(url, trial: trial)
        }
        #expect(migratedByWaiter == Self.trials)
        print("killed migrator, \(Self.trials) trials: the waiting opener found the store as it was and migrated it \(migratedByWaiter) times")
    }

    @Test func anOpenerWaitingForAFailedMigrationGetsItsRefusal() async throws {
        var sameRefusal = 0
        for trial in 1...Self.trials {
            let url = try await trialStore()
            let before = try Data(contentsOf: url)
            let first = try StoreOpenerProcess("open-app", store: url, holdingInStage: true, failingInStage: true)
            #expect(await first.waitForLine(startingWith: "holding") != nil, "trial \(trial): \(first.lines)")
            let second = try StoreOpenerProcess("open-app", store: url, failingInStage: true)
            #expect(await second.waitForLine(startingWith: "waiting") != nil, "trial \(trial): \(second.lines)")
            first.send("go")
            let firstEnd = await first.finish()
            let secondEnd = await second.finish()
            for (status, lines) in [firstEnd, secondEnd] {
                #expect(status == 3, "trial \(trial): \(lines)")
                #expect(lines.last?.contains("the ledger's stage found entries it cannot convert") == true, "trial \(trial): \(lines)")
                #expect(lines.last?.contains("the store is as it was") == true, "trial \(trial): \(lines)")
            }
            if secondEnd.lines.last?.contains("cannot convert") == true { sameRefusal += 1 }
            let store = try outcome(url)
            #expect(store.version == "1.0.0" && store.migrations == 0, "trial \(trial)")
            #expect(store.files == [url.lastPathComponent], "trial \(trial): \(store.files)")
            #expect(try Data(contentsOf: url) == before, "trial \(trial)")
        }
        #expect(sameRefusal == Self.trials)
        print("failed migration, \(Self.trials) trials: the waiting opener got the stage's refusal \(sameRefusal) times, the store left as it was")
    }

    @Test func severalProcessesCreatingTheStoreAtOnceOpenOne() async throws {
        try #require(StoreOpenerProcess.isBuilt, "StoreOpener is built beside the tests")
        for trial in 1...Self.trials {
            let url = temporaryStoreURL("ledger")
            let apps = try (1...4).map { _ in try StoreOpenerProcess("open-app", store: url) }
            for app in apps {
                let (status, lines) = await app.finish()
                #expect(status == 0, "trial \(trial): \(lines)")
                #expect(lines.last == "opened 2.0.0 0 0", "trial \(trial): \(lines)")
            }
            let store = try outcome(url)
            #expect(store.version == "2.0.0" && store.migrations == 0 && store.entries == 0, "trial \(trial)")
            #expect(store.files == [url.lastPathComponent], "trial \(trial): \(store.files)")
        }
    }

    @Test func aContainerOpenWhileAnotherProcessMigratesRefusesToReadOrSave() async throws {
        var refused = 0
        for trial in 1...Self.trials {
            let url = try await trialStore()
            let holder = try StoreOpenerProcess("hold-v1", store: url)
            #expect(await holder.waitForLine(startingWith: "ready") == "ready \(Self.entries)", "trial \(trial): \(holder.lines)")
            let app = try await StoreOpenerProcess("open-app", store: url).finish()
            #expect(app.status == 0 && app.lines.last == "opened 2.0.0 \(Self.entries) 0", "trial \(trial): \(app.lines)")
            holder.send("go")
            let (status, lines) = await holder.finish()
            #expect(status == 0, "trial \(trial): \(lines)")
            let fetch = lines.first { $0.hasPrefix("fetch") } ?? ""
            let save = lines.first { $0.hasPrefix("save") } ?? ""
            #expect(fetch.hasPrefix("fetch refused") && fetch.contains("was migrated to version 2.0.0 by another process"), "trial \(trial): \(fetch)")
            #expect(save.hasPrefix("save refused") && save.contains("was migrated to version 2.0.0 by another process"), "trial \(trial): \(save)")
            if fetch.hasPrefix("fetch refused"), save.hasPrefix("save refused") { refused += 1 }
            try expectMigratedOnce(url, trial: trial)
        }
        #expect(refused == Self.trials)
        print("container open during another process's migration, \(Self.trials) trials: its next fetch and save were refused \(refused) times")
    }
}
