import Foundation
import OpenSwiftData
import NIOPosix
import OpenSwiftDataPostgres
import PostgresServerModels

// A server process sharing one PostgreSQL store with others, for the tests of several servers
// on one database. Usage: PostgresServerProcess <postgres URL> <database schema> <name> <saves>:
// opens the store (creating it if no other process has yet), then makes `saves` saves of one
// ticket each, numbered 0..<saves and marked with `name`, with the shared tally (one unique
// name, upserted by every save of every process), through container.perform, and counts the
// tickets every other process saved so far after each. Says "saved <saves> <tickets seen at
// the end>" (exit 0) or "failed <why>" (exit 3). With <name> "on-event-loop" (and no count) it
// fetches on a SwiftNIO event loop instead, which must stop the process. With "write-tags
// <count>" it writes a version 1 store of tags, and with "migrate-tags" it opens it with
// version 2 (a unique constraint and a defaulted attribute added), for the fault tests.

/// A store to migrate while the process may be killed: version 1 of its tags, then version 2,
/// whose unique constraint over many rows takes a while to build.
enum TagsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Tag.self] }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

enum TagsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tag.self] }

    @Model final class Tag {
        @Attribute(.unique) var label: String
        var colour: String = "grey"
        init(label: String) { self.label = label }
    }
}

enum TagsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TagsV1.self, TagsV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: TagsV1.self, toVersion: TagsV2.self)] }
}

let arguments = CommandLine.arguments
if arguments.count >= 4, arguments[3] == "write-tags" || arguments[3] == "migrate-tags" {
    // <url> <schema> write-tags <count>: a version 1 store of `count` tags;
    // <url> <schema> migrate-tags: open it with version 2 and the plan.
    let configuration = PostgresConfiguration(url: URL(string: arguments[1])!, databaseSchema: arguments[2])
    do {
        if arguments[3] == "write-tags" {
            let container = try ModelContainer(for: Schema(versionedSchema: TagsV1.self), migrationPlan: TagsPlan.self, configurations: [configuration])
            let context = ModelContext(container)
            for index in 0..<(Int(arguments[4]) ?? 0) { context.insert(TagsV1.Tag(label: "tag \(index)")) }
            try context.save()
            print("wrote")
        } else {
            let container = try ModelContainer(for: Schema(versionedSchema: TagsV2.self), migrationPlan: TagsPlan.self, configurations: [configuration])
            print("migrated \(try ModelContext(container).fetchCount(FetchDescriptor<TagsV2.Tag>()))")
        }
        exit(0)
    } catch {
        print("failed \(error)")
        exit(3)
    }
}
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
