import Foundation
import OpenSwiftData
import NIOPosix
import OpenSwiftDataPostgres

// A server process sharing one PostgreSQL store with others, for the tests of several servers
// on one database. Usage: PostgresServerProcess <postgres URL> <database schema> <name> <saves>:
// opens the store (creating it if no other process has yet), then makes `saves` saves of one
// ticket each, numbered 0..<saves and marked with `name`, with the shared tally (one unique
// name, upserted by every save of every process), through container.perform, and counts the
// tickets every other process saved so far after each. Says "saved <saves> <tickets seen at
// the end>" (exit 0) or "failed <why>" (exit 3). With <name> "on-event-loop" (and no count) it
// fetches on a SwiftNIO event loop instead, which must stop the process.

@Model final class Ticket {
    var process: String
    var serial: Int
    init(process: String, serial: Int) {
        self.process = process
        self.serial = serial
    }
}

@Model final class Tally {
    @Attribute(.unique) var name: String
    var lastProcess: String
    init(name: String, lastProcess: String) {
        self.name = name
        self.lastProcess = lastProcess
    }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[3] == "on-event-loop" {
    // A context's synchronous work on an event loop would wait for itself: the store stops the
    // process, saying what to do instead.
    let container = try ModelContainer(
        for: Ticket.self, Tally.self, configurations: PostgresConfiguration(url: URL(string: arguments[1])!, databaseSchema: arguments[2]))
    try await MultiThreadedEventLoopGroup.singleton.any().submit {
        _ = try ModelContext(container).fetchCount(FetchDescriptor<Ticket>())
    }.get()
    print("returned")
    exit(0)
}
guard arguments.count == 5, let url = URL(string: arguments[1]), let saves = Int(arguments[4]) else {
    print("usage: PostgresServerProcess <postgres URL> <database schema> <name> <saves>")
    exit(2)
}
let name = arguments[3]
do {
    let container = try ModelContainer(
        for: Ticket.self, Tally.self, configurations: PostgresConfiguration(url: url, databaseSchema: arguments[2]))
    var seen = 0
    for serial in 0..<saves {
        seen = try await container.perform { context in
            context.insert(Ticket(process: name, serial: serial))
            context.insert(Tally(name: "shared", lastProcess: name))
            try context.save()
            return try context.fetchCount(FetchDescriptor<Ticket>())
        }
    }
    print("saved \(saves) \(seen)")
} catch {
    print("failed \(error)")
    exit(3)
}
