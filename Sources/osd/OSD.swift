import ArgumentParser

/// `osd`: OpenSwiftData's command-line tool.
@main
struct OSD: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osd",
        abstract: "OpenSwiftData's command-line tool.",
        subcommands: [Demo.self, Inspect.self, Diff.self, Snapshot.self, Check.self, Backup.self, Restore.self, Export.self, Import.self, History.self])
}
