import ArgumentParser
import Foundation
import Hummingbird
import NotesServerApp

/// `notes-server [serve|migrate] [--dry-run] [--port N]`, against `DATABASE_URL` (a local
/// PostgreSQL by default), in its `DATABASE_SCHEMA` (`public` by default).
@main struct NotesServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "notes-server", abstract: "A notes API on OpenSwiftData, Hummingbird and PostgreSQL.")

    @Argument(help: "serve, or migrate (before serving a new version).") var command = "serve"
    @Flag(help: "With migrate: print each step's statements and the rolling-deploy verdict; keep nothing.") var dryRun = false
    @Option(help: "The address to serve on.") var host = "127.0.0.1"
    @Option(help: "The port to serve on.") var port = 8080

    func run() async throws {
        let url = ProcessInfo.processInfo.environment["DATABASE_URL"] ?? "postgres://postgres@localhost:5432/postgres"
        guard let databaseURL = URL(string: url) else { throw ValidationError("DATABASE_URL is not a URL: \(url)") }
        let server = NotesServer(databaseURL: databaseURL, databaseSchema: ProcessInfo.processInfo.environment["DATABASE_SCHEMA"] ?? "public")
        switch command {
        case "migrate":
            let outcome = await server.deploy.run(dryRun: dryRun)
            if outcome != .done { throw ExitCode(outcome.rawValue) }
        case "serve":
            try await server.application(host: host, port: port).runService()
        default:
            throw ValidationError("unknown command \(command): serve or migrate")
        }
    }
}
