import Foundation
import SwiftData
import SwiftDataSync
import SyncTestModels
import TestSupport

// A device of the sync tests: its own SQLite store in <folder>/<name>.store, syncing with the
// server at <server URL> over HTTP. Usage: SyncDeviceProcess <server URL> <folder> <name> <mode>:
//   edit <seed> <rounds>  rounds of random edits, each followed by a sync half the time
//   work <seed> <rounds> <run>
//                         rounds of random edits, each also adding a mark named
//                         <name>-<run>-<round> linked to pins and counting in the device's
//                         tally, then saving, saying "saved <mark> <count> <pins,…>", and syncing (failures
//                         said and let go: the network and the server may fail)
//   bulk <name> <count>   makes <count> journeys titled <name>-<i>, each with one to three
//                         labels (three of them new, named <name>-label-<i>), in one save;
//                         says "saved" and syncs, then says "synced"
//   journey <title> <country code>
//                         makes the country (or upserts it: the code is unique) and a journey
//                         linked to it, and saves (no sync)
//   label <journey title> <label name> add|remove
//                         links the journey to the label (made when missing) or unlinks it,
//                         and saves (no sync)
//   sync                  syncs once
//   snapshot              prints the store's snapshot as JSON (no sync)
// Exits 0, or 3 saying "failed <why>".

let arguments = CommandLine.arguments
guard arguments.count >= 5, let server = URL(string: arguments[1]) else {
    print("usage: SyncDeviceProcess <server URL> <folder> <name> edit <seed> <rounds> | work <seed> <rounds> <run> | sync | snapshot")
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[2])
let name = arguments[3]
do {
    let container = try ModelContainer(
        for: Schema(SyncTestModels.all), configurations: ModelConfiguration(url: folder.appendingPathComponent("\(name).store")))
    let engine = try SyncEngine(
        container: container, models: SyncTestModels.all, ledgerURL: folder.appendingPathComponent("\(name)-sync.store"),
        transport: SyncHTTPTransport(baseURL: server.appendingPathComponent("sync")), node: name)
    switch arguments[4] {
    case "edit":
        var random = SplitMix(seed: UInt64(arguments[5])!)
        for _ in 0..<Int(arguments[6])! {
            let context = ModelContext(container)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                try RandomEdit.apply(in: context, using: &random)
                if Bool.random(using: &random) { try context.save() }
            }
            try context.save()
            if Bool.random(using: &random) { try await engine.sync() }
        }
    case "work":
        var random = SplitMix(seed: UInt64(arguments[5])!)
        for round in 0..<Int(arguments[6])! {
            let context = ModelContext(container)
            for _ in 0..<Int.random(in: 0...2, using: &random) { try RandomEdit.apply(in: context, using: &random) }
            let mark = "\(name)-\(arguments[7])-\(round)"
            let made = Mark(name: mark)
            context.insert(made)
            let pins = try RandomEdit.pin(made, of: name, in: context, using: &random)
            let tally = try context.fetch(FetchDescriptor<Tally>(predicate: #Predicate { $0.device == name })).first ?? {
                let made = Tally(device: name, count: 0)
                context.insert(made)
                return made
            }()
            tally.count += 1
            try context.save()
            FileHandle.standardOutput.write(Data("saved \(mark) \(tally.count) \(pins.joined(separator: ","))\n".utf8))
            do {
                try await engine.sync()
            } catch {
                FileHandle.standardOutput.write(Data("sync failed \(error)\n".utf8))
            }
        }
    case "bulk":
        let prefix = arguments[5]
        var random = SplitMix(seed: prefix.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })
        let context = ModelContext(container)
        var labels = try context.fetch(FetchDescriptor<Label>(sortBy: [SortDescriptor(\.name)]))
        for index in 0..<3 {
            let label = Label(name: "\(prefix)-label-\(index)")
            context.insert(label)
            labels.append(label)
        }
        for index in 0..<Int(arguments[6])! {
            let journey = Journey(title: "\(prefix)-\(index)", departure: Date(timeIntervalSinceReferenceDate: Double(index)))
            context.insert(journey)
            journey.labels = Array(labels.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        }
        try context.save()
        FileHandle.standardOutput.write(Data("saved\n".utf8))
        try await engine.sync()
        FileHandle.standardOutput.write(Data("synced\n".utf8))
    case "journey":
        let context = ModelContext(container)
        let country = Country(code: arguments[6], name: "made with \(arguments[5])")
        context.insert(country)
        let journey = Journey(title: arguments[5], departure: .now)
        context.insert(journey)
        journey.country = country
        try context.save()
    case "label":
        let context = ModelContext(container)
        let title = arguments[5], name = arguments[6]
        guard let journey = try context.fetch(FetchDescriptor<Journey>(predicate: #Predicate { $0.title == title })).first else {
            print("failed: no journey \(title)")
            exit(3)
        }
        if arguments[7] == "add" {
            let label = try context.fetch(FetchDescriptor<Label>(predicate: #Predicate { $0.name == name })).first ?? {
                let made = Label(name: name)
                context.insert(made)
                return made
            }()
            journey.labels.append(label)
        } else {
            journey.labels.removeAll { $0.name == name }
        }
        try context.save()
    case "sync":
        try await engine.sync()
    case "snapshot":
        let snapshot = try await engine.snapshot()
        print(String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self))
    default:
        print("failed: no mode \(arguments[4])")
        exit(2)
    }
} catch {
    print("failed \(error)")
    exit(3)
}
