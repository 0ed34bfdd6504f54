import Foundation
import Hummingbird
import HummingbirdTesting
import NotesServerApp
import OpenSwiftData
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example server as a newcomer uses it: its API exercised over HTTP against PostgreSQL,
/// and the `notes-server` executable started, asked, and stopped as a deploy would.
@Suite(.enabled(if: PostgresTestServer.isAvailable)) struct NotesServerTests {
    let databaseSchema = "notes_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()

    static func json<T: Encodable>(_ value: T) throws -> ByteBuffer {
        ByteBuffer(data: try JSONEncoder().encode(value))
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(buffer: response.body))
    }

    @Test func createListSearchUpdateAndDeleteOverHTTP() async throws {
        let server = NotesServer(databaseURL: PostgresTestServer.url!, databaseSchema: databaseSchema)
        try await server.application(port: 0).test(.live) { client in
            var created: [NoteReply] = []
            for (title, body, notebook) in [("Groceries", "milk, café", "home"), ("Standup", "ship the release", "work"), ("Árbol", "plant it", "home")] {
                created.append(try await client.execute(uri: "/notes", method: .post, body: try Self.json(NewNote(title: title, body: body, notebook: notebook))) { response in
                    #expect(response.status == .created)
                    return try Self.decoded(NoteReply.self, response)
                })
            }
            // Sorted by title as Swift sorts (Á after every ASCII capital), paged, with the total.
            let page = try await client.execute(uri: "/notes?sort=title&per=2&page=1", method: .get) { try Self.decoded(NotePage.self, $0) }
            #expect(page.total == 3)
            #expect(page.notes.map(\.title) == ["Groceries", "Standup"])
            let second = try await client.execute(uri: "/notes?sort=title&per=2&page=2", method: .get) { try Self.decoded(NotePage.self, $0) }
            #expect(second.notes.map(\.title) == ["Árbol"])
            // A search folds case and accents, as localizedStandardContains does.
            let found = try await client.execute(uri: "/notes?search=CAFE", method: .get) { try Self.decoded(NotePage.self, $0) }
            #expect(found.notes.map(\.title) == ["Groceries"])
            // Changed, read back, deleted, then missing.
            let groceries = created[0].id
            let changed = try await client.execute(uri: "/notes/\(groceries)", method: .patch, body: try Self.json(NoteChange(pinned: true))) {
                try Self.decoded(NoteReply.self, $0)
            }
            #expect(changed.pinned && changed.title == "Groceries")
            try await client.execute(uri: "/notes/\(created[1].id)", method: .delete) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/notes/\(created[1].id)", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no Note has the identifier"))
            }
            // The relationship: a notebook's notes, deleted with it.
            let home = try await client.execute(uri: "/notebooks/home/notes", method: .get) { try Self.decoded([NoteReply].self, $0) }
            #expect(home.map(\.title) == ["Groceries", "Árbol"])
            try await client.execute(uri: "/notebooks/home", method: .delete) { #expect($0.status == .noContent) }
            let left = try await client.execute(uri: "/notes", method: .get) { try Self.decoded(NotePage.self, $0) }
            #expect(left.total == 0)
        }
    }

    /// `notes-server migrate --dry-run`, `migrate`, then `serve`, a request, and SIGTERM: the
    /// process shuts down gracefully and exits 0.
    @Test func theExecutableMigratesServesAndStops() async throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("notes-server")
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = PostgresTestServer.url!.absoluteString
        environment["DATABASE_SCHEMA"] = databaseSchema
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
        let dryRun = try run(["migrate", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(dryRun.output.contains("Dry run"), "\(dryRun.output)")
        let migrated = try run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.output)")

        let port = 20_000 + Int.random(in: 0..<20_000)
        let serving = Process()
        serving.executableURL = executable
        serving.arguments = ["serve", "--port", "\(port)"]
        serving.environment = environment
        serving.standardOutput = FileHandle.nullDevice
        serving.standardError = FileHandle.nullDevice
        try serving.run()
        defer { if serving.isRunning { serving.terminate() } }
        var post = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/notes")!)
        post.httpMethod = "POST"
        post.httpBody = try JSONEncoder().encode(NewNote(title: "From a process", body: "served"))
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        var answer: (Data, URLResponse)?
        for _ in 0..<100 {
            if let reply = try? await URLSession.shared.data(for: post) {
                answer = reply
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let (_, response) = try #require(answer, "notes-server did not answer on port \(port)")
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/notes")!)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(NotePage.self, from: data).notes.map(\.title) == ["From a process"])
        kill(serving.processIdentifier, SIGTERM)
        serving.waitUntilExit()
        #expect(serving.terminationStatus == 0)
    }
}
