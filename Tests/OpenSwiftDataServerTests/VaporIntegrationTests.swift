import Foundation
import OpenSwiftData
import OpenSwiftDataVapor
import Testing
import VaporTesting

/// A Vapor application with `app.modelContainer` and `request.modelContext`, exercised over
/// HTTP (a running server): OpenSwiftData's errors answered with their statuses, and the
/// container closed when the application shuts down.
@Suite struct VaporIntegrationTests {
    static func configure(_ app: Application, _ container: ModelContainer) {
        app.modelContainer = container
        app.post("notes") { request async throws -> NoteReply in
            try await NoteHandlers.create(try request.content.decode(NoteReply.self), folder: request.query["folder"], in: request.modelContext)
        }
        app.get("notes") { request async throws -> [NoteReply] in try await NoteHandlers.list(in: request.modelContext) }
        app.get("notes", ":slug") { request async throws -> NoteReply in
            try await NoteHandlers.note(request.parameters.get("slug")!, in: request.modelContext)
        }
        app.put("notes", ":slug", "slug", ":new") { request async throws -> NoteReply in
            try await NoteHandlers.rename(request.parameters.get("slug")!, to: request.parameters.get("new")!, in: request.modelContext)
        }
        app.delete("folders", ":name") { request async throws -> HTTPStatus in
            try await NoteHandlers.deleteFolder(request.parameters.get("name")!, in: request.modelContext)
            return .noContent
        }
    }

    @Test func routesUseTheRequestsModelsAndAnswerErrorsWithTheirStatus() async throws {
        let container = try serverTestContainer()
        try await withApp(configure: { Self.configure($0, container) }) { app in
            let tester = try app.testing(method: .running(port: 0))
            for (slug, title) in [("b", "Beta"), ("a", "Alpha")] {
                let created = try await tester.sendRequest(.POST, "notes?folder=work", beforeRequest: { try $0.content.encode(NoteReply(slug: slug, title: title)) })
                #expect(created.status == .ok)
            }
            let listed = try await tester.sendRequest(.GET, "notes")
            #expect(try listed.content.decode([NoteReply].self) == [NoteReply(slug: "a", title: "Alpha"), NoteReply(slug: "b", title: "Beta")])
            let missing = try await tester.sendRequest(.GET, "notes/zzz")
            #expect(missing.status == .notFound)
            #expect(missing.body.string.contains("no Note has the identifier zzz"))
            let conflict = try await tester.sendRequest(.PUT, "notes/b/slug/a")
            #expect(conflict.status == .conflict)
            #expect(conflict.body.string.contains("unique attribute"))
            let denied = try await tester.sendRequest(.DELETE, "folders/work")
            #expect(denied.status == .unprocessableEntity)
            let kept = try await tester.sendRequest(.GET, "notes/b")
            #expect(try kept.content.decode(NoteReply.self) == NoteReply(slug: "b", title: "Beta"))
        }
        await #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try await container.perform { try $0.fetchCount(FetchDescriptor<Note>()) }
        }
    }
}
extension NoteReply: Content {}
