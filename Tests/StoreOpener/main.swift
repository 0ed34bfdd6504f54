import Foundation
import OpenSwiftData

// A process that opens a ledger store as one of an app's processes would, for the tests of
// several processes sharing one store. Usage: StoreOpener <command> <store path> [rows], where
// the command is one of
//   write-v1     write a version 1 store of `rows` entries, through the app's plan;
//   open-app     open it as the app does (version 2's models and the plan);
//   open-widget  open it as an extension does (version 2's models, no plan);
//   hold-v1      open it with version 1's models and the plan, say "ready", and once a line
//                arrives on standard input read and save through the same container;
//   save-lines   open it with version 1's models and the plan, say "ready", then for each line
//                "<count> [author]" on standard input save that many new entries in one save
//                (by the author, if given) and say "saved <count>".
// It says what happened on standard output: "waiting" while another process holds the store,
// "willMigrate" and "didMigrate" as the stage runs, then "opened <version> <entries>
// <entries whose units are wrong>" (exit 0) or "refused <why>" (exit 3).

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    say("usage: StoreOpener write-v1|open-app|open-widget|hold-v1 <store> [rows]")
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])
let configuration = ModelConfiguration(url: url)


do {
    switch arguments[1] {
    case "write-v1":
        let rows = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
        let container = try ModelContainer(
            for: Schema(versionedSchema: LedgerV1.self), migrationPlan: LedgerPlan.self, configurations: [configuration])
        let context = ModelContext(container)
        for index in 0..<rows {
            context.insert(LedgerV1.Entry(title: "entry \(index)", cents: index * 7 % 100_000))
        }
        try context.save()
        say("opened 1.0.0 \(rows) 0")
    case "open-app":
        let container = try ModelContainer(
            for: Schema(versionedSchema: LedgerV2.self), migrationPlan: LedgerPlan.self, configurations: [configuration]
        ) { progress in
            if progress.phase == .waitingForAnotherProcess, progress.rowsDone == 0 { say("waiting") }
        }
        if let report = container.migrationReports.first {
            say("migrated in \(report.steps.reduce(0) { $0 + $1.milliseconds }) ms")
        }
        let context = ModelContext(container)
        let entries = try context.fetchCount(FetchDescriptor<LedgerV2.Entry>())
        let wrong = try context.fetch(FetchDescriptor<LedgerV2.Entry>()).count { $0.units != Double($0.cents) / 100 }
        say("opened 2.0.0 \(entries) \(wrong)")
    case "open-widget":
        let container = try ModelContainer(for: Schema([LedgerV2.Entry.self]), configurations: [configuration]) { progress in
            if progress.phase == .waitingForAnotherProcess, progress.rowsDone == 0 { say("waiting") }
        }
        let entries = try ModelContext(container).fetchCount(FetchDescriptor<LedgerV2.Entry>())
        say("opened 2.0.0 \(entries) 0")
    case "hold-v1":
        let container = try ModelContainer(
            for: Schema(versionedSchema: LedgerV1.self), migrationPlan: LedgerPlan.self, configurations: [configuration])
        let context = ModelContext(container)
        say("ready \(try context.fetchCount(FetchDescriptor<LedgerV1.Entry>()))")
        _ = readLine()
        do {
            say("fetched \(try context.fetch(FetchDescriptor<LedgerV1.Entry>(predicate: #Predicate { $0.cents < 100 })).count)")
        } catch {
            say("fetch refused \(error)")
        }
        context.insert(LedgerV1.Entry(title: "late", cents: 1))
        do {
            try context.save()
            say("saved")
        } catch {
            say("save refused \(error)")
        }
    case "save-lines":
        let container = try ModelContainer(
            for: Schema(versionedSchema: LedgerV1.self), migrationPlan: LedgerPlan.self, configurations: [configuration])
        let context = ModelContext(container)
        say("ready")
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            let count = Int(words.first ?? "") ?? 0
            context.author = words.count > 1 ? words[1] : nil
            for index in 0..<count { context.insert(LedgerV1.Entry(title: "line entry \(index)", cents: index)) }
            try context.save()
            say("saved \(count)")
        }
    default:
        say("unknown command \(arguments[1])")
        exit(2)
    }
} catch {
    say("refused \(error)")
    exit(3)
}
