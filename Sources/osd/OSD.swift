import ArgumentParser

@main
struct OSD: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "osd", abstract: "OpenSwiftData's command-line tool.")
}
